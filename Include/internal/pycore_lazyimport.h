#ifndef Py_INTERNAL_LAZYIMPORT_H
#define Py_INTERNAL_LAZYIMPORT_H
#ifdef __cplusplus
extern "C" {
#endif

#ifndef Py_BUILD_CORE
#  error "this header requires Py_BUILD_CORE define"
#endif

/* Lazy imports (PEP 690).

   A lazy import object stands in a namespace dict for the result of an
   import statement that has not run yet.  It never escapes to Python code:
   every read of a dict value resolves it first (see dictobject.c).

   There are three shapes:

   - a module import ("import a.b", the module of "from a import x"):
     lz_parent is NULL; lz_name, lz_fromlist and lz_level are the arguments
     of __import__();
   - a name taken from another lazy import ("from a import x",
     "import a.b as c"): lz_parent is that lazy import, lz_name the
     attribute;
   - a submodule installed in a package when "import a.b" and "import a.c"
     bound the same name "a": lz_submodule is true and resolving it imports
     lz_name and returns that module (not the top-level package). */
typedef struct {
    PyObject_HEAD
    PyObject *lz_name;
    PyObject *lz_fullname;      /* absolute dotted name, for messages */
    PyObject *lz_fromlist;      /* module import: None or a tuple */
    PyObject *lz_level;         /* module import: an int */
    PyObject *lz_parent;        /* name import: the lazy import it reads */
    PyObject *lz_globals;       /* namespace of the import statement */
    PyObject *lz_locals;
    PyObject *lz_builtins;      /* builtins of the import statement */
    PyObject *lz_pending;       /* list of other submodules to make
                                   reachable once imported, or NULL */
    PyObject *lz_code;          /* where the statement is, or NULL */
    int lz_addr;                /* byte offset in lz_code */
    int lz_submodule;
    PyObject *lz_value;         /* the result, once resolved */
} PyLazyImportObject;

extern PyTypeObject _PyLazyImport_Type;

#define PyLazyImport_CheckExact(op) Py_IS_TYPE((op), &_PyLazyImport_Type)

/* Create a lazy module import.  Returns a new reference. */
extern PyObject * _PyLazyImport_New(
    PyObject *name, PyObject *fullname, PyObject *fromlist, PyObject *level,
    PyObject *globals, PyObject *locals, PyObject *builtins,
    PyObject *code, int addr);

/* Create the lazy import of attribute 'name' of the lazy import 'parent'
   (IMPORT_FROM).  Returns a new reference. */
extern PyObject * _PyLazyImport_NewFrom(PyObject *parent, PyObject *name);

/* Run the deferred import.  Returns a new reference to the result, or
   NULL with an exception set.  The result is cached: resolving twice gives
   the same object. */
extern PyObject * _PyLazyImport_Resolve(PyObject *lazy);

/* Record that "import <lazy.lz_fullname>" also makes the submodules
   of 'previous' (an earlier lazy import bound to the same name)
   reachable.  Returns 0, or -1 with an exception set. */
extern int _PyLazyImport_MergePending(PyObject *lazy, PyObject *previous);

/* Is dict[name] a lazy import that the current thread is resolving? */
extern int _PyLazyImport_IsBeingResolved(PyObject *dict, PyObject *name);

#ifdef __cplusplus
}
#endif
#endif /* !Py_INTERNAL_LAZYIMPORT_H */
