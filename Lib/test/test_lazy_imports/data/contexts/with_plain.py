import contextlib

with contextlib.nullcontext():
    import target
print("bound")
