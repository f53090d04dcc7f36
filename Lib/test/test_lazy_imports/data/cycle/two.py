# A cycle through two modules: first.get() resolves second, whose body
# calls first.get() again.
import first

try:
    first.get()
except ImportError as exc:
    print("ImportError", "first" in str(exc), "second" in str(exc))
