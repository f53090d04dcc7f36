try:
    pass
except ValueError:
    pass
else:
    import target
print("bound")
