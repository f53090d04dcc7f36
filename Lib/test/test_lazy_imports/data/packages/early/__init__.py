print("exec", __name__)
# early.a runs (eagerly) while the package initializes, and resolves its
# own lazy import of the sibling early.b at once.
try:
    import early.a
finally:
    pass
