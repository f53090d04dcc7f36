print("exec", __name__)
value = 1
