print("exec", __name__)
value = "a.a"
