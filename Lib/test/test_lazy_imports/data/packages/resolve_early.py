# The package early imports early.a while it initializes, which resolves a
# lazy import of early.b; all reached through a lazy `from early import b`.
from early import b

print(b.__name__, b.value)
