# import a.b.c binds a; import a.b.c as d binds the submodule; siblings
# imported lazily are both reachable, each only when reached.
import sys
import pkg.sub.leaf
import pkg.sub.leaf as leaf
import pkg.b
import pkg.c

print("bound", [name in globals() for name in ("pkg", "sub", "leaf")])
print(pkg.b.value)
print("pkg.c" in sys.modules)
print(pkg.c.value, pkg.sub.leaf.value, leaf is sys.modules["pkg.sub.leaf"])
