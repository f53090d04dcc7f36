# excluding names absolute modules to import eagerly; the rest stays lazy,
# including the imports inside the excluded modules.
import importlib
import sys

importlib.set_lazy_imports(excluding=sys.argv[1:])
import foo
import bar
from bar.baz import x
print("bound")
print(foo.get(), bar.__name__, x)
