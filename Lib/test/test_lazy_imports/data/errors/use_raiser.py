import raiser
print("bound")
try:
    raiser.attr
except LookupError as exc:
    print(type(exc).__name__, exc)
    for note in getattr(exc, "__notes__", ()):
        print("note:", note)
