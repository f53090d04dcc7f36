print("exec", __name__)
__version__ = "1.0"
