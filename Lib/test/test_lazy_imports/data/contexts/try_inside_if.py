if True:
    try:
        import target
    finally:
        pass
print("bound")
