# from gamma.a import a in gamma/__init__.py, with gamma/a/a.py: gamma.a is
# the module gamma.a.a, however it is reached.
import gamma
from gamma import a as from_imported

print(gamma.a.__name__)
print(getattr(gamma, "a").__name__, from_imported.__name__)
print(vars(gamma)["a"].__name__)
