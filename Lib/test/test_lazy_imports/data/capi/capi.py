"""ctypes bindings of the lazy imports C API (contract rule 29), for scripts
run by the tests: ``from capi import *``."""
import ctypes

__all__ = ["is_enabled", "set_lazy", "is_lazy", "resolve", "next_with_error",
           "items_with_error"]

PyObject = ctypes.py_object


def declare(name, restype, *argtypes):
    function = getattr(ctypes.pythonapi, name)
    function.restype = restype
    function.argtypes = argtypes
    return function


is_enabled = declare("PyImport_IsLazyImportsEnabled", ctypes.c_int)
set_lazy = declare("PyImport_SetLazyImports", PyObject, PyObject, PyObject)
is_lazy = declare("PyDict_IsLazyImport", ctypes.c_int, PyObject, PyObject)
resolve = declare("PyDict_ResolveLazyImports", ctypes.c_int, PyObject)
next_with_error = declare(
    "PyDict_NextWithError", ctypes.c_int, PyObject,
    ctypes.POINTER(ctypes.c_ssize_t), ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_void_p))


def items_with_error(mapping):
    """[(key, value)] of *mapping* read with PyDict_NextWithError."""
    position = ctypes.c_ssize_t(0)
    key, value = ctypes.c_void_p(), ctypes.c_void_p()
    found = []
    while next_with_error(mapping, ctypes.byref(position),
                          ctypes.byref(key), ctypes.byref(value)) == 1:
        found.append((ctypes.cast(key.value, PyObject).value,
                      ctypes.cast(value.value, PyObject).value))
    return found
