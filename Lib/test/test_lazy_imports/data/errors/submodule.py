# A failed import of a submodule leaves sys.modules and the package as a
# failed eager import leaves them.
import sys


def report():
    print(sorted(m for m in sys.modules if m.startswith("pkg")),
          hasattr(sys.modules["pkg"], "bad"))


if sys.flags.lazy_imports:
    import pkg.bad
    try:
        pkg.bad
    except LookupError:
        report()
else:
    try:
        import pkg.bad
    except LookupError:
        report()
