print("exec", __name__)
value = "leaf"
