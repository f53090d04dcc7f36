# A failed import of a submodule leaves sys.modules and the package as a
# failed eager import leaves them.
#   submodule.py [import | from]: import pkg.bad, or from pkg.bad import value
import sys


def report():
    print(sorted(m for m in sys.modules if m.startswith("pkg")),
          hasattr(sys.modules["pkg"], "bad"))


form = sys.argv[1] if sys.argv[1:] else "import"
if not sys.flags.lazy_imports:
    try:
        if form == "import":
            import pkg.bad
        else:
            from pkg.bad import value
    except LookupError:
        report()
elif form == "import":
    import pkg.bad
    try:
        pkg.bad
    except LookupError:
        report()
else:
    from pkg.bad import value
    try:
        value
    except LookupError:
        report()
