try:
    pass
finally:
    import target
print("bound")
