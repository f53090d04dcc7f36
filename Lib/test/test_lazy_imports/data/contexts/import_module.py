import importlib

importlib.import_module("target")
print("bound")
