import importlib

if True:
    importlib.import_module("target")
print("bound")
