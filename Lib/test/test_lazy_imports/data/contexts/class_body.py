class Loader:
    import target


print("bound")
