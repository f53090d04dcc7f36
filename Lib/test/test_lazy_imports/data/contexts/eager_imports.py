# eager_imports() is lexical: outer is eager, outer's own imports are not.
import importlib

with importlib.eager_imports():
    import outer
print("after with")
import target
print("bound")
outer.get()
target.value
