# A lazy import binds a name and imports nothing until the name is used.
import importlib
import sys

audited = []
sys.addaudithook(lambda event, args: audited.append(args[0])
                 if event == "import" and args[0] == "target" else None)

import target

print("bound", "target" in globals(), "target" in sys.modules, audited)
print("lazy", importlib.is_lazy_import(globals(), "target"))
print(target.value, target.value)
print("lazy", importlib.is_lazy_import(globals(), "target"))
print("same", globals()["target"] is sys.modules["target"], audited)
