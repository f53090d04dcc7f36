# The package's own __version__ is never clobbered by the same-named
# submodule, however the submodule is reached.
import pkg
import pkg.__version__
import pkg.__version__ as as_imported
from pkg import __version__ as from_imported

print(pkg.__version__)
print(__import__("pkg.__version__", fromlist=["x"]).__name__)
print(pkg.__version__, as_imported, from_imported)
