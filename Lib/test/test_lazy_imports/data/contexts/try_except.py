try:
    raise ValueError
except ValueError:
    import target
print("bound")
