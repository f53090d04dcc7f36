print("exec", __name__)
