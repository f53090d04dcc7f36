def load():
    import target


load()
print("bound")
