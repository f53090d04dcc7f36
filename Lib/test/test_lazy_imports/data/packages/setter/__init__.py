print("exec", __name__)
import setter.a.b
# The package's own attribute: a submodule of the same name never clobbers
# it, even when the lazy import above is resolved only after this line.
a = 100
setter.__name__
