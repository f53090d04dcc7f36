# A failed import of a submodule leaves sys.modules as a failed eager import
# leaves it.  After a lazy "import pkg.bad" failed on first use of pkg.bad,
# pkg.bad stays a lazy reference (contract rule 49) and the next use of it
# retries the import (contract rule 25), so hasattr(), which only swallows
# AttributeError, raises the error again.
#   submodule.py [import | from]: import pkg.bad, or from pkg.bad import value
import sys


def report():
    package = sys.modules["pkg"]
    print(sorted(m for m in sys.modules if m.startswith("pkg")),
          "bad" in vars(package))
    try:
        print(hasattr(package, "bad"))
    except LookupError:
        print("retried")


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
