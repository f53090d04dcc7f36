try:
    if True:
        for _ in [0]:
            import target
finally:
    pass
print("bound")
