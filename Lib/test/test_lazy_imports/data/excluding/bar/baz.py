print("exec", __name__)
x = 2
