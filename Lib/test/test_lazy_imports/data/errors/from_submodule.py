# As submodule.py, with from pkg.bad import value.
import sys


def report():
    print(sorted(m for m in sys.modules if m.startswith("pkg")),
          hasattr(sys.modules["pkg"], "bad"))


if sys.flags.lazy_imports:
    from pkg.bad import value
    try:
        value
    except LookupError:
        report()
else:
    try:
        from pkg.bad import value
    except LookupError:
        report()
