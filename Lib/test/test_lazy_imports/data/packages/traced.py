# A replaced builtins.__import__ sees the calls of this module's import
# statements, made when they run (eagerly) or resolve (lazily).
import builtins

original_import = builtins.__import__
calls = []


def tracing_import(name, globals=None, locals=None, fromlist=(), level=0):
    if (globals or {}).get("__name__") == "__main__":
        calls.append((name, fromlist and tuple(fromlist), level))
    return original_import(name, globals, locals, fromlist, level)


builtins.__import__ = tracing_import
import pkg.b
import pkg.c
from pkg import b as b_module
from pkg.sub import leaf
print("bound")
pkg.b.value, pkg.c.value, b_module.value, leaf.value
builtins.__import__ = original_import
for call in calls:
    print(call)
