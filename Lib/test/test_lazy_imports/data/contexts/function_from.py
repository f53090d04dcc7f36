def load():
    from target import value


load()
print("bound")
