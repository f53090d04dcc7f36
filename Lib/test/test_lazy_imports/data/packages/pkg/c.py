print("exec", __name__)
value = "c"
