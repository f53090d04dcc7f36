print("exec", __name__)
value = "b"
