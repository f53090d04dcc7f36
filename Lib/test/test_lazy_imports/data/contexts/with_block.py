import contextlib

with contextlib.nullcontext():
    if True:
        import target
print("bound")
