/* Lazy imports (PEP 690): the runtime.

   Objects/lazyimportobject.c defines the lazy import object; this file
   holds what gives it its meaning:

   - the decision whether an import statement is deferred
     (_PyLazyImport_ImportName(), called by IMPORT_NAME_LAZY) and the
     settings it reads (-L, importlib.set_lazy_imports());
   - the submodule bindings a deferred statement makes in its packages;
   - resolution, with the per-thread state it needs (what the thread is
     resolving, the import hooks running in it) and the notes added to
     its errors;
   - the lookups that resolve (module attributes) and the hooks of the
     import system (importlib calls them through _imp);
   - finalization.

   The reads of dict values that resolve are in Objects/dictobject.c; the
   healing rules of -L (the early completions and the guard's finding) in
   Python/lazyimport_heal.c, which shares Python/lazyimport_internal.h with
   this file. */

#include "Python.h"
#include "pycore_ceval.h"         // _PyEval_ImportName()
#include "pycore_dict.h"          // _PyDict_GetItemRefNoResolve()
#include "pycore_fileutils.h"     // _Py_fopen_obj()
#include "pycore_frame.h"         // _PyInterpreterFrame
#include "pycore_import.h"        // _PyImport_IsDefaultImportFunc()
#include "pycore_lazyimport.h"
#include "pycore_long.h"          // _PyLong_GetZero()
#include "pycore_moduleobject.h"  // _PyModuleSpec_IsInitializing()
#include "pycore_opcode_metadata.h" // _PyOpcode_Caches
#include "pycore_pyerrors.h"      // _PyErr_Occurred()
#include "pycore_pystate.h"       // _PyInterpreterState_GET()
#include "pycore_setobject.h"     // _PySet_NextEntry()
#include "pycore_traceback.h"     // _PyTraceback_Add()
#include "pycore_tstate.h"        // _PyThreadStateImpl
#include "pycore_unicodeobject.h" // _PyUnicode_FastCopyCharacters()
#include "opcode.h"                // LOAD_NAME
#include "lazyimport_internal.h"   // LAZY(), _PyLazyImport_GuardFinds()

#ifdef HAVE_DLOPEN
#  include <dlfcn.h>              // dlopen()
#endif

#ifdef Py_GIL_DISABLED
   /* Resolution relies on the GIL to make "resolve then store back" look
      atomic to other threads, and on thread identity to detect cycles. */
#  error "lazy imports (PEP 690) do not support the free-threaded build yet"
#endif

/* ----- Which import statements are deferred ----------------------------- */

/* "a.b" from "a" and "b": PyUnicode_FromFormat("%U.%U"), without parsing a
   format (it runs for every name of every deferred from-import). */
PyObject *
_PyLazyImport_Dotted(PyObject *base, PyObject *name)
{
    Py_ssize_t n1 = PyUnicode_GET_LENGTH(base);
    Py_ssize_t n2 = PyUnicode_GET_LENGTH(name);
    Py_UCS4 maxchar = Py_MAX(PyUnicode_MAX_CHAR_VALUE(base),
                             PyUnicode_MAX_CHAR_VALUE(name));
    PyObject *res = PyUnicode_New(n1 + 1 + n2, maxchar);
    if (res == NULL) {
        return NULL;
    }
    _PyUnicode_FastCopyCharacters(res, 0, base, 0, n1);
    PyUnicode_WRITE(PyUnicode_KIND(res), PyUnicode_DATA(res), n1, '.');
    _PyUnicode_FastCopyCharacters(res, n1 + 1, name, 0, n2);
    return res;
}

/* Defined with the submodule bindings below. */
static int bind_submodules(PyLazyImportObject *lz, PyObject *module);
static int provides_name(PyObject *package, PyObject *child);
static inline int is_from_name(PyObject *item);
/* Defined with resolution below. */
static int current_origin(PyThreadState *tstate, PyObject *globals,
                          PyObject **origin);

int
_PyLazyImport_ConfigMode(const PyConfig *config)
{
    /* -L is stored as the -X option "lazy_imports" so that PyConfig keeps
       its size and layout; PYTHON_LAZY_IMPORTS is read into the same
       option (initconfig.c).  The last one given wins.  "all" and
       "normal" are PEP 810's spellings; "verify" is "all" and also checks,
       at exit, that every lazy import left resolves (Py_RunMain()). */
    static const struct {
        const wchar_t *value;
        int mode;
    } modes[] = {
        {L"all", 1},
        {L"normal", 0},
        {L"none", _PyLazyImport_MODE_NONE},
        {L"verify", _PyLazyImport_MODE_VERIFY},
    };
    const size_t len = wcslen(L"lazy_imports");
    int mode = 0;
    for (Py_ssize_t i = 0; i < config->xoptions.length; i++) {
        const wchar_t *opt = config->xoptions.items[i];
        if (wcsncmp(opt, L"lazy_imports", len) != 0) {
            continue;
        }
        if (opt[len] == L'\0') {
            mode = 1;
            continue;
        }
        if (opt[len] != L'=') {
            continue;
        }
        mode = _PyLazyImport_MODE_INVALID;
        for (size_t k = 0; k < Py_ARRAY_LENGTH(modes); k++) {
            if (wcscmp(opt + len + 1, modes[k].value) == 0) {
                mode = modes[k].mode;
                break;
            }
        }
        if (mode == _PyLazyImport_MODE_INVALID) {
            break;
        }
    }
    return mode;
}

/* The value of a switch among the -X options: "-X NAME" and "-X NAME=1"
   give 1, "-X NAME=0" gives 0, any other value -1 (PyConfig_Read()
   rejects it); 1 when it is not given.  The last one given wins, as for
   -X lazy_imports. */
static int
config_switch(const PyConfig *config, const wchar_t *name)
{
    const size_t len = wcslen(name);
    int value = 1;
    for (Py_ssize_t i = 0; i < config->xoptions.length; i++) {
        const wchar_t *opt = config->xoptions.items[i];
        if (wcsncmp(opt, name, len) != 0) {
            continue;
        }
        if (opt[len] == L'\0') {
            value = 1;
        }
        else if (opt[len] != L'=') {
            continue;       /* another option: lazy_imports_healthy */
        }
        else if (wcscmp(opt + len + 1, L"1") == 0) {
            value = 1;
        }
        else if (wcscmp(opt + len + 1, L"0") == 0) {
            value = 0;
        }
        else {
            return -1;
        }
    }
    return value;
}

int
_PyLazyImport_ConfigHeal(const PyConfig *config)
{
    /* -X lazy_imports_heal=0 turns off the early completions of contract
       rules 51 and 52 (for comparisons, and to find the statements they
       heal): deferred imports then complete only where they are used.
       What stays: rule 53 (runpy.run_path() resolves its namespace) and
       rule 54's guard of the imports under a try that catches
       ImportError, which decides what is lazy, not when it completes. */
    return config_switch(config, L"lazy_imports_heal");
}

int
_PyLazyImport_ConfigDefaults(const PyConfig *config)
{
    /* -X lazy_imports_defaults=0 turns off the shipped defaults (contract
       rule 58): to see the failure an entry is there for, or to measure
       what it costs. */
    return config_switch(config, L"lazy_imports_defaults");
}

int
_PyLazyImport_Init(PyInterpreterState *interp)
{
    struct _lazy_import_state *state = &interp->imports.lazy;
    const PyConfig *config = _PyInterpreterState_GetConfig(interp);
    int mode = _PyLazyImport_ConfigMode(config);
    /* PyConfig_Read() rejected an invalid value; an embedder's config
       that skipped it gets the default. */
    state->mode = (mode == _PyLazyImport_MODE_INVALID) ? 0 : mode;
    state->heal = (_PyLazyImport_ConfigHeal(config) != 0);
    state->defaults = (_PyLazyImport_ConfigDefaults(config) != 0);
    if (state->lazy_modules == NULL) {
        state->lazy_modules = PyUnicode_InternFromString("__lazy_modules__");
        if (state->lazy_modules == NULL) {
            return -1;
        }
    }
    return 0;
}

int
_PyLazyImport_VerifyAtExit(int exitcode)
{
    /* -X lazy_imports=verify (contract rule 44): a program that ends
       normally, with status 0, has every lazy import left in the modules
       of sys.modules resolved, each failure printed with its deferred
       statement (importlib._verify_lazy_imports()), and the status becomes
       1 if one failed.  The end may be the main code's return
       (Py_RunMain()) or a SystemExit whose status is 0 (sys.exit(),
       sys.exit(0), sys.exit(None), raise SystemExit(0)), which exits from
       PyErr_Print() and never returns to Py_RunMain().  Any other status
       is the program's failure: it is kept, and nothing is verified. */
    if (exitcode != 0
        || _PyLazyImport_ConfigMode(_Py_GetConfig())
           != _PyLazyImport_MODE_VERIFY)
    {
        return exitcode;
    }
    PyObject *result = _PyImport_GetModuleAttrString(
        "importlib", "_verify_lazy_imports");
    if (result != NULL) {
        Py_SETREF(result, PyObject_CallNoArgs(result));
    }
    int failed = 1;
    if (result != NULL) {
        failed = PyObject_IsTrue(result);
        Py_DECREF(result);
    }
    if (failed < 0 || result == NULL) {
        /* Printed without PyErr_Print(): a SystemExit raised by a module
           body that the verification ran must not exit from here. */
        PyObject *exc = PyErr_GetRaisedException();
        PyErr_DisplayException(exc);
        Py_DECREF(exc);
        failed = 1;
    }
    return failed ? 1 : 0;
}

void
_PyLazyImport_VerifyAtStart(void)
{
    /* -X lazy_imports=verify (contract rule 44) names each late side
       effect as it happens, as the verify command does: the program's
       module loads are watched from its start
       (importlib.lazy._watch_late_side_effects()). */
    const PyConfig *config = _Py_GetConfig();
    if (_PyLazyImport_ConfigMode(config) != _PyLazyImport_MODE_VERIFY
        /* The verify command's child runs importlib.lazy as __main__,
           which starts the watch itself. */
        || (config->run_module != NULL
            && wcscmp(config->run_module, L"importlib.lazy") == 0))
    {
        return;
    }
    PyObject *watch = _PyImport_GetModuleAttrString(
        "importlib.lazy", "_watch_late_side_effects");
    PyObject *res = watch == NULL ? NULL : PyObject_CallNoArgs(watch);
    if (res == NULL) {
        PyErr_FormatUnraisable("Exception ignored while -X "
                               "lazy_imports=verify started to watch late "
                               "side effects");
    }
    Py_XDECREF(res);
    Py_XDECREF(watch);
}

/* The absolute name of the module an import statement names, computed
   without side effects (warnings are left to the import itself).  Returns
   None when it cannot be known, in which case the import runs eagerly and
   reports the problem itself. */
static PyObject *
lazy_absolute_name(PyObject *name, PyObject *globals, int level)
{
    if (level == 0) {
        return Py_NewRef(name);
    }
    PyObject *package;
    if (PyDict_GetItemRef(globals, &_Py_ID(__package__), &package) < 0) {
        return NULL;
    }
    if (package == NULL || !PyUnicode_Check(package)) {
        Py_XDECREF(package);
        PyObject *spec;
        if (PyDict_GetItemRef(globals, &_Py_ID(__spec__), &spec) < 0) {
            return NULL;
        }
        package = NULL;
        if (spec != NULL && spec != Py_None
            && PyObject_GetOptionalAttr(spec, &_Py_ID(parent), &package) < 0)
        {
            Py_DECREF(spec);
            return NULL;
        }
        Py_XDECREF(spec);
        if (package == NULL || !PyUnicode_Check(package)) {
            Py_XDECREF(package);
            Py_RETURN_NONE;
        }
    }
    Py_ssize_t end = PyUnicode_GET_LENGTH(package);
    if (end == 0) {
        Py_DECREF(package);
        Py_RETURN_NONE;
    }
    for (int up = 1; up < level; up++) {
        end = PyUnicode_FindChar(package, '.', 0, end, -1);
        if (end < 0) {
            Py_DECREF(package);
            if (end == -2) {
                return NULL;
            }
            Py_RETURN_NONE;
        }
    }
    PyObject *base = PyUnicode_Substring(package, 0, end);
    Py_DECREF(package);
    if (base == NULL || PyUnicode_GET_LENGTH(name) == 0) {
        return base;
    }
    PyObject *res = _PyLazyImport_Dotted(base, name);
    Py_DECREF(base);
    return res;
}

static int
lazy_is_excluded_name(PyObject *excluding, PyObject *name)
{
    if (PyCallable_Check(excluding)) {
        PyObject *res = PyObject_CallOneArg(excluding, name);
        if (res == NULL) {
            return -1;
        }
        int r = PyObject_IsTrue(res);
        Py_DECREF(res);
        return r;
    }
    return PySequence_Contains(excluding, name);
}

/* Does the 'excluding' setting make this import eager?  "import a.b" is
   eager when "a.b" is excluded; "from a import b" when "a" or "a.b" is. */
static int
lazy_is_excluded(PyObject *excluding, PyObject *fullname, PyObject *fromlist)
{
    int r = lazy_is_excluded_name(excluding, fullname);
    if (r != 0 || fromlist == Py_None || !PyTuple_Check(fromlist)) {
        return r;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *sub = PyUnicode_FromFormat(
            PyUnicode_GET_LENGTH(fullname) ? "%U.%S" : "%U%S",
            fullname, PyTuple_GET_ITEM(fromlist, i));
        if (sub == NULL) {
            return -1;
        }
        r = lazy_is_excluded_name(excluding, sub);
        Py_DECREF(sub);
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

/* The shipped defaults (contract rule 58): the packages whose own
   imports run eagerly under -L, those of the package body and of the
   modules inside it, each for a failure that no rule of the fork heals.
   Lib/importlib/_lazy_defaults.py gives each its reason and the program
   that shows it; Tools/lazy/regen_defaults.py generates the table. */
#include "lazy_defaults.h"

/* Is the module of 'globals' one whose imports the shipped defaults make
   eager (the package of an entry, or a module inside it)?  Only its own
   statements: an import of the package made elsewhere stays lazy, and its
   body runs eagerly, as it does eagerly, when that import resolves.
   Returns 1, 0, or -1 with an exception set. */
static int
lazy_is_default(PyObject *globals)
{
    /* Read without resolving: the decision runs no code of the program
       (a lazy __name__, not a str, matches no entry). */
    PyObject *name;
    int r = _PyDict_GetItemRefNoResolve(globals, &_Py_ID(__name__), &name);
    if (r <= 0) {
        return r;
    }
    if (!PyUnicode_Check(name)) {
        Py_DECREF(name);
        return 0;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(name, &len);
    if (s == NULL) {
        /* A lone surrogate: no entry matches it. */
        Py_DECREF(name);
        PyErr_Clear();
        return 0;
    }
    r = 0;
    for (size_t i = 0; r == 0 && lazy_default_packages[i] != NULL; i++) {
        const char *package = lazy_default_packages[i];
        size_t n = strlen(package);
        r = ((size_t)len >= n && memcmp(s, package, n) == 0
             && (s[n] == '\0' || s[n] == '.'));
    }
    Py_DECREF(name);
    return r;
}

int
_PyLazyImport_SetDefaults(int enabled)
{
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    int old = state->defaults;
    state->defaults = enabled;
    return old;
}

PyObject *
_PyLazyImport_DefaultPackages(void)
{
    Py_ssize_t n = 0;
    while (lazy_default_packages[n] != NULL) {
        n++;
    }
    PyObject *res = PyTuple_New(n);
    if (res == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyUnicode_FromString(lazy_default_packages[i]);
        if (item == NULL) {
            Py_DECREF(res);
            return NULL;
        }
        PyTuple_SET_ITEM(res, i, item);
    }
    return res;
}

/* Is the statement an import of the import system proper, which runs
   eagerly?  Import hooks patch it (typeguard replaces
   importlib._bootstrap_external.cache_from_source while it loads a
   module): a lazy "from importlib.util import cache_from_source" resolved
   then would take the patched function.  The libraries of the importlib
   package (importlib.metadata, importlib.resources, importlib.abc, ...)
   are ordinary modules: lazy like any other ("import importlib.metadata",
   "from importlib import metadata").  Returns 1 or 0. */
static int
is_import_system(PyObject *fullname, PyObject *fromlist)
{
    static const char *const system[] = {
        "importlib", "importlib._bootstrap", "importlib._bootstrap_external",
        "importlib.util", "importlib.machinery", NULL};
    static const char *const libraries[] = {
        "metadata", "resources", "abc", "readers", "simple", NULL};
    if (PyUnicode_GET_LENGTH(fullname) < 9
        || PyUnicode_READ_CHAR(fullname, 0) != 'i'
        || PyUnicode_Tailmatch(fullname, &_Py_ID(importlib), 0, 9, -1) != 1)
    {
        return 0;
    }
    int found = 0;
    for (int i = 0; system[i] != NULL && !found; i++) {
        found = _PyUnicode_EqualToASCIIString(fullname, system[i]);
    }
    if (!found || PyUnicode_GET_LENGTH(fullname) != 9
        || !PyTuple_Check(fromlist) || PyTuple_GET_SIZE(fromlist) == 0)
    {
        return found;
    }
    /* "from importlib import ...": eager unless it names only libraries. */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(fromlist, i);
        int library = 0;
        for (int j = 0; libraries[j] != NULL && !library; j++) {
            library = (PyUnicode_Check(item)
                       && _PyUnicode_EqualToASCIIString(item, libraries[j]));
        }
        if (!library) {
            return 1;
        }
    }
    return 0;
}


/* Is 'fullname' an extension module of the standard library whose file
   is found and loads: the shared library and those it links are mapped
   (dlopen(), as the import will do with the same flags), without running
   its initialization, which for the standard library's modules raises no
   ImportError.  A file found that fails to load (a library it needs is
   missing) says no, and the import then raises in the try, as eagerly.
   The library stays loaded for the import.  Returns 1, 0, or -1 with an
   exception set. */
static int
stdlib_extension_loads(PyThreadState *tstate, PyObject *fullname)
{
#ifdef HAVE_DLOPEN
    PyObject *names = PySys_GetObject("stdlib_module_names");   /* borrowed */
    PyObject *importlib = tstate->interp->imports.importlib;
    if (names == NULL || !PyAnySet_Check(names) || importlib == NULL) {
        return 0;
    }
    int r = PySet_Contains(names, fullname);
    if (r <= 0) {
        return r;
    }
    PyObject *spec = PyObject_CallMethod(importlib, "_find_spec", "OO",
                                         fullname, Py_None);
    if (spec == NULL) {
        return -1;
    }
    r = _PyLazyImport_SpecExtensionLoads(tstate, spec);
    Py_DECREF(spec);
    return r;
#else
    return 0;
#endif
}

/* Is 'spec' the spec of an extension module whose file loads (see
   stdlib_extension_loads())?  Returns 1, 0, or -1 with an exception
   set. */
int
_PyLazyImport_SpecExtensionLoads(PyThreadState *tstate, PyObject *spec)
{
#ifdef HAVE_DLOPEN
    PyObject *importlib = tstate->interp->imports.importlib;
    PyObject *loader = NULL, *external = NULL, *cls = NULL, *origin = NULL;
    int r = 0;
    if (spec != Py_None && importlib != NULL
        && (r = PyObject_GetOptionalAttrString(spec, "loader", &loader)) > 0
        && (r = PyObject_GetOptionalAttrString(
                importlib, "_bootstrap_external", &external)) > 0
        && (r = PyObject_GetOptionalAttrString(
                external, "ExtensionFileLoader", &cls)) > 0
        && (r = PyObject_IsInstance(loader, cls)) > 0
        && (r = PyObject_GetOptionalAttrString(spec, "origin", &origin)) > 0)
    {
        PyObject *path = NULL;
        r = PyUnicode_Check(origin)
            && PyUnicode_FSConverter(origin, &path) ? 1 : -1;
        if (r > 0) {
            void *handle = dlopen(PyBytes_AS_STRING(path),
                                  _PyImport_GetDLOpenFlags(tstate->interp));
            r = handle != NULL;
        }
        Py_XDECREF(path);
        if (r < 0 && !PyErr_Occurred()) {
            r = 0;  /* not a str: let the import tell */
        }
    }
    Py_XDECREF(origin);
    Py_XDECREF(cls);
    Py_XDECREF(external);
    Py_XDECREF(loader);
    return r;
#else
    return 0;
#endif
}

/* Would the statement importing 'fullname' (with 'fromlist') raise no
   ImportError, whatever the modules it runs: is 'fullname' a module built
   into the interpreter, or one already imported, and does it hold the
   names of the fromlist?  A built-in module runs no Python body and loads
   no file; an imported one is only read; "from pkg import sub" where pkg
   lacks sub imports pkg.sub, whose body may fail.  An extension module of
   the standard library counts when it loads (see
   stdlib_extension_loads()).  Returns 1, 0, or -1 with an exception
   set. */
static int
imports_without_error(PyThreadState *tstate, PyObject *fullname,
                      PyObject *fromlist)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    if (len == 0 || _PyLazyImport_FindDot(fullname, 0, len) >= 0) {
        return 0;
    }
    /* None in sys.modules blocks the import: it raises ImportError. */
    PyObject *modules = PyImport_GetModuleDict(), *mod;
    int found = PyDict_CheckExact(modules)
        ? PyDict_GetItemRef(modules, fullname, &mod)
        : PyMapping_GetOptionalItem(modules, fullname, &mod);
    if (found == 0) {
        PyObject *names = PySys_GetObject("builtin_module_names");
        if (names == NULL || !PyTuple_Check(names)) {
            return 0;
        }
        found = PySequence_Contains(names, fullname);
        if (found == 0) {
            found = stdlib_extension_loads(tstate, fullname);
        }
        if (found <= 0) {
            return found;
        }
    }
    else if (found < 0 || mod == Py_None) {
        Py_XDECREF(mod);
        return found < 0 ? -1 : 0;
    }
    Py_ssize_t n = PyTuple_Check(fromlist) ? PyTuple_GET_SIZE(fromlist) : 0;
    int r = 1;
    for (Py_ssize_t i = 0; r > 0 && i < n; i++) {
        /* A built-in module not imported yet: its names are known once
           it is ("from pwd import x" imports it now). */
        PyObject *dict = (mod != NULL && PyModule_Check(mod))
                         ? PyModule_GetDict(mod) : NULL;
        PyObject *value;
        r = dict == NULL ? 0
            : _PyDict_GetItemRefNoResolve(dict, PyTuple_GET_ITEM(fromlist, i),
                                          &value);
        if (r > 0) {
            r = !PyLazyImport_CheckExact(value);
            Py_DECREF(value);
        }
    }
    Py_XDECREF(mod);
    return r;
}

/* Is the body of a module whose namespace is 'dict' running in this
   thread: is it the globals of one of the thread's frames? */
static int
runs_in_thread(PyThreadState *tstate, PyObject *dict)
{
    for (_PyInterpreterFrame *f = tstate->current_frame; f != NULL;
         f = f->previous)
    {
        if (f->f_globals == dict && f->owner != FRAME_OWNED_BY_CSTACK) {
            return 1;
        }
    }
    return 0;
}

/* "from M import a, b" where M is imported (not initializing) and holds a
   and b (not lazily), under the default __import__: the eager statement
   would only read the attributes, which costs what creating lazy objects
   costs, and a lazy one would read them later, after M may have rebound
   them: a monkeypatch in between (typeguard's import hook patches
   importlib._bootstrap_external.cache_from_source, which a lazy "from
   importlib.util import cache_from_source" would then resolve to).  So
   does one whose M is still initializing in this thread (the statement is
   in M itself, or in a module M's body imports) when M already binds a
   and b: the eager statement rebinds what is there, and a lazy object in
   its place would hide it (contract rule 56: sympy's printing.pycode
   imports a class from itself).  Such a statement runs now.  'module' is
   sys.modules[M] (borrowed) or NULL.  Returns 1, 0, or -1 with an
   exception set. */
static int
lazy_from_is_ready(PyThreadState *tstate, PyObject *module,
                   PyObject *fromlist, PyObject *builtins)
{
    int r = 0;
    PyObject *spec = NULL, *func = NULL;
    if (module == NULL || !PyModule_Check(module)) {
        goto done;
    }
    PyObject *dict = PyModule_GetDict(module);
    r = _PyDict_GetItemRefNoResolve(dict, &_Py_ID(__spec__), &spec);
    if (r <= 0) {
        goto done;
    }
    r = _PyModuleSpec_IsInitializing(spec);
    if (r > 0) {
        r = runs_in_thread(tstate, dict);
    }
    else if (r == 0) {
        r = 1;
    }
    if (r <= 0) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *value;
        r = _PyDict_GetItemRefNoResolve(dict, PyTuple_GET_ITEM(fromlist, i),
                                        &value);
        if (r <= 0) {
            goto done;
        }
        r = !PyLazyImport_CheckExact(value);
        Py_DECREF(value);
        if (r == 0) {
            goto done;
        }
    }
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    r = PyMapping_GetOptionalItem(builtins, &_Py_ID(__import__), &func);
    if (r > 0) {
        r = _PyImport_IsDefaultImportFunc(tstate->interp, func);
    }
done:
    Py_XDECREF(func);
    Py_XDECREF(spec);
    return r;
}

/* Tell the observer (importlib.lazy's report), if there is one, that
   'event' happened to the import statement of 'fullname' and 'fromlist'
   at 'addr' in 'code', run in 'globals'; 'key' identifies the statement
   (an int) or is None.  The observer cannot fail the import: its errors
   are reported as unraisable. */
static void
notify(PyInterpreterState *interp, const char *event, PyObject *key,
       PyObject *fullname, PyObject *fromlist, PyObject *globals,
       PyObject *code, int addr, PyObject *extra)
{
    PyObject *observer = interp->imports.lazy.observer;
    if (observer == NULL) {
        return;
    }
    PyObject *exc = PyErr_GetRaisedException();
    Py_INCREF(observer);
    PyObject *importer = NULL;
    if (globals != NULL && PyDict_Check(globals)
        && _PyDict_GetItemRefNoResolve(globals, &_Py_ID(__name__),
                                       &importer) < 0)
    {
        PyErr_Clear();
    }
    if (importer != NULL && PyLazyImport_CheckExact(importer)) {
        Py_CLEAR(importer);     /* never handed out; nor resolved here */
    }
    PyObject *filename = Py_None;
    int lineno = -1;
    if (code != NULL && PyCode_Check(code)) {
        filename = ((PyCodeObject *)code)->co_filename;
        lineno = PyCode_Addr2Line((PyCodeObject *)code, addr);
    }
    PyObject *res = PyObject_CallFunction(
        observer, "sOOOOOiO", event, key, fullname, fromlist,
        importer ? importer : Py_None, filename, lineno,
        extra ? extra : Py_None);
    if (res == NULL) {
        PyErr_FormatUnraisable("Exception ignored in the lazy imports "
                               "observer %R", observer);
    }
    Py_XDECREF(res);
    Py_XDECREF(importer);
    Py_DECREF(observer);
    PyErr_SetRaisedException(exc);
}

/* The statement 'lz' belongs to: a name taken from a module import
   ("from a import b") belongs to that import. */
PyLazyImportObject *
_PyLazyImport_StatementOf(PyLazyImportObject *lz)
{
    while (lz->lz_parent != NULL) {
        lz = LAZY(lz->lz_parent);
    }
    return lz;
}

void
_PyLazyImport_NotifyStatement(const char *event, PyLazyImportObject *lz,
                              PyObject *extra)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    if (interp->imports.lazy.observer == NULL) {
        return;
    }
    lz = _PyLazyImport_StatementOf(lz);
    PyObject *exc = PyErr_GetRaisedException();
    PyObject *key = PyLong_FromSsize_t(lz->lz_serial);
    if (key == NULL) {
        PyErr_FormatUnraisable("Exception ignored in the lazy imports "
                               "observer");
        PyErr_SetRaisedException(exc);
        return;
    }
    PyErr_SetRaisedException(exc);
    notify(interp, event, key, lz->lz_fullname, lz->lz_fromlist,
           lz->lz_globals, lz->lz_code, lz->lz_addr, extra);
    Py_DECREF(key);
}

/* PEP 810: does the module of 'globals' list the module 'fullname' in its
   __lazy_modules__ (any container, asked with "in")?  Returns 1, 0, or
   -1 with an exception set. */
static int
lazy_is_listed(PyObject *key, PyObject *globals, PyObject *fullname)
{
    if (key == NULL) {
        return 0;   /* finalizing */
    }
    PyObject *listed;
    int r = PyDict_GetItemRef(globals, key, &listed);
    if (r <= 0) {
        return r;
    }
    r = PySequence_Contains(listed, fullname);
    Py_DECREF(listed);
    return r;
}

/* Add to the set 'names' the names that the str 's' reads if it is an
   annotation made a string (PEP 563, or written so): "m.Cls",
   "list[m.Cls] | None".  Only such short expressions count, not prose (a
   docstring that mentions "events.x").  Returns 0, or -1 with an
   exception set. */
static int
add_annotation_names(PyObject *names, PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (n > 200 || PyUnicode_FindChar(s, '.', 0, n, 1) < 0) {
        return 0;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    Py_UCS4 last = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c == ' ') {
            /* "a, b", "a | b" */
            Py_UCS4 next = i + 1 < n ? PyUnicode_READ(kind, data, i + 1) : 0;
            if (last != ',' && last != '|' && next != '|') {
                return 0;
            }
            continue;
        }
        if (!(Py_UNICODE_ISALNUM(c) || c == '_' || c == '.' || c == ','
              || c == '|' || c == '[' || c == ']'))
        {
            return 0;
        }
        last = c;
    }
    /* Each identifier that a dot follows and none precedes. */
    for (Py_ssize_t i = 0; i < n;) {
        Py_ssize_t start = i;
        while (i < n && (Py_UNICODE_ISALNUM(PyUnicode_READ(kind, data, i))
                         || PyUnicode_READ(kind, data, i) == '_'))
        {
            i++;
        }
        if (i > start && i < n && PyUnicode_READ(kind, data, i) == '.'
            && (start == 0 || PyUnicode_READ(kind, data, start - 1) != '.'))
        {
            PyObject *head = PyUnicode_Substring(s, start, i);
            int r = head == NULL ? -1 : PySet_Add(names, head);
            Py_XDECREF(head);
            if (r < 0) {
                return -1;
            }
        }
        i = i > start ? i : i + 1;
    }
    return 0;
}

/* Add to the set 'names' what the str constant 's' names: itself, when it
   is an identifier (the names looked up in the set are; a docstring is
   not hashed), and the names its annotation reads.  Returns 0, or -1 with
   an exception set. */
static int
add_string_names(PyObject *names, PyObject *s)
{
    int identifier;
    if (PyUnicode_IS_ASCII(s)) {
        /* Most are: read the bytes, the first other character ends it. */
        const unsigned char *p = PyUnicode_1BYTE_DATA(s);
        Py_ssize_t n = PyUnicode_GET_LENGTH(s), i = 0;
        identifier = n > 0 && !Py_ISDIGIT(p[0]);
        while (identifier && i < n) {
            identifier = Py_ISALNUM(p[i]) || p[i] == '_';
            i++;
        }
    }
    else {
        identifier = PyUnicode_IsIdentifier(s);
    }
    if (identifier && PySet_Add(names, s) < 0) {
        return -1;
    }
    return add_annotation_names(names, s);
}

/* Add to the set 'names' the names that the code object 'co', and the code
   nested in it (functions, classes, comprehensions), reads as globals (a
   del is no use of the name), and its str constants (the names of __all__,
   getattr(module, "name"), and the names its string annotations read) other
   than the fromlists of its imports.  Returns 0, or -1 with an exception
   set. */
static int
add_read_names(PyCodeObject *co, PyObject *names, int depth)
{
    PyObject *code;
    const _Py_CODEUNIT *instr = _PyLazyImport_CodeUnits(co, &code);
    Py_ssize_t nconsts = PyTuple_GET_SIZE(co->co_consts);
    char *fromlists = PyMem_Calloc(nconsts ? nconsts : 1, 1);
    if (instr == NULL || fromlists == NULL) {
        Py_XDECREF(code);
        PyMem_Free(fromlists);
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    Py_ssize_t n = Py_SIZE(co);
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names);
    int oparg = 0, last_const = -1;
    Py_ssize_t next;
    for (Py_ssize_t i = 0; i < n; i = next + 1) {
        int op = _PyLazyImport_Opcode(co, instr, i);
        next = i + _PyOpcode_Caches[op];
        oparg = (oparg << 8) | instr[i].op.arg;
        if (op == EXTENDED_ARG) {
            continue;
        }
        int index = -1;
        if (IS_IMPORT_NAME(op)) {
            if (last_const >= 0 && last_const < nconsts) {
                fromlists[last_const] = 1;
            }
            oparg = 0;
            last_const = -1;
            continue;
        }
        switch (op) {
        case LOAD_CONST:
            last_const = oparg;
            oparg = 0;
            continue;
        case LIST_EXTEND:
            /* "__all__ = [...]" builds its list from a tuple constant. */
            oparg = 0;
            continue;
        case STORE_NAME:
        case STORE_GLOBAL:
            /* The names "__all__ = [...]" lists are what "from m import *"
               takes, not reads of the module's own code: the submodules
               sympy.physics.units lists there are imported for what
               they register, and no code reads them. */
            if (last_const >= 0 && last_const < nconsts && oparg < nnames
                && PyTuple_CheckExact(PyTuple_GET_ITEM(co->co_consts,
                                                       last_const))
                && _PyUnicode_Equal(PyTuple_GET_ITEM(co->co_names, oparg),
                                    &_Py_ID(__all__)))
            {
                fromlists[last_const] = 1;
            }
            break;
        case LOAD_NAME:
        case LOAD_FROM_DICT_OR_GLOBALS:
            index = oparg;
            break;
        case LOAD_GLOBAL:
            index = oparg >> 1;
            break;
        }
        oparg = 0;
        last_const = -1;
        if (index >= 0 && index < nnames
            && PySet_Add(names, PyTuple_GET_ITEM(co->co_names, index)) < 0)
        {
            Py_XDECREF(code);
            PyMem_Free(fromlists);
            return -1;
        }
    }
    Py_XDECREF(code);
    int r = 0;
    for (Py_ssize_t i = 0; r == 0 && i < nconsts; i++) {
        PyObject *item = PyTuple_GET_ITEM(co->co_consts, i);
        if (fromlists[i]) {
            continue;
        }
        if (PyUnicode_Check(item)) {
            r = add_string_names(names, item);
        }
        else if (PyTuple_Check(item)) {
            for (Py_ssize_t k = 0; r == 0 && k < PyTuple_GET_SIZE(item); k++) {
                PyObject *sub = PyTuple_GET_ITEM(item, k);
                if (PyUnicode_Check(sub)) {
                    r = add_string_names(names, sub);
                }
            }
        }
        else if (PyCode_Check(item) && depth < 100) {
            r = add_read_names((PyCodeObject *)item, names, depth + 1);
        }
    }
    PyMem_Free(fromlists);
    return r;
}

/* Add to the set 'names' each name that the source file of 'co' imports
   under its own name ("from . import fft as fft", "import attr as attr"):
   the spelling that typing tools read as an explicit re-export, which the
   module makes for other modules to read, not for a side effect.  The
   file is read as bytes; a file that cannot be read adds nothing.
   Returns 0, or -1 with an exception set. */
static int
add_reexported_names(PyCodeObject *co, PyObject *names)
{
    /* Not "<frozen ...>", "<string>". */
    if (!PyUnicode_Check(co->co_filename)
        || PyUnicode_GET_LENGTH(co->co_filename) == 0
        || PyUnicode_READ_CHAR(co->co_filename, 0) == '<')
    {
        return 0;
    }
    FILE *fp = _Py_fopen_obj(co->co_filename, "rb");
    if (fp == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *source = NULL;
    char buf[8192];
    size_t n;
    int r = 0;
    PyObject *chunks = PyList_New(0);
    while (chunks != NULL && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
        PyObject *chunk = PyBytes_FromStringAndSize(buf, (Py_ssize_t)n);
        if (chunk == NULL || PyList_Append(chunks, chunk) < 0) {
            Py_XDECREF(chunk);
            r = -1;
            break;
        }
        Py_DECREF(chunk);
    }
    fclose(fp);
    if (chunks == NULL || r < 0) {
        Py_XDECREF(chunks);
        return -1;
    }
    PyObject *empty = PyBytes_FromStringAndSize(NULL, 0);
    source = empty ? _PyBytes_Join(empty, chunks) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(chunks);
    if (source == NULL) {
        return -1;
    }
    /* Each " as " between two equal identifiers. */
    const char *text = PyBytes_AS_STRING(source);
    Py_ssize_t len = PyBytes_GET_SIZE(source);
#define IS_WORD(c) (Py_ISALNUM(c) || (c) == '_' || ((unsigned char)(c)) >= 128)
    for (const char *p = text; r == 0 && (p = memchr(p, 'a', text + len - p));
         p++)
    {
        if (p - text < 2 || text + len - p < 4 || p[1] != 's'
            || (p[-1] != ' ' && p[-1] != '\t')
            || (p[2] != ' ' && p[2] != '\t'))
        {
            continue;
        }
        const char *end = p - 1, *start;
        while (end > text && (*end == ' ' || *end == '\t')) {
            end--;
        }
        for (start = end; start > text && IS_WORD(start[-1]); start--) {
        }
        const char *alias = p + 2, *aend;
        while (alias < text + len && (*alias == ' ' || *alias == '\t')) {
            alias++;
        }
        for (aend = alias; aend < text + len && IS_WORD(*aend); aend++) {
        }
        Py_ssize_t wlen = end + 1 - start;
        if (wlen > 0 && aend - alias == wlen
            && memcmp(start, alias, (size_t)wlen) == 0)
        {
            PyObject *name = PyUnicode_DecodeUTF8(start, wlen, "strict");
            r = name == NULL ? -1 : PySet_Add(names, name);
            Py_XDECREF(name);
            if (r < 0 && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
                PyErr_Clear();
                r = 0;
            }
        }
    }
#undef IS_WORD
    Py_DECREF(source);
    return r;
}

/* Does the code object 'co', or code nested in it, read 'name' as a
   global (see add_read_names())?  Only the code objects whose names hold
   it are read.  Returns 1 when one does, 0 when none does (its string
   constants are not looked at), -1 with an exception set. */
static int
reads_global(PyCodeObject *co, PyObject *name, int depth)
{
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names), index = -1;
    for (Py_ssize_t k = 0; k < nnames; k++) {
        PyObject *item = PyTuple_GET_ITEM(co->co_names, k);
        if (item == name || _PyUnicode_Equal(item, name)) {
            index = k;
            break;
        }
    }
    if (index >= 0) {
        PyObject *copy;
        const _Py_CODEUNIT *instr = _PyLazyImport_CodeUnits(co, &copy);
        if (instr == NULL) {
            return -1;
        }
        Py_ssize_t n = Py_SIZE(co), next;
        int oparg = 0, found = 0;
        for (Py_ssize_t i = 0; i < n && !found; i = next + 1) {
            int op = _PyLazyImport_Opcode(co, instr, i);
            next = i + _PyOpcode_Caches[op];
            oparg = (oparg << 8) | instr[i].op.arg;
            if (op == EXTENDED_ARG) {
                continue;
            }
            found = ((op == LOAD_NAME || op == LOAD_FROM_DICT_OR_GLOBALS)
                     && oparg == index)
                    || (op == LOAD_GLOBAL && (oparg >> 1) == index);
            oparg = 0;
        }
        Py_XDECREF(copy);
        if (found) {
            return 1;
        }
    }
    for (Py_ssize_t k = 0; depth < 100
                           && k < PyTuple_GET_SIZE(co->co_consts); k++)
    {
        PyObject *item = PyTuple_GET_ITEM(co->co_consts, k);
        if (PyCode_Check(item)) {
            int r = reads_global((PyCodeObject *)item, name, depth + 1);
            if (r != 0) {
                return r;
            }
        }
    }
    return 0;
}

/* Does the module of 'code' read 'name' (see add_read_names()) or
   re-export it (see add_reexported_names())?  A name read as a global is
   looked for first (reads_global()); otherwise the names its code reads
   are collected, and kept for one module at a time (its statements run in
   a row); its source is read only when a name is not among them, and its
   re-exports are then added to them, with None to say so.  Returns 1, 0,
   or -1 with an exception set. */
static int
module_reads(struct _lazy_import_state *state, PyObject *code,
             PyObject *name)
{
    if (state->read_names_code != code) {
        /* Most names an import binds are read as globals somewhere: found
           without reading the rest of the code. */
        int r = reads_global((PyCodeObject *)code, name, 0);
        if (r != 0) {
            return r;
        }
        PyObject *names = PySet_New(NULL);
        if (names == NULL
            || add_read_names((PyCodeObject *)code, names, 0) < 0)
        {
            Py_XDECREF(names);
            return -1;
        }
        Py_XSETREF(state->read_names, names);
        Py_XSETREF(state->read_names_code, Py_NewRef(code));
    }
    int r = PySet_Contains(state->read_names, name);
    if (r == 0) {
        r = PySet_Contains(state->read_names, Py_None);
        if (r == 0) {
            r = (add_reexported_names((PyCodeObject *)code,
                                      state->read_names) < 0
                 || PySet_Add(state->read_names, Py_None) < 0)
                ? -1 : PySet_Contains(state->read_names, name);
        }
        else if (r > 0) {
            r = 0;
        }
    }
    return r;
}

/* Is the dotted module name 'name' the package 'package' or inside it?
   Both are str. */
int
_PyLazyImport_IsInside(PyObject *name, PyObject *package)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(package);
    return len > 0
           && PyUnicode_Tailmatch(name, package, 0, len, -1) == 1
           && (PyUnicode_GET_LENGTH(name) == len
               || PyUnicode_READ_CHAR(name, len) == '.');
}

/* The names under which the "from P import a, b" at byte offset 'addr'
   of 'code' stores a and b, each different from the name it imports (an
   alias): a list in the fromlist's order, or None when one is not an
   alias or the instructions after the statement are not one IMPORT_FROM
   and one STORE_NAME or STORE_GLOBAL per name.  Read in place (most
   statements are turned away at their first name, allocating nothing).
   NULL with an exception set on error. */
static PyObject *
stored_aliases(PyCodeObject *co, int addr, PyObject *fromlist)
{
    const _Py_CODEUNIT *instr = _PyCode_CODE(co);
    Py_ssize_t n = Py_SIZE(co);
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names);
    Py_ssize_t want = PyTuple_GET_SIZE(fromlist), found = 0;
    PyObject *stored = NULL;
    int oparg = 0, expect = IMPORT_FROM;
    for (Py_ssize_t i = addr / (int)sizeof(_Py_CODEUNIT) + 1;
         i < n && found < want; i++)
    {
        int op = _Py_GetBaseOpcode(co, (int)i);
        oparg = (oparg << 8) | instr[i].op.arg;
        if (op == EXTENDED_ARG || op == CACHE) {
            continue;
        }
        PyObject *item = PyTuple_GET_ITEM(fromlist, found);
        PyObject *name = oparg < nnames
                         ? PyTuple_GET_ITEM(co->co_names, oparg) : NULL;
        oparg = 0;
        if (expect == IMPORT_FROM) {
            if (op != IMPORT_FROM || name == NULL
                || !PyUnicode_Check(item) || !_PyUnicode_Equal(name, item))
            {
                break;
            }
            expect = STORE_NAME;
            continue;
        }
        if ((op != STORE_NAME && op != STORE_GLOBAL) || name == NULL
            || _PyUnicode_Equal(name, item))
        {
            break;      /* not an alias: the common case */
        }
        if ((stored == NULL && (stored = PyList_New(0)) == NULL)
            || PyList_Append(stored, name) < 0)
        {
            Py_XDECREF(stored);
            return NULL;
        }
        found++;
        expect = IMPORT_FROM;
    }
    if (found != want) {
        Py_XSETREF(stored, Py_NewRef(Py_None));
    }
    return stored;
}

/* Is 'alias' the dotted name 'fullname'.'item' as protoc spells the
   aliases of the _pb2 modules it imports ("google.protobuf.any_pb2" is
   google_dot_protobuf_dot_any__pb2)?  Returns 1 or 0 (0 with an exception
   set on error). */
static int
is_protoc_alias(PyObject *alias, PyObject *fullname, PyObject *item)
{
    /* The spelling is longer than the dotted name: most aliases are
       turned away without building it. */
    if (PyUnicode_GET_LENGTH(alias)
        <= PyUnicode_GET_LENGTH(fullname) + PyUnicode_GET_LENGTH(item) + 1)
    {
        return 0;
    }
    PyObject *name = _PyLazyImport_Dotted(fullname, item);
    PyObject *under = PyUnicode_FromString("_");
    PyObject *dunder = PyUnicode_FromString("__");
    PyObject *dot = PyUnicode_FromString(".");
    PyObject *spelled = PyUnicode_FromString("_dot_");
    PyObject *step = NULL, *expected = NULL;
    if (name && under && dunder && dot && spelled) {
        step = PyUnicode_Replace(name, under, dunder, -1);
        expected = step ? PyUnicode_Replace(step, dot, spelled, -1) : NULL;
    }
    int r = expected != NULL && _PyUnicode_Equal(alias, expected);
    Py_XDECREF(name);
    Py_XDECREF(under);
    Py_XDECREF(dunder);
    Py_XDECREF(dot);
    Py_XDECREF(spelled);
    Py_XDECREF(step);
    Py_XDECREF(expected);
    return r;
}

/* Is "import m" (or "import a.b", "import a.b as c"), the statement at
   byte offset 'addr' of the module code 'code', an import made for its
   side effects: does no code of the module read the name it binds (see
   module_reads())?  "import plugin_hello  # noqa: F401" in an
   application, a module that registers an atexit handler or a codec:
   deferred, its body would never run.  Such a statement runs now
   (contract rule 57).  Returns 1, 0, or -1 with an exception set. */
static int
is_side_effect_module_import(struct _lazy_import_state *state,
                             PyObject *code, int addr)
{
    if (code == NULL || !PyCode_Check(code)) {
        return 0;
    }
    PyCodeObject *co = (PyCodeObject *)code;
    const _Py_CODEUNIT *instr = _PyCode_CODE(co);
    Py_ssize_t n = Py_SIZE(co);
    Py_ssize_t nnames = PyTuple_GET_SIZE(co->co_names);
    PyObject *bound = NULL;
    int oparg = 0;
    /* IMPORT_NAME, then IMPORT_FROM for each step of "import a.b as c"
       (with a POP_TOP or SWAP between them), then the store. */
    for (Py_ssize_t i = addr / (int)sizeof(_Py_CODEUNIT) + 1; i < n; i++) {
        int op = _Py_GetBaseOpcode(co, (int)i);
        oparg = (oparg << 8) | instr[i].op.arg;
        if (op == EXTENDED_ARG || op == CACHE) {
            continue;
        }
        if (op == IMPORT_FROM || op == SWAP || op == POP_TOP) {
            oparg = 0;
            continue;
        }
        if ((op == STORE_NAME || op == STORE_GLOBAL) && oparg < nnames) {
            bound = PyTuple_GET_ITEM(co->co_names, oparg);
        }
        break;
    }
    if (bound == NULL) {
        return 0;
    }
    int r = module_reads(state, code, bound);
    return r < 0 ? -1 : !r;
}

/* Is there a module 'package'.'child', found (not run) through the
   __path__ of the nearest package of 'package' that is imported: its
   parent, whose spec gives 'package''s own search locations?  A package
   not imported and not the child of one that is says no.  Returns 1 or 0
   (0 with an exception set on an error not derived from Exception). */
static int
is_submodule_file(PyObject *package, PyObject *child)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *importlib = tstate->interp->imports.importlib;
    Py_ssize_t len = PyUnicode_GET_LENGTH(package);
    Py_ssize_t dot = PyUnicode_FindChar(package, '.', 0, len, -1);
    if (importlib == NULL || dot < 0) {
        return 0;
    }
    PyObject *parentname = PyUnicode_Substring(package, 0, dot);
    PyObject *parent = NULL, *path = NULL, *spec = NULL, *locations = NULL;
    PyObject *name = NULL, *found = NULL;
    int r = parentname == NULL ? -1
            : _PyLazyImport_GetImported(parentname, &parent);
    if (r > 0) {
        r = PyObject_GetOptionalAttr(parent, &_Py_ID(__path__), &path);
    }
    if (r > 0) {
        spec = PyObject_CallMethod(importlib, "_find_spec", "OO", package,
                                   path);
        r = spec == NULL ? -1 : spec != Py_None;
    }
    if (r > 0) {
        r = PyObject_GetOptionalAttrString(
            spec, "submodule_search_locations", &locations);
        r = (r > 0 && locations != Py_None) ? 1 : (r < 0 ? -1 : 0);
    }
    if (r > 0) {
        name = _PyLazyImport_Dotted(package, child);
        found = name ? PyObject_CallMethod(importlib, "_find_spec", "OO",
                                           name, locations) : NULL;
        r = found == NULL ? -1 : found != Py_None;
    }
    Py_XDECREF(found);
    Py_XDECREF(name);
    Py_XDECREF(locations);
    Py_XDECREF(spec);
    Py_XDECREF(path);
    Py_XDECREF(parent);
    Py_XDECREF(parentname);
    if (r < 0) {
        if (_PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
            _PyErr_Clear(tstate);   /* the import itself will tell */
        }
        return 0;
    }
    return r;
}

/* Is "from P import a, b" an import made for its side effects: are a and
   b submodules (P does not have them) that the module never reads?  That
   is asked of such a statement
   - in the __init__ of the package P (or of a package containing P);
   - relative ("from . import a, b", 'relative' nonzero) in a module of
     such a package;
   - anywhere, when it binds each name under an alias ("from
     google.protobuf import any_pb2 as google_dot_protobuf_dot_any__pb2",
     which protoc writes so that a _pb2 module's dependencies register
     their files in the descriptor pool), and the module reads none of
     the aliases; when P is not imported yet, only aliases spelled as
     protoc spells them count (see is_protoc_alias()).
   An absolute one without aliases in a module stays lazy, as in CPython
   3.15: modules re-export siblings that way as often.  mpmath.functions
   imports its submodules so, for the methods their decorators add to a
   class; deferred, they would never run.  Such a statement runs now
   (contract rule 52).  'module' is sys.modules[P] or NULL; the statement
   is at byte offset 'addr' of 'code'.  Returns 1, 0, or -1 with an
   exception set. */
static int
is_side_effect_import(struct _lazy_import_state *state, PyObject *globals,
                      PyObject *code, int addr, PyObject *fullname,
                      PyObject *fromlist, PyObject *module, int relative)
{
    if ((module != NULL && !PyModule_Check(module)) || code == NULL
        || !PyCode_Check(code) || !PyTuple_Check(fromlist)
        || PyTuple_GET_SIZE(fromlist) == 0)
    {
        return 0;
    }
    PyObject *importer;
    int r = _PyDict_GetItemRefNoResolve(globals, &_Py_ID(__name__),
                                        &importer);
    if (r <= 0) {
        return r;
    }
    if (!PyUnicode_Check(importer)) {
        Py_DECREF(importer);
        return 0;
    }
    r = PyDict_Contains(globals, &_Py_ID(__path__));
    if (r == 0 && !relative) {
        Py_CLEAR(importer);
    }
    else if (r == 0) {
        /* A module of a package: its package's (sqlalchemy.sql.naming's
           "from . import events"). */
        Py_ssize_t dot = PyUnicode_FindChar(
            importer, '.', 0, PyUnicode_GET_LENGTH(importer), -1);
        Py_SETREF(importer, dot < 0 ? NULL
                            : PyUnicode_Substring(importer, 0, dot));
        r = (importer == NULL && (dot == -2 || PyErr_Occurred())) ? -1 : 1;
    }
    /* P is the package itself or one inside it. */
    int inside = (r > 0 && importer != NULL
                  && _PyLazyImport_IsInside(fullname, importer));
    Py_XDECREF(importer);
    if (r < 0) {
        return -1;
    }
    /* Else the names it binds must be aliases. */
    PyObject *bound = inside ? Py_NewRef(fromlist)
                      : stored_aliases((PyCodeObject *)code, addr, fromlist);
    if (bound == NULL || bound == Py_None) {
        Py_XDECREF(bound);
        return bound == NULL ? -1 : 0;
    }
    /* The names must be submodules (P lacks them) and, outside P's
       package, aliases: asked first, as it costs less than the names the
       module reads, which are scanned once per module. */
    r = 1;
    for (Py_ssize_t i = 0; r == 1 && i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(fromlist, i);
        PyObject *name = PySequence_Fast_GET_ITEM(bound, i);
        if (!is_from_name(item)
            || (!inside && _PyUnicode_Equal(name, item)))
        {
            r = 0;  /* not an alias: the common case, decided cheaply */
        }
        else if (module != NULL) {
            r = provides_name(module, item);
            r = (r < 0) ? -1 : !r;
        }
        else if (inside) {
            /* P is not imported yet: is there a submodule P.a?  Found
               without running P (sympy.physics.units's "from .systems
               import si", whose si registers the SI unit system). */
            r = is_submodule_file(fullname, item);
        }
        else {
            /* P is not imported yet, so whether a and b are submodules
               cannot be asked without importing it; an alias that spells
               the submodule's dotted name, as protoc writes them, says
               they are ("from nltk.translate.bleu_score import
               sentence_bleu as bleu" re-exports a function). */
            r = is_protoc_alias(name, fullname, item);
            if (r == 0 && PyErr_Occurred()) {
                r = -1;
            }
        }
    }
    /* And the module's code must never read the names it binds. */
    for (Py_ssize_t i = 0; r == 1 && i < PyTuple_GET_SIZE(fromlist); i++) {
        r = module_reads(state, code, PySequence_Fast_GET_ITEM(bound, i));
        r = (r < 0) ? -1 : !r;
    }
    Py_DECREF(bound);
    return r;
}

/* Is 'code' the body of a module that protoc generated ("x_pb2.py",
   whose body adds its file to protobuf's descriptor pool)?  The pool
   needs the files of the modules it imports first: each import of such a
   body runs as eagerly, whether or not the body reads the name (protoc's
   "import dep_pb2 as dep__pb2" is read only by some messages).  The file
   name is asked first, which turns away every other module cheaply.  One
   of the shipped defaults, a rule for a class of modules (contract rule
   58): off with them. */
static int
is_protoc_module(PyObject *code)
{
    if (code == NULL || !PyCode_Check(code)) {
        return 0;
    }
    PyCodeObject *co = (PyCodeObject *)code;
    static const char suffix[] = "_pb2.py";
    Py_ssize_t len = PyUnicode_Check(co->co_filename)
                     ? PyUnicode_GET_LENGTH(co->co_filename) : 0;
    if (len < (Py_ssize_t)sizeof(suffix) - 1) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)sizeof(suffix) - 1; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(co->co_filename,
                                        len - (sizeof(suffix) - 1) + i);
        if (c != (Py_UCS4)suffix[i]) {
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(co->co_names); i++) {
        PyObject *name = PyTuple_GET_ITEM(co->co_names, i);
        if (PyUnicode_Check(name)
            && _PyUnicode_EqualToASCIIString(name, "AddSerializedFile"))
        {
            return 1;
        }
    }
    return 0;
}


/* Is the body of a module that implements a loader running in this
   thread (its code names a loader class of importlib): is this import
   made by it, or by a module it imports?  Under the guard those imports
   run at once, as before finding: deferred, the first use of one may be
   in the loader, loading a module that needs that very name
   (beartype.claw's loader calls a function of a module that its own
   loader then loads).  A finder needs nothing of the kind: an import
   made to resolve a lazy import does not ask the finders running in the
   thread (see _PyLazyImport_RunImportHook()). */
static int
serves_imports(PyThreadState *tstate)
{
    static const char *const names[] = {
        "SourceFileLoader", "SourcelessFileLoader", "FileLoader",
        "SourceLoader", "Loader", "InspectLoader", "ExecutionLoader",
        NULL};
    for (_PyInterpreterFrame *f = tstate->current_frame; f != NULL;
         f = f->previous)
    {
        if (f->owner == FRAME_OWNED_BY_CSTACK
            || !PyCode_Check(f->f_executable))
        {
            continue;
        }
        PyCodeObject *co = (PyCodeObject *)f->f_executable;
        if ((co->co_flags & CO_OPTIMIZED)
            || !_PyUnicode_EqualToASCIIString(co->co_name, "<module>"))
        {
            continue;   /* not a module's body */
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(co->co_names); i++) {
            PyObject *name = PyTuple_GET_ITEM(co->co_names, i);
            for (int k = 0; names[k] != NULL; k++) {
                if (_PyUnicode_EqualToASCIIString(name, names[k])) {
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Called by IMPORT_NAME for an import statement that may be lazy, while
   lazy imports are enabled.  Returns a new lazy import object, None when
   the import must run now, or NULL with an exception set. */
PyObject *
_PyLazyImport_ImportName(PyThreadState *tstate, PyObject *ns,
                         PyObject *builtins, PyObject *globals,
                         PyObject *locals, PyObject *name,
                         PyObject *fromlist, PyObject *level,
                         PyObject *code, int addr)
{
    PyInterpreterState *interp = tstate->interp;
    /* Only plain dicts resolve lazy objects on read; a split dict (an
       object's __dict__) shares its values with the object.  Code run with
       locals other than its globals (exec() with two namespaces, as in
       site's .pth lines) runs as a class body would: eagerly. */
    if (ns == NULL || !PyDict_CheckExact(ns)
        || ((PyDictObject *)ns)->ma_values != NULL
        || globals == NULL || ns != globals)
    {
        Py_RETURN_NONE;
    }
    int ilevel = PyLong_AsInt(level);
    if (ilevel == -1 && _PyErr_Occurred(tstate)) {
        return NULL;
    }
    struct _lazy_import_state *state = &interp->imports.lazy;
    if (state->mode < 0) {
        Py_RETURN_NONE;
    }
    PyObject *fullname = lazy_absolute_name(name, globals, ilevel);
    if (fullname == NULL || fullname == Py_None) {
        return fullname;
    }
    const char *eager = NULL;   /* why the statement runs now */
    int r;
    if (((_PyThreadStateImpl *)tstate)->lazy_imports.guarded > 0) {
        /* Run by an import that a try statement makes and whose
           ImportError it catches (contract rule 54): the try must see the
           ImportError that this import raises eagerly (see
           imports_without_error()). */
        r = imports_without_error(tstate, fullname, fromlist);
        if (r == 0 && !serves_imports(tstate)) {
            r = _PyLazyImport_GuardFinds(tstate, fullname, fromlist);
        }
        if (r < 0 && _PyErr_ExceptionMatches(tstate, PyExc_Exception)) {
            _PyErr_Clear(tstate);   /* the import itself will tell */
            r = 0;
        }
        if (r <= 0) {
            r = r < 0 ? -1 : 1;
            eager = "try ImportError";
            goto eager;
        }
    }
    if (state->mode == 0) {
        /* Not -L: only the imports that the module lists in
           __lazy_modules__ (PEP 810). */
        r = lazy_is_listed(state->lazy_modules, globals, fullname);
        if (r <= 0) {
            goto eager;
        }
    }
    PyObject *excluding = state->excluding;
    if (excluding != NULL) {
        Py_INCREF(excluding);
        r = lazy_is_excluded(excluding, fullname, fromlist);
        Py_DECREF(excluding);
        if (r != 0) {
            eager = "excluding";
            goto eager;
        }
    }
    if (state->mode > 0 && state->heal && state->defaults) {
        r = lazy_is_default(globals);
        if (r != 0) {
            eager = "shipped default";
            goto eager;
        }
    }
    PyObject *filter = state->filter;
    if (filter != NULL) {
        /* sys.set_lazy_imports_filter() (PEP 810): filter(importer, name,
           fromlist) says whether the import may be lazy.  Held first: the
           lookup of __name__ may run code (a lazy __name__ resolves) that
           replaces the filter. */
        Py_INCREF(filter);
        PyObject *importer;
        r = PyDict_GetItemRef(globals, &_Py_ID(__name__), &importer);
        if (r >= 0) {
            PyObject *args[3] = {importer ? importer : Py_None, fullname,
                                 fromlist};
            PyObject *res = PyObject_Vectorcall(filter, args, 3, NULL);
            Py_XDECREF(importer);
            r = (res == NULL) ? -1 : PyObject_IsTrue(res);
            Py_XDECREF(res);
            r = (r < 0) ? -1 : !r;
        }
        Py_DECREF(filter);
        if (r != 0) {
            eager = "filter";
            goto eager;
        }
    }
    if (state->mode > 0 && state->heal && state->defaults
        && is_protoc_module(code))
    {
        eager = "protoc-generated module";
        r = 1;
        goto eager;
    }
    /* A from-import's module, looked up once for what follows. */
    PyObject *module = NULL;
    int ready = is_import_system(fullname, fromlist);
    if (ready) {
        eager = "import system";
    }
    else if (PyTuple_Check(fromlist) && PyTuple_GET_SIZE(fromlist) > 0) {
        ready = _PyLazyImport_GetImported(fullname, &module);
        if (ready > 0) {
            ready = lazy_from_is_ready(tstate, module, fromlist, builtins);
        }
        eager = "names bound";
    }
    if (ready == 0 && state->mode > 0 && state->heal
        && PyTuple_Check(fromlist) && PyTuple_GET_SIZE(fromlist) > 0)
    {
        ready = is_side_effect_import(state, globals, code, addr, fullname,
                                      fromlist, module, ilevel > 0);
        eager = "side-effect import";
    }
    else if (ready == 0 && state->mode > 0 && state->heal) {
        ready = is_side_effect_module_import(state, code, addr);
        eager = "side-effect import";
    }
    if (ready > 0 && module != NULL && state->mode > 0 && state->heal
        && PyModule_Check(module))
    {
        /* It runs now: a registry it reads (see
           _PyLazyImport_IsSharedObject()) may be filled by the importer's
           earlier imports, which eagerly ran before. */
        PyObject *mdict = PyModule_GetDict(module);
        for (Py_ssize_t i = 0; ready > 0 && i < PyTuple_GET_SIZE(fromlist);
             i++)
        {
            PyObject *item = PyTuple_GET_ITEM(fromlist, i), *value;
            int found = _PyDict_GetItemRefNoResolve(mdict, item, &value);
            if (found > 0) {
                found = _PyLazyImport_CompleteForSharedObject(tstate, globals,
                                                              fullname,
                                                              item, value);
                Py_DECREF(value);
            }
            if (found < 0) {
                ready = -1;
            }
        }
    }
    if (ready != 0) {
        Py_XDECREF(module);
        r = ready;
        goto eager;
    }
    PyObject *lazy = _PyLazyImport_New(name, fullname, fromlist, level,
                                       globals, locals, builtins,
                                       code, addr);
    if (lazy != NULL) {
        /* See _PyLazyImport_DefinedLater(). */
        r = PyDict_Contains(globals, &_Py_ID(__getattr__));
        LAZY(lazy)->lz_getattr_before = (r > 0);
    }
    if (lazy == NULL || r < 0
        || current_origin(tstate, globals, &LAZY(lazy)->lz_origin) < 0
        || bind_submodules(LAZY(lazy), module) < 0)
    {
        Py_XDECREF(module);
        Py_DECREF(fullname);
        Py_XDECREF(lazy);
        return NULL;
    }
    Py_XDECREF(module);
    PyObject *collect = ((_PyThreadStateImpl *)tstate)->lazy_imports.collect;
    if (collect != NULL && PyList_Append(collect, lazy) < 0) {
        Py_DECREF(fullname);
        Py_DECREF(lazy);
        return NULL;
    }
    if (_PyInterpreterState_GetConfig(interp)->verbose && code != NULL) {
        PyCodeObject *co = (PyCodeObject *)code;
        PySys_FormatStderr("# lazy import '%U' deferred (%U:%d)\n",
                           fullname, co->co_filename,
                           PyCode_Addr2Line(co, addr));
    }
    Py_DECREF(fullname);
    _PyLazyImport_NotifyStatement("deferred", LAZY(lazy), NULL);
    return lazy;

eager:
    /* r is 1 (the statement runs now), 0 (not listed in __lazy_modules__:
       runs now, as any import does by default) or -1 (an error). */
    if (r > 0 && eager != NULL && state->observer != NULL) {
        PyObject *reason = PyUnicode_FromString(eager);
        if (reason == NULL) {
            Py_DECREF(fullname);
            return NULL;
        }
        notify(interp, "eager", Py_None, fullname, fromlist, globals, code,
               addr, reason);
        Py_DECREF(reason);
    }
    Py_DECREF(fullname);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* Is 'excluding' a valid setting?  Returns 0, or -1 with TypeError set. */
int
_PyLazyImport_CheckExcluding(PyObject *excluding)
{
    PyTypeObject *tp = Py_TYPE(excluding);
    int contains = (tp->tp_as_sequence != NULL
                    && tp->tp_as_sequence->sq_contains != NULL);
    if (excluding != Py_None && !PyCallable_Check(excluding)
        && ((!contains && tp->tp_iter == NULL)
            /* "json" in "jsonschema" is true: a name is not a container
               of names */
            || PyUnicode_Check(excluding) || PyBytes_Check(excluding)
            || PyByteArray_Check(excluding)
            /* "in" would consume an iterator, and miss names later */
            || (!contains && PyIter_Check(excluding))))
    {
        PyErr_Format(PyExc_TypeError,
                     "excluding must be a container of module names (not a "
                     "string or an iterator) or a callable, not %T",
                     excluding);
        return -1;
    }
    return 0;
}

int
PyImport_IsLazyImportsEnabled(void)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    return interp->imports.lazy.mode > 0;
}

PyObject *
PyImport_SetLazyImports(PyObject *enabled, PyObject *excluding)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    int enable = 1;
    if (enabled != NULL) {
        enable = PyObject_IsTrue(enabled);
        if (enable < 0) {
            return NULL;
        }
    }
    if (excluding == Py_None) {
        excluding = NULL;
    }
    PyObject *old = interp->imports.lazy.excluding;
    PyObject *res = PyTuple_Pack(2,
                                 interp->imports.lazy.mode > 0
                                     ? Py_True : Py_False,
                                 old ? old : Py_None);
    if (res == NULL) {
        return NULL;
    }
    interp->imports.lazy.mode = enable;
    interp->imports.lazy.excluding = Py_XNewRef(excluding);
    Py_XDECREF(old);
    return res;
}

/* sys.set_lazy_imports() and sys.get_lazy_imports() (PEP 810): the same
   state as importlib.set_lazy_imports()'s "enabled", spelled "all" (-L),
   "normal" (only what __lazy_modules__ lists) or "none". */
static const char * const lazy_mode_names[] = {"none", "normal", "all"};

int
_PyLazyImport_SetMode(PyObject *mode)
{
    if (!PyUnicode_Check(mode)) {
        PyErr_Format(PyExc_TypeError,
                     "lazy imports mode must be a str, not %T", mode);
        return -1;
    }
    for (int i = 0; i < (int)Py_ARRAY_LENGTH(lazy_mode_names); i++) {
        if (PyUnicode_EqualToUTF8(mode, lazy_mode_names[i])) {
            _PyInterpreterState_GET()->imports.lazy.mode = i - 1;
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "lazy imports mode must be 'all', 'normal' or 'none', "
                 "not %R", mode);
    return -1;
}

PyObject *
_PyLazyImport_GetMode(void)
{
    int mode = _PyInterpreterState_GET()->imports.lazy.mode;
    int i = mode < 0 ? 0 : mode == 0 ? 1 : 2;
    return PyUnicode_FromString(lazy_mode_names[i]);
}

int
_PyLazyImport_SetFilter(PyObject *filter)
{
    if (filter != Py_None && !PyCallable_Check(filter)) {
        PyErr_Format(PyExc_TypeError,
                     "lazy imports filter must be callable or None, not %T",
                     filter);
        return -1;
    }
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    Py_XSETREF(state->filter, filter == Py_None ? NULL : Py_NewRef(filter));
    return 0;
}

PyObject *
_PyLazyImport_GetFilter(void)
{
    PyObject *filter = _PyInterpreterState_GET()->imports.lazy.filter;
    return Py_NewRef(filter ? filter : Py_None);
}

PyObject *
_PyLazyImport_SetObserver(PyObject *observer)
{
    if (observer != Py_None && !PyCallable_Check(observer)) {
        PyErr_Format(PyExc_TypeError,
                     "observer must be callable or None, not %T", observer);
        return NULL;
    }
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    PyObject *old = state->observer;
    state->observer = (observer == Py_None) ? NULL : Py_NewRef(observer);
    return old ? old : Py_None;   /* the reference the state held */
}


/* ----- Lazy objects: names, stores, inert copies ------------------------- */

/* The absolute name of what resolving 'lz' gives: "import a.b" gives the
   top-level package "a". */
static PyObject *
value_name(PyLazyImportObject *lz)
{
    if (lz->lz_parent == NULL && lz->lz_fromlist == Py_None) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(lz->lz_fullname);
        Py_ssize_t dot = _PyLazyImport_FindDot(lz->lz_fullname, 0, len);
        if (dot == -2) {
            return NULL;
        }
        if (dot >= 0) {
            return PyUnicode_Substring(lz->lz_fullname, 0, dot);
        }
    }
    return Py_XNewRef(_PyLazyImport_FullName((PyObject *)lz));
}

/* A name import's full name is built when first needed (messages, the
   import of a submodule of that name): most never need it, and building
   it for each name of each deferred from-import cost a string each. */
PyObject *
_PyLazyImport_FullName(PyObject *lazy)
{
    PyLazyImportObject *lz = LAZY(lazy);
    if (lz->lz_fullname == NULL) {
        assert(lz->lz_parent != NULL);
        PyObject *base = value_name(LAZY(lz->lz_parent));
        if (base == NULL) {
            return NULL;
        }
        lz->lz_fullname = PyUnicode_GET_LENGTH(base) == 0
                          ? Py_NewRef(lz->lz_name)
                          : _PyLazyImport_Dotted(base, lz->lz_name);
        Py_DECREF(base);
    }
    return lz->lz_fullname;
}

int
_PyLazyImport_IsReference(PyObject *op)
{
    return (PyLazyImport_CheckExact(op) && LAZY(op)->lz_parent == NULL
            && LAZY(op)->lz_fromlist == Py_None
            && LAZY(op)->lz_submodule != 0);
}

/* "from modname import name": is modname imported already, without the
   attribute name (nor a __getattr__ that could provide it)?  Then an eager
   import would have imported the submodule modname.name, if there is one.
   A module that another thread is still importing is not waited for (a
   lazy statement must not block): its names so far decide, and a wrong
   guess only costs resolution a failed attempt at the submodule.  Returns
   1, 0, or -1 with an exception set. */
static int
lacks_name(PyObject *modname, PyObject *name)
{
    PyObject *module;
    if (PyMapping_GetOptionalItem(PyImport_GetModuleDict(), modname,
                                  &module) <= 0)
    {
        return PyErr_Occurred() ? -1 : 0;
    }
    int r = 0;
    if (PyModule_Check(module)) {
        PyObject *dict = PyModule_GetDict(module);
        PyObject *value;
        r = _PyDict_GetItemRefNoResolve(dict, name, &value);
        if (r > 0) {
            /* The lazy binding of the submodule made by this statement, or
               an earlier one, stands for the submodule. */
            r = !_PyLazyImport_IsReference(value);
            Py_DECREF(value);
        }
        if (r == 0) {
            r = PyDict_Contains(dict, &_Py_ID(__getattr__));
        }
        r = (r < 0) ? -1 : !r;
    }
    Py_DECREF(module);
    return r;
}

int
_PyLazyImport_Store(PyObject *dict, PyObject *name, PyObject *lazy)
{
    if (!LAZY(lazy)->lz_bound) {
        LAZY(lazy)->lz_bound = 1;
        return _PyDict_SetLazyItem(dict, name, lazy);
    }
    PyObject *inert = _PyLazyImport_Inert(lazy);
    if (inert == NULL) {
        return -1;
    }
    int r = PyDict_SetItem(dict, name, inert);
    Py_DECREF(inert);
    return r;
}

PyObject *
_PyLazyImport_Inert(PyObject *lazy)
{
    assert(PyLazyImport_CheckExact(lazy));
    PyObject *fullname = _PyLazyImport_FullName(lazy);
    if (fullname == NULL) {
        return NULL;
    }
    PyObject *copy = _PyLazyImport_New(fullname, fullname, Py_None,
                                       _PyLong_GetZero(), NULL, NULL, NULL,
                                       NULL, 0);
    if (copy != NULL) {
        LAZY(copy)->lz_inert = 1;
    }
    return copy;
}

PyObject *
_PyLazyImport_NewFrom(PyObject *parent, PyObject *name)
{
    assert(PyLazyImport_CheckExact(parent));
    PyLazyImportObject *p = LAZY(parent);
    PyObject *lz = _PyLazyImport_New(name, NULL, Py_None, p->lz_level,
                                     p->lz_globals, p->lz_locals,
                                     p->lz_builtins, p->lz_code, p->lz_addr);
    if (lz == NULL) {
        return NULL;
    }
    LAZY(lz)->lz_parent = Py_NewRef(parent);
    if (p->lz_parent == NULL && p->lz_fromlist != Py_None && p->lz_loaded) {
        int r = lacks_name(p->lz_fullname, name);
        if (r < 0) {
            Py_DECREF(lz);
            return NULL;
        }
        LAZY(lz)->lz_submodule = r;
    }
    return lz;
}

/* ----- Submodule bindings: references and the pending registry ----------- */

/* Submodule bindings (contract rule 49).

   An eager "import a.b.c" binds b in a and c in a.b as it runs, and other
   code comes to rely on it ("import a" elsewhere, then a.b.c.f()).  A lazy
   one makes the same bindings, in the same order, with lazy references:
   at the statement, each package of the name that is in sys.modules
   (loaded or loading) and whose child is not gets the child bound to a lazy
   import of that submodule.  The packages not imported yet get theirs when
   the import system has loaded them (_PyLazyImport_ModuleLoaded()), as the
   eager statement would have bound the child after the package's body ran.
   A from-import binds each name it takes the same way, tentatively: "from
   a import b" imports a.b only where a has no attribute b, and a tentative
   reference that finds no module a.b leaves the name unbound.

   Once the submodule is loaded, the import system binds it in the package
   itself, unless the package rebound or deleted the name after the lazy
   binding (eagerly that came after the binding, so it stays).  Each lazy
   reference bound so knows its package (lz_package) until then, and tells
   when the package drops it; only the names dropped so, or carried
   elsewhere by a copy, are remembered until the submodule is loaded (see
   _PyLazyImport_NoteEscaped()).  A submodule bound so
   counts as imported for later statements, as it would be eagerly: each
   is bound once, and what is kept for it (the statement's namespace, for
   a replaced __import__ and the error notes) is bounded by the number of
   submodules named. */

/* sys.modules[name] without waiting for a module being imported (a lazy
   statement never blocks).  Returns 1 with a new reference in *module, or
   0, or -1 with an exception set. */
int
_PyLazyImport_GetImported(PyObject *name, PyObject **module)
{
    PyObject *modules = PyImport_GetModuleDict();
    int r = PyDict_CheckExact(modules)
        ? PyDict_GetItemRef(modules, name, module)
        : PyMapping_GetOptionalItem(modules, name, module);
    if (r > 0 && *module == Py_None) {
        Py_CLEAR(*module);
        r = 0;
    }
    return r;
}

/* Is 'module' a module whose body is still running (its __spec__ says it
   is initializing)?  Returns 1, 0, or -1 with an exception set. */
int
_PyLazyImport_IsInitializing(PyObject *module)
{
    PyObject *spec;
    int r = PyModule_Check(module)
        ? _PyDict_GetItemRefNoResolve(PyModule_GetDict(module),
                                      &_Py_ID(__spec__), &spec)
        : 0;
    if (r <= 0) {
        return r;
    }
    r = _PyModuleSpec_IsInitializing(spec);
    Py_DECREF(spec);
    return r;
}

/* Give back the table of a registry (interp->imports.lazy.pending or
   .escaped) that removals left sparse: a dict never shrinks on deletion, and
   one that held an entry per deferred import of a large package would
   keep that table for the rest of the process, where eager imports keep
   nothing.  An empty registry is cleared; one that fills less than a 32nd
   of its table is refilled from a copy, which sizes it for what it holds
   (so this is rare, and comes at geometric steps).  The registry stays the
   same object: a caller up the stack may hold it. */
static void
compact_registry_now(PyObject *dict)
{
    Py_ssize_t used = PyDict_GET_SIZE(dict);
    PyObject *copy = NULL;
    if (used != 0 && (copy = PyDict_Copy(dict)) == NULL) {
        PyErr_Clear();  /* keep the sparse one */
        return;
    }
    /* The copy holds every key and value: clearing runs no destructor. */
    PyDict_Clear(dict);
    if (copy != NULL) {
        if (PyDict_Update(dict, copy) < 0) {
            PyErr_WriteUnraisable(NULL);  /* cannot happen: memory */
        }
        Py_DECREF(copy);
    }
}

static inline void
compact_registry(PyObject *dict)
{
    Py_ssize_t used = PyDict_GET_SIZE(dict);
    if (used == 0 || used * 32 < DK_SIZE(((PyDictObject *)dict)->ma_keys)) {
        compact_registry_now(dict);
    }
}

/* Forget the escaped binding of 'fullname' (see
   _PyLazyImport_NoteEscaped()).  Returns the package it was bound in (a new
   reference) or NULL, without an exception set. */
static PyObject *
forget_escaped(PyObject *fullname)
{
    PyObject *escaped = _PyInterpreterState_GET()->imports.lazy.escaped;
    PyObject *ref = NULL, *package = NULL;
    if (escaped != NULL && PyDict_GET_SIZE(escaped) > 0) {
        int r = PyDict_Pop(escaped, fullname, &ref);
        if (r > 0) {
            compact_registry(escaped);
            r = PyWeakref_GetRef(ref, &package);
            Py_DECREF(ref);
        }
        if (r < 0) {
            PyErr_Clear();
        }
    }
    return package;
}

/* The lazy reference 'lz' no longer stands for a binding that the import
   system replaces when it loads the submodule: that happened, or the
   reference is resolved, or the submodule does not exist. */
static void
unbind(PyLazyImportObject *lz)
{
    if (lz->lz_package != NULL) {
        _PyInterpreterState_GET()->imports.lazy.nbound--;
        Py_CLEAR(lz->lz_package);
        Py_XDECREF(forget_escaped(lz->lz_fullname));
    }
}

/* Is 'value' the lazy reference bound to the submodule 'fullname' in
   'package', the submodule not loaded yet? */
static int
is_bound_reference(PyObject *value, PyObject *package, PyObject *fullname)
{
    return (value != NULL && PyLazyImport_CheckExact(value)
            && LAZY(value)->lz_package == package
            && (LAZY(value)->lz_fullname == fullname
                || _PyUnicode_Equal(LAZY(value)->lz_fullname, fullname)));
}

/* Has a lazy import bound the submodule 'fullname' in the module 'package'
   as 'child', and the import system not loaded it yet?  The binding is
   there, or it escaped (see _PyLazyImport_NoteEscaped()).  A definite binding
   wins over a tentative one: 'kind' is the one asked for.  Returns 1, 0, or -1
   with an exception set. */
static int
is_bound(PyObject *package, PyObject *child, PyObject *fullname, int kind)
{
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    PyObject *value;
    int r = 0;
    if (state->nbound > 0) {
        r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(package), child,
                                        &value);
        if (r > 0) {
            r = is_bound_reference(value, package, fullname);
            if (r && kind == SUBMODULE_DEFINITE) {
                LAZY(value)->lz_submodule = SUBMODULE_DEFINITE;
            }
            Py_DECREF(value);
        }
    }
    if (r == 0 && state->escaped != NULL
        && PyDict_GET_SIZE(state->escaped) > 0)
    {
        r = PyDict_GetItemRef(state->escaped, fullname, &value);
        if (r > 0) {
            PyObject *in;
            r = PyWeakref_GetRef(value, &in);
            Py_DECREF(value);
            Py_XDECREF(in);
            r = (r < 0) ? -1 : (in == package);
        }
    }
    return r;
}

/* The lazy reference 'lz', bound in its package, may not stay there: the
   package may drop it (rebind or delete the name), or a copy of the
   namespace or a star import carry it elsewhere, where its deallocation
   no longer tells that the package dropped it.  Remember the binding, by
   name (interp->imports.lazy.escaped), until the import system loads the
   submodule: the package's own value then stays
   (_PyLazyImport_KeepsAttribute()), and later statements do not bind the
   submodule again.  Returns 0, or -1 with an exception set. */
int
_PyLazyImport_NoteEscaped(PyLazyImportObject *lz)
{
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    if (state->escaped == NULL && (state->escaped = PyDict_New()) == NULL) {
        return -1;
    }
    /* Weakly: a package that is gone from sys.modules and from everywhere
       else goes, as it does eagerly. */
    PyObject *ref = PyWeakref_NewRef(lz->lz_package, NULL);
    if (ref == NULL) {
        return -1;
    }
    int r = PyDict_SetItem(state->escaped, lz->lz_fullname, ref);
    Py_DECREF(ref);
    return r;
}

int
_PyLazyImport_Carried(PyObject *source)
{
    if (_PyInterpreterState_GET()->imports.lazy.nbound == 0) {
        return 0;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (_PyDict_Next(source, &pos, &key, &value, NULL)) {
        if (PyLazyImport_CheckExact(value) && LAZY(value)->lz_package != NULL
            && _PyLazyImport_NoteEscaped(LAZY(value)) < 0)
        {
            return -1;
        }
    }
    return 0;
}

/* The package of the bound reference 'lz' dropped it: remember that,
   unless the package is no longer the one the import system would bind
   the submodule in (the garbage collector destroying it, say) or the
   submodule is loaded.  Returns 0, or -1 with an exception set. */
static int
note_dropped(PyInterpreterState *interp, PyLazyImportObject *lz)
{
    PyObject *modules = interp->imports.modules;
    if (_PyInterpreterState_GetFinalizing(interp) != NULL
        || modules == NULL || !PyDict_CheckExact(modules))
    {
        return 0;
    }
    PyObject *fullname = lz->lz_fullname;
    int r = PyDict_Contains(modules, fullname);
    if (r != 0) {
        return r < 0 ? -1 : 0;     /* replaced by the import system */
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t dot = PyUnicode_FindChar(fullname, '.', 0, len, -1);
    if (dot < 0) {
        return dot == -2 ? -1 : 0;
    }
    PyObject *parent = PyUnicode_Substring(fullname, 0, dot);
    if (parent == NULL) {
        return -1;
    }
    PyObject *in;
    r = PyDict_GetItemRef(modules, parent, &in);
    Py_DECREF(parent);
    if (r <= 0) {
        return r;
    }
    Py_DECREF(in);
    return (in == lz->lz_package) ? _PyLazyImport_NoteEscaped(lz) : 0;
}

void
_PyLazyImport_Dropped(PyObject *lazy)
{
    PyLazyImportObject *lz = LAZY(lazy);
    PyInterpreterState *interp = _PyInterpreterState_GET();
    assert(lz->lz_package != NULL && lz->lz_fullname != NULL);
    PyObject *exc = PyErr_GetRaisedException();
    if (note_dropped(interp, lz) < 0) {
        PyErr_FormatUnraisable("Exception ignored while remembering that "
                               "a package rebound its submodule %R",
                               lz->lz_fullname);
    }
    PyErr_SetRaisedException(exc);
    interp->imports.lazy.nbound--;
    Py_CLEAR(lz->lz_package);
}

/* May the package 'package' provide the name 'child' itself: is it a
   module that has the name, or a __getattr__?  (A tentative binding, the
   name of a from-import, is then not a submodule's.)  Returns 1, 0, or -1
   with an exception set. */
static int
provides_name(PyObject *package, PyObject *child)
{
    if (!PyModule_Check(package)) {
        return 0;
    }
    PyObject *dict = PyModule_GetDict(package);
    int r = PyDict_Contains(dict, child);
    if (r == 0) {
        r = PyDict_Contains(dict, &_Py_ID(__getattr__));
    }
    return r;
}

/* Bind 'child' in 'package' (a module) to a lazy reference to its
   submodule 'fullname', as the eager statement would have bound the
   submodule: not if the submodule is imported already, or bound by an
   earlier lazy import (an eager import would not bind it again).  The
   caller of a tentative one has checked that the package does not provide
   the name itself (provides_name()).  'lz' is the statement that binds
   it. */
static int
bind_child(PyObject *package, PyObject *fullname, PyObject *child, int kind,
           PyLazyImportObject *lz)
{
    PyObject *sub;
    int r = _PyLazyImport_GetImported(fullname, &sub);
    if (r > 0) {
        /* Still being imported (by another thread, say, which found the
           package in sys.modules while it was loading): the import
           system binds it only once it is loaded, and eagerly the
           statement would have waited for that. */
        PyObject *spec;
        r = PyObject_GetOptionalAttr(sub, &_Py_ID(__spec__), &spec);
        if (r > 0) {
            r = _PyModuleSpec_IsInitializing(spec);
            r = (r < 0) ? -1 : !r;
            Py_DECREF(spec);
        }
        else if (r == 0) {
            r = 1;
        }
        if (r == 0) {
            Py_CLEAR(sub);
        }
    }
    if (r == 0 && !PyModule_Check(package)) {
        return 0;
    }
    if (r == 0) {
        r = is_bound(package, child, fullname, kind);
    }
    if (r != 0) {
        Py_XDECREF(sub);
        return r < 0 ? -1 : 0;
    }
    PyObject *ref = _PyLazyImport_New(fullname, fullname, Py_None,
                                      _PyLong_GetZero(), lz->lz_globals, NULL,
                                      lz->lz_builtins, lz->lz_code,
                                      lz->lz_addr);
    if (ref == NULL) {
        return -1;
    }
    LAZY(ref)->lz_submodule = kind;
    /* Eagerly the statement imports the submodule: it has its place. */
    LAZY(ref)->lz_origin = _PyLazyImport_EagerKey(lz);
    if (LAZY(ref)->lz_origin == NULL) {
        Py_DECREF(ref);
        return -1;
    }
    /* What the name has now (tokenizers binds "models" to a module of its
       extension, and has a subpackage of that name): while the submodule
       is being imported, the name reads it, as eagerly. */
    r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(package), child,
                                    &LAZY(ref)->lz_shadowed);
    if (r > 0 && _PyLazyImport_IsReference(LAZY(ref)->lz_shadowed)) {
        Py_CLEAR(LAZY(ref)->lz_shadowed);
    }
    if (r < 0) {
        Py_DECREF(ref);
        return -1;
    }
    /* Interned, as setattr() interns the name when the import system binds
       the submodule: the key stays when the value is replaced. */
    Py_INCREF(child);
    PyUnicode_InternInPlace(&child);
    r = _PyDict_SetLazyItem(PyModule_GetDict(package), child, ref);
    Py_DECREF(child);
    if (r == 0) {
        LAZY(ref)->lz_package = Py_NewRef(package);
        _PyInterpreterState_GET()->imports.lazy.nbound++;
    }
    Py_DECREF(ref);
    return r;
}

/* A pending binding is the lazy module import whose statement makes it,
   in interp->imports.lazy.pending[parent]: a record of the statement (see
   pending_record()), or a list of them in statement order.  It is a
   definite binding of the child of 'parent' in its module name (see
   bind_dotted(): 'parent' is shorter than lz_fullname), or tentative ones
   of the names of its fromlist ('parent' is lz_fullname).  The names are
   taken from the statement when the package is loaded: a statement costs
   no more than an entry. */
static int
pending_kind(PyObject *parent, PyObject *entry)
{
    return (PyUnicode_GET_LENGTH(parent)
            < PyUnicode_GET_LENGTH(LAZY(entry)->lz_fullname))
        ? SUBMODULE_DEFINITE : SUBMODULE_TENTATIVE;
}

/* The names of a fromlist that may be submodules. */
static inline int
is_from_name(PyObject *item)
{
    return PyUnicode_Check(item)
           && !(PyUnicode_GET_LENGTH(item) == 1
                && PyUnicode_READ_CHAR(item, 0) == '*');
}

/* The length of a list of pending bindings from which add_pending()
   compacts it, at each doubling. */
#define PENDING_COMPACT 256

/* Drop from the list of pending bindings of 'parent' (see add_pending())
   the entries that an earlier one makes already: the same statement run
   again in a fresh namespace, say, for a package that is never loaded.  So
   what is kept is bounded by the number of names bound, as eagerly.  A
   definite binding is known by the full name it binds, a tentative one by
   the names of its fromlist.  Returns the new list, or NULL with an
   exception set. */
static PyObject *
compact_pending(PyObject *parent, PyObject *list)
{
    PyObject *seen = PySet_New(NULL);
    PyObject *kept = PyList_New(0);
    if (seen == NULL || kept == NULL) {
        goto error;
    }
    Py_ssize_t start = PyUnicode_GET_LENGTH(parent) + 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *entry = PyList_GET_ITEM(list, i);
        PyObject *fullname = LAZY(entry)->lz_fullname;
        int keep = 0;
        if (pending_kind(parent, entry) == SUBMODULE_DEFINITE) {
            Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
            Py_ssize_t end = _PyLazyImport_FindDot(fullname, start, len);
            PyObject *key = (end == -1) ? Py_NewRef(fullname)
                          : (end < 0) ? NULL
                          : PyUnicode_Substring(fullname, 0, end);
            int r = key ? PySet_Contains(seen, key) : -1;
            if (r == 0) {
                keep = 1;
                r = PySet_Add(seen, key);
            }
            Py_XDECREF(key);
            if (r < 0) {
                goto error;
            }
        }
        else {
            PyObject *fromlist = LAZY(entry)->lz_fromlist;
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(fromlist); k++) {
                PyObject *item = PyTuple_GET_ITEM(fromlist, k);
                if (!is_from_name(item)) {
                    continue;
                }
                int r = PySet_Contains(seen, item);
                if (r == 0) {
                    keep = 1;
                    r = PySet_Add(seen, item);
                }
                if (r < 0) {
                    goto error;
                }
            }
        }
        if (keep && PyList_Append(kept, entry) < 0) {
            goto error;
        }
    }
    Py_DECREF(seen);
    return kept;

error:
    Py_XDECREF(seen);
    Py_XDECREF(kept);
    return NULL;
}

/* Does the pending binding 'entry' make the bindings of 'lz' already: is
   'lz' the same statement run again (in a fresh namespace, say), or one
   binding the same names?  Checked cheaply: the same offset in its code
   first. */
static int
same_pending(PyLazyImportObject *entry, PyLazyImportObject *lz)
{
    if (entry == lz) {
        return 1;
    }
    if (entry->lz_addr != lz->lz_addr
        || (entry->lz_fullname != lz->lz_fullname
            && !_PyUnicode_Equal(entry->lz_fullname, lz->lz_fullname)))
    {
        return 0;
    }
    if (entry->lz_fromlist == lz->lz_fromlist) {
        return 1;
    }
    int r = PyObject_RichCompareBool(entry->lz_fromlist, lz->lz_fromlist,
                                     Py_EQ);
    if (r < 0) {
        PyErr_Clear();  /* only an optimization */
    }
    return r > 0;
}

/* What a pending binding keeps of the statement 'lz': the statement
   itself when its namespace is that of a module in sys.modules, which
   keeps it alive anyway (nearly every statement: nothing to copy).
   Another namespace (exec("import xml.dom", {}) in a function that drops
   the dict) is not kept alive, as eagerly (contract rule 53): a record of
   the statement is kept instead, what bind_child() and
   _PyLazyImport_EagerKey() read, with a namespace of its own that holds only
   its __name__, for the messages of the reference it binds.  A new reference,
   or NULL with an exception set. */
static PyObject *
pending_record(PyLazyImportObject *lz)
{
    PyObject *globals = lz->lz_globals, *name = NULL, *module = NULL;
    if (globals != NULL && PyDict_Check(globals)) {
        int r = _PyDict_GetItemRefNoResolve(globals, &_Py_ID(__name__),
                                            &name);
        if (r > 0 && PyUnicode_Check(name)) {
            /* Not PyImport_GetModule(): for a module still initializing
               (the usual case here) it takes and releases the module's
               import lock, through importlib. */
            r = _PyLazyImport_GetImported(name, &module);
        }
        if (r < 0) {
            Py_XDECREF(name);
            return NULL;
        }
        int kept = (module != NULL && PyModule_Check(module)
                    && PyModule_GetDict(module) == globals);
        Py_XDECREF(module);
        if (kept) {
            Py_XDECREF(name);
            return Py_NewRef((PyObject *)lz);
        }
        if ((globals = PyDict_New()) != NULL && name != NULL
            && PyUnicode_Check(name)
            && PyDict_SetItem(globals, &_Py_ID(__name__), name) < 0)
        {
            Py_CLEAR(globals);
        }
        Py_XDECREF(name);
        if (globals == NULL) {
            return NULL;
        }
    }
    else {
        Py_XINCREF(globals);
    }
    PyObject *record = _PyLazyImport_New(lz->lz_name, lz->lz_fullname,
                                         lz->lz_fromlist, lz->lz_level,
                                         globals, NULL, lz->lz_builtins,
                                         lz->lz_code, lz->lz_addr);
    Py_XDECREF(globals);
    if (record != NULL) {
        LAZY(record)->lz_serial = lz->lz_serial;
        LAZY(record)->lz_origin = Py_XNewRef(lz->lz_origin);
    }
    return record;
}

/* Remember that the statement of 'lz' binds in the package 'parent' when
   it is loaded (as a pending_record()). */
static int
add_pending(PyObject *parent, PyLazyImportObject *lz)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    PyObject *pending = interp->imports.lazy.pending;
    if (pending == NULL) {
        pending = interp->imports.lazy.pending = PyDict_New();
        if (pending == NULL) {
            return -1;
        }
    }
    PyObject *old;
    int r = PyDict_GetItemRef(pending, parent, &old);
    if (r < 0
        || (r > 0 && PyLazyImport_CheckExact(old)
            && same_pending(LAZY(old), lz)))
    {
        Py_XDECREF(old);
        return r < 0 ? -1 : 0;
    }
    if (r == 0) {
        PyObject *record = pending_record(lz);
        r = record ? PyDict_SetItem(pending, parent, record) : -1;
        Py_XDECREF(record);
        return r;
    }
    if (PyList_CheckExact(old)) {
        /* A statement run again repeats the last few ones. */
        Py_ssize_t n = PyList_GET_SIZE(old);
        for (Py_ssize_t i = n - 1; i >= 0 && i >= n - 4; i--) {
            if (same_pending(LAZY(PyList_GET_ITEM(old, i)), lz)) {
                Py_DECREF(old);
                return 0;
            }
        }
        PyObject *record = pending_record(lz);
        r = record ? PyList_Append(old, record) : -1;
        Py_XDECREF(record);
        if (r == 0 && n + 1 >= PENDING_COMPACT && ((n + 1) & n) == 0) {
            /* Otherwise, at each doubling from PENDING_COMPACT entries:
               amortized, a constant cost per entry. */
            PyObject *kept = compact_pending(parent, old);
            r = kept ? PyDict_SetItem(pending, parent, kept) : -1;
            Py_XDECREF(kept);
        }
    }
    else {
        PyObject *record = pending_record(lz);
        PyObject *list = record ? PyList_New(2) : NULL;
        if (list == NULL) {
            Py_XDECREF(record);
            Py_DECREF(old);
            return -1;
        }
        PyList_SET_ITEM(list, 0, Py_NewRef(old));
        PyList_SET_ITEM(list, 1, record);
        r = PyDict_SetItem(pending, parent, list);
        Py_DECREF(list);
    }
    Py_DECREF(old);
    return r;
}

/* The statement of 'lz' binds 'child' in 'package', sys.modules[parent]
   (or NULL when the package is not imported yet: when it is loaded then).
   'fullname' is parent.child, or NULL to build it only if needed. */
static int
bind_pair_in(PyObject *package, PyObject *parent, PyObject *child,
             PyObject *fullname, int kind, PyLazyImportObject *lz)
{
    if (package == NULL) {
        return add_pending(parent, lz);
    }
    int r = kind == SUBMODULE_TENTATIVE ? provides_name(package, child) : 0;
    if (r == 0) {
        PyObject *name = fullname ? Py_NewRef(fullname)
                                  : _PyLazyImport_Dotted(parent, child);
        r = name ? bind_child(package, name, child, kind, lz) : -1;
        Py_XDECREF(name);
    }
    return r < 0 ? -1 : 0;
}

/* In "import a.b.c", the child of 'parent' ("a" or "a.b"), which ends at
   'dot' in 'fullname', and its own full name: set *child and *name to new
   references.  Returns 0, or -1 with an exception set. */
static int
child_of(PyObject *fullname, Py_ssize_t dot, PyObject **child,
         PyObject **name)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t end = _PyLazyImport_FindDot(fullname, dot + 1, len);
    if (end == -2) {
        return -1;
    }
    if (end < 0) {
        end = len;
    }
    *child = PyUnicode_Substring(fullname, dot + 1, end);
    if (*child == NULL) {
        return -1;
    }
    *name = (end == len) ? Py_NewRef(fullname)
                         : PyUnicode_Substring(fullname, 0, end);
    if (*name == NULL) {
        Py_CLEAR(*child);
        return -1;
    }
    return 0;
}

/* The package name that the dotted name 'fullname' has before its dot at
   'dot': the string of the previous call if it is the same, as it is for
   consecutive imports from one package, so that its hash is computed
   once.  Returns a new reference, or NULL with an exception set. */
static PyObject *
parent_name(PyObject *fullname, Py_ssize_t dot)
{
    PyInterpreterState *interp = _PyInterpreterState_GET();
    struct _lazy_import_state *state = &interp->imports.lazy;
    PyObject *last = state->last_parent;
    if (last != NULL && PyUnicode_GET_LENGTH(last) == dot
        && PyUnicode_KIND(last) == PyUnicode_KIND(fullname)
        && memcmp(PyUnicode_DATA(last), PyUnicode_DATA(fullname),
                  dot * PyUnicode_KIND(fullname)) == 0)
    {
        return Py_NewRef(last);
    }
    PyObject *parent = PyUnicode_Substring(fullname, 0, dot);
    if (parent != NULL && _PyInterpreterState_GetFinalizing(interp) == NULL) {
        /* (Not kept past _PyLazyImport_Fini().) */
        Py_XSETREF(state->last_parent, Py_NewRef(parent));
    }
    return parent;
}

/* For each package of the dotted name 'fullname', bind its child: now if
   it is imported, when it is loaded otherwise. */
static int
bind_dotted(PyObject *fullname, PyLazyImportObject *lz)
{
    Py_ssize_t len = PyUnicode_GET_LENGTH(fullname);
    Py_ssize_t dot = _PyLazyImport_FindDot(fullname, 0, len);
    while (dot >= 0) {
        PyObject *parent = parent_name(fullname, dot);
        if (parent == NULL) {
            return -1;
        }
        PyObject *package, *child = NULL, *name = NULL;
        int r = _PyLazyImport_GetImported(parent, &package);
        if (r == 0) {
            r = add_pending(parent, lz);
        }
        else if (r > 0) {
            r = child_of(fullname, dot, &child, &name);
            if (r == 0) {
                r = bind_pair_in(package, parent, child, name,
                                 SUBMODULE_DEFINITE, lz);
            }
            Py_DECREF(package);
        }
        Py_DECREF(parent);
        Py_XDECREF(child);
        Py_XDECREF(name);
        if (r < 0) {
            return -1;
        }
        dot = _PyLazyImport_FindDot(fullname, dot + 1, len);
    }
    return dot == -2 ? -1 : 0;
}

/* The statement of 'lz' binds the submodules it names in their packages,
   to lazy references, as the eager statement binds them (contract rule
   49): now in the packages that are in sys.modules, and in the others when
   the import system has loaded them (_PyLazyImport_ModuleLoaded()).
   'module' is sys.modules[lz_fullname] for a from-import (or NULL), as
   the statement found it.  Returns 0, or -1 with an exception set. */
static int
bind_submodules(PyLazyImportObject *lz, PyObject *module)
{
    if (bind_dotted(lz->lz_fullname, lz) < 0) {
        return -1;
    }
    if (lz->lz_fromlist == Py_None || !PyTuple_Check(lz->lz_fromlist)) {
        return 0;
    }
    /* Its names need not be looked up in the module again to know that
       it lacks them (_PyLazyImport_NewFrom()) when it was not there. */
    lz->lz_loaded = (module != NULL);
    if (PyUnicode_GET_LENGTH(lz->lz_fullname) == 0) {
        return 0;
    }
    /* "from a.b import c, d": a.b.c and a.b.d, if they are modules.  When
       a.b is not imported yet, the statement stands for all its names. */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lz->lz_fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(lz->lz_fromlist, i);
        if (!is_from_name(item)) {
            continue;
        }
        if (bind_pair_in(module, lz->lz_fullname, item, NULL,
                         SUBMODULE_TENTATIVE, lz) < 0)
        {
            return -1;
        }
        if (module == NULL) {
            break;
        }
    }
    return 0;
}

/* Make the pending binding of 'child' in the package 'module', loaded
   now, named 'name', that the statement of 'entry' asked for. */
static int
bind_loaded(PyObject *module, PyObject *name, PyObject *child,
            PyObject *entry)
{
    PyLazyImportObject *lz = LAZY(entry);
    /* Most from-imports name attributes, not submodules. */
    int r = provides_name(module, child);
    if (r != 0) {
        return r < 0 ? -1 : 0;
    }
    /* The statement's own module, whose name is built already. */
    PyObject *fullname = _PyLazyImport_Dotted(name, child);
    if (fullname == NULL) {
        return -1;
    }
    r = bind_child(module, fullname, child, SUBMODULE_TENTATIVE, lz);
    Py_DECREF(fullname);
    return r;
}

/* Make the pending bindings in the package 'module', named 'name' and
   loaded now, that the statement of 'entry' asked for. */
static int
bind_entry(PyObject *module, PyObject *name, PyObject *entry)
{
    PyLazyImportObject *lz = LAZY(entry);
    if (pending_kind(name, entry) == SUBMODULE_DEFINITE) {
        /* Bound even when the package is loaded as the parent of this
           very submodule: another thread reading package.child before the
           import system binds it then waits for that import (through the
           reference) instead of finding the attribute missing. */
        PyObject *child, *fullname;
        if (child_of(lz->lz_fullname, PyUnicode_GET_LENGTH(name),
                     &child, &fullname) < 0)
        {
            return -1;
        }
        int r = bind_child(module, fullname, child, SUBMODULE_DEFINITE, lz);
        Py_DECREF(child);
        Py_DECREF(fullname);
        return r;
    }
    PyObject *fromlist = lz->lz_fromlist;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *item = PyTuple_GET_ITEM(fromlist, i);
        if (is_from_name(item) && bind_loaded(module, name, item, entry) < 0) {
            return -1;
        }
    }
    return 0;
}

int
_PyLazyImport_ModuleLoaded(PyObject *module, PyObject *name)
{
    PyObject *pending = _PyInterpreterState_GET()->imports.lazy.pending;
    if (pending == NULL || PyDict_GET_SIZE(pending) == 0) {
        return 0;
    }
    PyObject *entries;
    if (PyDict_Pop(pending, name, &entries) <= 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    compact_registry(pending);
    int r = 0;
    if (!PyList_CheckExact(entries)) {
        r = bind_entry(module, name, entries);
    }
    else {
        /* In statement order, as eagerly.  Not an iterator: the list
           is not changed, and a binding may run code. */
        for (Py_ssize_t i = 0; r == 0 && i < PyList_GET_SIZE(entries); i++) {
            r = bind_entry(module, name, PyList_GET_ITEM(entries, i));
        }
    }
    Py_DECREF(entries);
    return r;
}

/* Attach where the import was deferred (forward declaration). */
static void add_deferred_context(PyThreadState *tstate,
                                 PyLazyImportObject *lz);

/* ----- Resolutions in progress, and eager order (rule 50) ---------------- */

/* An import made to resolve a lazy import does not ask the import hooks
   running in this thread when the resolution starts (finders, path hooks:
   see _imp._run_import_hook()).  Their own code needs the module, which an
   eager import would have imported before they ran; asking them would
   re-enter them, and they would need the module again (pytest's assertion
   rewriter reading fnmatch while it is asked for fnmatch).  Returns what
   leave_resolution() restores. */
static Py_ssize_t
enter_resolution(PyThreadState *tstate)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
    Py_ssize_t saved = ts->lazy_imports.hooks_skipped;
    ts->lazy_imports.hooks_skipped = (ts->lazy_imports.hooks == NULL
                                ? 0 : PyList_GET_SIZE(ts->lazy_imports.hooks));
    return saved;
}

static void
leave_resolution(PyThreadState *tstate, Py_ssize_t saved)
{
    ((_PyThreadStateImpl *)tstate)->lazy_imports.hooks_skipped = saved;
}

/* Is this thread resolving 'lazy'? */
int
_PyLazyImport_IsResolvingIn(PyThreadState *tstate, PyObject *lazy)
{
    for (Py_ssize_t i = RESOLVING(tstate).resolving_len - 1; i >= 0; i--) {
        if (RESOLVING(tstate).resolving[i].lazy == lazy) {
            return 1;
        }
    }
    return 0;
}

/* Record that the current frame reached 'lazy', whose import runs now.
   Returns the depth to give pop_resolving(), or -1 with an exception
   set. */
static Py_ssize_t
push_resolving(PyThreadState *tstate, PyObject *lazy)
{
    Py_ssize_t depth = RESOLVING(tstate).resolving_len;
    if (depth == RESOLVING(tstate).resolving_size) {
        Py_ssize_t size = depth ? depth * 2 : 8;
        struct _PyLazyImportResolving *items = PyMem_Realloc(
            RESOLVING(tstate).resolving,
            size * sizeof(struct _PyLazyImportResolving));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        RESOLVING(tstate).resolving = items;
        RESOLVING(tstate).resolving_size = size;
    }
    struct _PyLazyImportResolving *item = &RESOLVING(tstate).resolving[depth];
    item->lazy = Py_NewRef(lazy);
    item->frame = tstate->current_frame;
    item->tracing = tstate->tracing;
    item->key = NULL;
    RESOLVING(tstate).resolving_len = depth + 1;
    return depth;
}

/* Forget the records from 'depth' on (normally the last one). */
static void
pop_resolving(PyThreadState *tstate, Py_ssize_t depth)
{
    while (RESOLVING(tstate).resolving_len > depth) {
        /* Shrink first: the reference may be the last one, and a
           destructor may resolve lazy imports of its own. */
        Py_ssize_t i = --RESOLVING(tstate).resolving_len;
        Py_XDECREF(RESOLVING(tstate).resolving[i].key);
        Py_DECREF(RESOLVING(tstate).resolving[i].lazy);
    }
}

/* 'lazy', which this thread is resolving, is read again.  Is the reader an
   observer: a trace or profile function, a sys.monitoring callback or a
   debugger (they run with tstate->tracing raised) called while the
   resolution runs?  Then the name is not bound yet, as during an eager
   import, rather than an import cycle of the program. */
static int
is_observed(PyThreadState *tstate, PyObject *lazy)
{
    if (tstate->tracing == 0) {
        return 0;
    }
    for (Py_ssize_t i = RESOLVING(tstate).resolving_len - 1; i >= 0; i--) {
        struct _PyLazyImportResolving *item = &RESOLVING(tstate).resolving[i];
        if (item->lazy == lazy) {
            return tstate->tracing > item->tracing;
        }
    }
    return 0;
}

/* Eager order (contract rules 50 and 51).

   A deferred statement has the place in eager execution where it ran:
   inside the import that the innermost resolution in progress in its
   thread was running (eagerly that import ran the statement's module
   body), or at the top of the program.  Its eager key is that path: the
   key of that resolution's statement (lz_origin; NULL at the top) followed
   by its own serial number.  Statements compare as their keys do
   lexicographically, and a statement whose key extends another's ran
   inside that one's import.  The submodule references that a statement
   binds have its key: eagerly the statement imports the submodule. */
PyObject *
_PyLazyImport_EagerKey(PyLazyImportObject *lz)
{
    if (_PyLazyImport_IsReference((PyObject *)lz) && lz->lz_origin != NULL) {
        return Py_NewRef(lz->lz_origin);
    }
    lz = _PyLazyImport_StatementOf(lz);
    PyObject *origin = lz->lz_origin;
    Py_ssize_t n = origin ? PyTuple_GET_SIZE(origin) : 0;
    PyObject *key = PyTuple_New(n + 1);
    if (key == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(key, i, Py_NewRef(PyTuple_GET_ITEM(origin, i)));
    }
    PyObject *serial = PyLong_FromSsize_t(lz->lz_serial);
    if (serial == NULL) {
        Py_DECREF(key);
        return NULL;
    }
    PyTuple_SET_ITEM(key, n, serial);
    return key;
}

/* The eager key of the resolution recorded as 'item' (borrowed), or NULL
   with an exception set. */
static PyObject *
record_key(struct _PyLazyImportResolving *item)
{
    if (item->key == NULL) {
        item->key = _PyLazyImport_EagerKey(LAZY(item->lazy));
    }
    return item->key;
}

/* Compare the eager keys 'a' and 'b' up to the length of the shorter:
   -1, 0 or 1. */
static int
compare_keys(PyObject *a, PyObject *b)
{
    Py_ssize_t n = Py_MIN(PyTuple_GET_SIZE(a), PyTuple_GET_SIZE(b));
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t x = PyLong_AsSsize_t(PyTuple_GET_ITEM(a, i));
        Py_ssize_t y = PyLong_AsSsize_t(PyTuple_GET_ITEM(b, i));
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return 0;
}

/* Is 'key' before 'other' in eager order: earlier, or run inside it? */
int
_PyLazyImport_KeyPrecedes(PyObject *key, PyObject *other)
{
    int c = compare_keys(key, other);
    return c < 0
           || (c == 0 && PyTuple_GET_SIZE(key) < PyTuple_GET_SIZE(other));
}

/* Had eager execution completed the statement of eager key 'key' by the
   time this thread reached its present point?  It runs inside every
   resolution in progress: the statement must come before each of them in
   eager order and not be one they run within (those are still running),
   or be one that the resolution ran already (its key extends theirs).
   Returns 1, 0, or -1 with an exception set. */
int
_PyLazyImport_CompletedByNow(PyThreadState *tstate, PyObject *key)
{
    for (Py_ssize_t i = 0; i < RESOLVING(tstate).resolving_len; i++) {
        PyObject *at = record_key(&RESOLVING(tstate).resolving[i]);
        if (at == NULL) {
            return -1;
        }
        int c = compare_keys(key, at);
        if (c > 0
            || (c == 0 && PyTuple_GET_SIZE(key) <= PyTuple_GET_SIZE(at)))
        {
            return 0;
        }
    }
    return 1;
}

/* Where a statement that the module body of 'globals' defers now has its
   place: set *origin to a new reference to the key of the innermost
   resolution in progress, or NULL when there is none.  A module body runs
   eagerly inside the first statement that imports it: when a deferred
   statement that comes before in eager order names the module (one still
   pending, see add_pending()), the body has its place there.  Returns 0,
   or -1 with an exception set. */
static int
current_origin(PyThreadState *tstate, PyObject *globals, PyObject **origin)
{
    Py_ssize_t depth = RESOLVING(tstate).resolving_len;
    PyObject *best = NULL;
    *origin = NULL;
    if (depth > 0) {
        best = record_key(&RESOLVING(tstate).resolving[depth - 1]);
        if (best == NULL) {
            return -1;
        }
        Py_INCREF(best);
    }
    PyObject *pending = tstate->interp->imports.lazy.pending;
    PyObject *name = NULL, *entries = NULL;
    int r = 0;
    if (best != NULL && pending != NULL && PyDict_GET_SIZE(pending) > 0) {
        r = _PyDict_GetItemRefNoResolve(globals, &_Py_ID(__name__), &name);
        if (r > 0 && PyUnicode_Check(name)) {
            r = PyDict_GetItemRef(pending, name, &entries);
        }
    }
    Py_ssize_t n = entries == NULL ? 0
                   : PyList_CheckExact(entries) ? PyList_GET_SIZE(entries) : 1;
    for (Py_ssize_t i = 0; r >= 0 && i < n; i++) {
        PyObject *entry = PyList_CheckExact(entries)
                          ? PyList_GET_ITEM(entries, i) : entries;
        PyObject *key = _PyLazyImport_EagerKey(LAZY(entry));
        if (key == NULL) {
            r = -1;
        }
        else if (_PyLazyImport_KeyPrecedes(key, best)) {
            Py_SETREF(best, key);
        }
        else {
            Py_DECREF(key);
        }
    }
    Py_XDECREF(entries);
    Py_XDECREF(name);
    if (r < 0) {
        Py_XDECREF(best);
        return -1;
    }
    *origin = best;
    return 0;
}

int
_PyLazyImport_WarningContext(PyThreadState *tstate,
                             struct _PyInterpreterFrame *frame,
                             PyObject **globals, PyObject **filename,
                             int *lineno)
{
    if (frame == NULL) {
        return 0;
    }
    for (Py_ssize_t i = RESOLVING(tstate).resolving_len - 1; i >= 0; i--) {
        struct _PyLazyImportResolving *item = &RESOLVING(tstate).resolving[i];
        if (item->frame != frame) {
            continue;
        }
        PyLazyImportObject *lz = LAZY(item->lazy);
        if (lz->lz_code == NULL || lz->lz_globals == NULL
            || !PyDict_Check(lz->lz_globals))
        {
            return 0;
        }
        PyCodeObject *code = (PyCodeObject *)lz->lz_code;
        *globals = lz->lz_globals;
        *filename = Py_NewRef(code->co_filename);
        *lineno = PyCode_Addr2Line(code, lz->lz_addr);
        return 1;
    }
    return 0;
}

/* ----- Resolution: running the deferred import --------------------------- */

/* Is the exception being raised "No module named <fullname>"? */
static int
is_missing_module(PyThreadState *tstate, PyObject *fullname)
{
    if (!_PyErr_ExceptionMatches(tstate, PyExc_ModuleNotFoundError)) {
        return 0;
    }
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    PyObject *missing = PyObject_GetAttr(exc, &_Py_ID(name));
    int r = (missing != NULL && PyUnicode_Check(missing)
             && PyUnicode_Compare(missing, fullname) == 0);
    Py_XDECREF(missing);
    PyErr_Clear();
    _PyErr_SetRaisedException(tstate, exc);
    return r;
}

PyObject *
_PyLazyImport_ImportModule(PyLazyImportObject *lz, PyObject *name,
                           PyObject *fromlist)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *builtins = lz->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    return _PyEval_ImportName(tstate, builtins, lz->lz_globals,
                              lz->lz_locals ? lz->lz_locals : Py_None,
                              name, fromlist, lz->lz_level);
}

/* Do the builtins of the statement replace __import__? */
static int
has_import_hook(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    PyObject *builtins = lz->lz_builtins;
    if (builtins == NULL) {
        builtins = tstate->interp->builtins;
    }
    PyObject *func;
    if (PyMapping_GetOptionalItem(builtins, &_Py_ID(__import__), &func) < 0) {
        return -1;
    }
    if (func == NULL) {
        return 1;  /* let _PyEval_ImportName() report it */
    }
    int r = !_PyImport_IsDefaultImportFunc(tstate->interp, func);
    Py_DECREF(func);
    return r;
}

/* Import the submodule lz_fullname as the import system does for a
   fromlist (not through __import__).  Returns a new reference, NULL with
   an exception set, or NULL without one if there is no such module. */
static PyObject *
import_submodule(PyLazyImportObject *lz)
{
    PyObject *fullname = _PyLazyImport_FullName((PyObject *)lz);
    if (fullname == NULL) {
        return NULL;
    }
    PyObject *mod = PyImport_GetModule(fullname);
    /* None in sys.modules blocks the import: it raises, as the import
       statement run now does. */
    int blocked = (mod == Py_None);
    if (blocked) {
        Py_CLEAR(mod);
    }
    else if (mod != NULL || PyErr_Occurred()) {
        return mod;
    }
    mod = PyImport_ImportModuleLevelObject(fullname, lz->lz_globals,
                                           NULL, NULL, 0);
    if (mod == NULL) {
        if (!blocked && is_missing_module(_PyThreadState_GET(), fullname)) {
            PyErr_Clear();
        }
        return NULL;
    }
    Py_DECREF(mod);
    mod = PyImport_GetModule(fullname);
    if (mod == Py_None) {
        Py_CLEAR(mod);
        PyErr_Format(PyExc_ImportError,
                     "import of %R left no module in sys.modules", fullname);
    }
    return mod;
}

/* A reference to the submodule lz_fullname (see bind_child()): import it
   as "import a.b" would and give the module.  A tentative one that finds
   no such module gives NULL without an exception, now and on every later
   read: the name is unbound. */
static PyObject *
resolve_reference(PyThreadState *tstate, PyLazyImportObject *lz)
{
    if (lz->lz_submodule == SUBMODULE_NONE) {
        return NULL;
    }
    if (lz->lz_shadowed != NULL) {
        /* Read while the submodule is being imported: the package's
           attribute is still what it was (see bind_child()); the import
           system binds the submodule once it is loaded. */
        PyObject *mod;
        int r = _PyLazyImport_GetImported(lz->lz_fullname, &mod);
        if (r > 0) {
            r = _PyLazyImport_IsInitializing(mod);
            Py_DECREF(mod);
        }
        if (r < 0) {
            return NULL;
        }
        if (r > 0) {
            PyObject *shadowed = lz->lz_shadowed;
            return PyLazyImport_CheckExact(shadowed)
                   ? _PyLazyImport_Resolve(shadowed) : Py_NewRef(shadowed);
        }
    }
    /* A dotted import makes its own __import__() call; the submodule of a
       from-import is imported by the import system (as _handle_fromlist()
       does), which a replaced __import__ does not see.  Another attempt if
       the module is not in sys.modules after the import: the import waited
       for another thread's, which failed meanwhile. */
    PyObject *mod = NULL;
    for (int attempt = 0; attempt < 3 && mod == NULL; attempt++) {
        PyObject *top = lz->lz_submodule == SUBMODULE_DEFINITE
            ? _PyLazyImport_ImportModule(lz, lz->lz_fullname, Py_None)
            : PyImport_ImportModuleLevelObject(lz->lz_fullname,
                                               lz->lz_globals, NULL, NULL,
                                               0);
        if (top == NULL) {
            if (lz->lz_submodule == SUBMODULE_TENTATIVE
                && is_missing_module(tstate, lz->lz_fullname))
            {
                _PyErr_Clear(tstate);
                lz->lz_submodule = SUBMODULE_NONE;
                unbind(lz);
            }
            return NULL;
        }
        Py_DECREF(top);
        /* The import ran it, or waited for another thread's import of it
           to finish.  Initialized and in sys.modules, that is the module;
           else another thread's import failed meanwhile, or started again:
           wait for that one as an eager import would. */
        if (_PyLazyImport_GetImported(lz->lz_fullname, &mod) < 0) {
            return NULL;
        }
        if (mod != NULL && PyModule_Check(mod)) {
            int r = _PyLazyImport_IsInitializing(mod);
            if (r < 0) {
                Py_DECREF(mod);
                return NULL;
            }
            if (r == 0) {
                break;
            }
        }
        Py_XDECREF(mod);
        mod = PyImport_GetModule(lz->lz_fullname);
        PyObject *now = NULL;
        if (mod != NULL
            && _PyLazyImport_GetImported(lz->lz_fullname, &now) < 0)
        {
            Py_CLEAR(mod);
        }
        if (mod != NULL && now != mod) {
            Py_CLEAR(mod);  /* that import failed meanwhile */
        }
        Py_XDECREF(now);
        if (_PyErr_Occurred(tstate)) {
            return NULL;
        }
    }
    if (mod == NULL) {
        PyErr_Format(PyExc_ImportError,
                     "import of %R left no module in sys.modules",
                     lz->lz_fullname);
    }
    else {
        unbind(lz);     /* loaded by an import that did not bind it */
    }
    return mod;
}

/* Resolve the from-import statement 'lz' itself, as only an early
   completion does (_PyLazyImport_CompleteEarly()): import its module and, of
   its names, those the module lacks (submodules, imported as for any
   fromlist).  Its names stay lazy where it bound them and resolve where they
   are used: eager execution had run the module's body by now, and reading a
   name that the module itself still defers would run bodies that an early
   completion has no reason to run.  Returns the module. */
PyObject *
_PyLazyImport_ImportStatementModule(PyLazyImportObject *lz)
{
    PyObject *fromlist = lz->lz_fromlist, *module;
    PyObject *top = _PyLazyImport_ImportModule(lz, lz->lz_name, Py_None);
    if (top == NULL) {
        return NULL;
    }
    Py_DECREF(top);
    int r = _PyLazyImport_GetImported(lz->lz_fullname, &module);
    if (r <= 0 || !PyModule_Check(module) || !PyTuple_Check(fromlist)) {
        Py_XDECREF(module);
        return r < 0 ? NULL : _PyLazyImport_ImportModule(lz, lz->lz_name,
                                                         fromlist);
    }
    PyObject *dict = PyModule_GetDict(module), *lacking = NULL;
    for (Py_ssize_t i = 0; r >= 0 && i < PyTuple_GET_SIZE(fromlist); i++) {
        PyObject *name = PyTuple_GET_ITEM(fromlist, i), *value;
        r = _PyDict_GetItemRefNoResolve(dict, name, &value);
        if (r > 0 && PyLazyImport_CheckExact(value)
            && LAZY(value)->lz_parent == (PyObject *)lz)
        {
            r = 0;  /* bound by the statement itself: "from . import x" */
        }
        if (r == 0) {
            if (lacking == NULL && (lacking = PyList_New(0)) == NULL) {
                r = -1;
            }
            else {
                r = PyList_Append(lacking, name);
            }
        }
        Py_XDECREF(value);
    }
    if (r < 0 || lacking == NULL) {
        Py_XDECREF(lacking);
        if (r < 0) {
            Py_CLEAR(module);
        }
        return module;
    }
    Py_DECREF(module);
    PyObject *names = PyList_AsTuple(lacking);
    Py_DECREF(lacking);
    if (names == NULL) {
        return NULL;
    }
    module = _PyLazyImport_ImportModule(lz, lz->lz_name, names);
    Py_DECREF(names);
    return module;
}

PyObject *
_PyLazyImport_ResolveObject(PyLazyImportObject *lz)
{
    PyThreadState *tstate = _PyThreadState_GET();
    if (lz->lz_parent == NULL) {
        if (lz->lz_fromlist != Py_None) {
            return _PyLazyImport_ImportStatementModule(lz);
        }
        if (lz->lz_submodule) {
            return resolve_reference(tstate, lz);
        }
        /* "import a.b.c" binds "a": import just "a".  a.b and a.b.c are
           bound to lazy references in their packages (contract rule 49),
           imported when they are first reached.  A replaced __import__
           sees the statement's own call instead. */
        int hooked = has_import_hook(lz);
        _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
        if (hooked == 0
            && (ts->lazy_imports.guarded > 0
                || ts->lazy_imports.completing > 0))
        {
            hooked = 1;     /* all of it now, as the eager statement */
        }
        if (hooked != 0) {
            return hooked < 0 ? NULL
                   : _PyLazyImport_ImportModule(lz, lz->lz_name, Py_None);
        }
        PyObject *top = value_name(lz);
        if (top == NULL) {
            return NULL;
        }
        PyObject *res = _PyLazyImport_ImportModule(lz, top, Py_None);
        Py_DECREF(top);
        /* As an eager import run now: a submodule no longer in sys.modules
           (del sys.modules["a.b"] since the statement) is bound again, to a
           reference that imports it afresh, so that resolution never hands
           out a stale module. */
        if (res != NULL && bind_dotted(lz->lz_fullname, lz) < 0) {
            Py_CLEAR(res);
        }
        return res;
    }
    PyLazyImportObject *parent = LAZY(lz->lz_parent);
    PyObject *from;
    if (parent->lz_parent == NULL && parent->lz_fromlist != Py_None) {
        /* "from a import b, c": each name imports a with only its own
           name in the fromlist, so that using b does not import a.c. */
        PyObject *fromlist = parent->lz_fromlist;
        if (PyTuple_CheckExact(fromlist) && PyTuple_GET_SIZE(fromlist) == 1
            && PyTuple_GET_ITEM(fromlist, 0) == lz->lz_name)
        {
            Py_INCREF(fromlist);    /* the usual single name */
        }
        else if ((fromlist = PyTuple_Pack(1, lz->lz_name)) == NULL) {
            return NULL;
        }
        from = _PyLazyImport_ImportModule(parent, parent->lz_name, fromlist);
        Py_DECREF(fromlist);
    }
    else if (parent->lz_parent == NULL) {
        /* "import a.b.c as d" binds the module a.b.c: import all of it, as
           the eager statement does, even if a already has an attribute b
           (a stale one, say, after sys.modules lost a.b). */
        from = _PyLazyImport_ImportModule(parent, parent->lz_name, Py_None);
    }
    else {
        from = _PyLazyImport_Resolve((PyObject *)parent);
    }
    if (from == NULL) {
        return NULL;
    }
    PyObject *res = _PyEval_ImportFrom(tstate, from, lz->lz_name);
    Py_DECREF(from);
    if (res != NULL && lz->lz_submodule && !PyModule_Check(res)) {
        /* The module has set the name since the statement ran, where an
           eager import would have imported the submodule of that name
           first (a package's "from . import version" before its
           "version = ..."): take the submodule, if there is one. */
        PyObject *mod = import_submodule(lz);
        if (mod != NULL || PyErr_Occurred()) {
            Py_SETREF(res, mod);
        }
    }
    return res;
}

/* Does the exception have this note already?  A submodule reference and
   the from-import that reaches it name the same statement. */
static int
has_note(PyObject *exc, PyObject *note)
{
    PyObject *notes;
    if (PyObject_GetOptionalAttr(exc, &_Py_ID(__notes__), &notes) <= 0) {
        PyErr_Clear();
        return 0;
    }
    int r = PyList_Check(notes) ? PySequence_Contains(notes, note) : 0;
    Py_DECREF(notes);
    if (r < 0) {
        PyErr_Clear();
    }
    return r > 0;
}

/* Attach where the import was deferred to the exception being raised: a
   note, and a traceback entry showing the import statement. */
static void
add_deferred_context(PyThreadState *tstate, PyLazyImportObject *lz)
{
    /* Build the note with the exception fetched: formatting runs code. */
    PyObject *exc = _PyErr_GetRaisedException(tstate);
    if (exc == NULL) {
        return;
    }
    PyObject *fullname = _PyLazyImport_FullName((PyObject *)lz);
    if (fullname == NULL) {
        PyErr_Clear();
        _PyErr_SetRaisedException(tstate, exc);
        return;
    }
    PyObject *filename = NULL, *modname = NULL;
    int lineno = -1;
    if (lz->lz_code != NULL) {
        PyCodeObject *code = (PyCodeObject *)lz->lz_code;
        filename = code->co_filename;
        lineno = PyCode_Addr2Line(code, lz->lz_addr);
    }
    if (lz->lz_globals != NULL && PyDict_Check(lz->lz_globals)
        && PyDict_GetItemRef(lz->lz_globals, &_Py_ID(__name__),
                             &modname) < 0)
    {
        PyErr_Clear();
    }
    PyObject *note;
    if (filename != NULL) {
        note = PyUnicode_FromFormat(
            "lazy import of '%U' was deferred at %U:%d in module %R",
            fullname, filename, lineno,
            modname ? modname : Py_None);
    }
    else {
        note = PyUnicode_FromFormat(
            "lazy import of '%U' was deferred in module %R",
            fullname, modname ? modname : Py_None);
    }
    Py_XDECREF(modname);
    if (note != NULL && PyExceptionInstance_Check(exc)
        && has_note(exc, note))
    {
        /* Reported already, by the statement's other lazy import. */
        Py_DECREF(note);
        _PyErr_SetRaisedException(tstate, exc);
        return;
    }
    if (note != NULL && PyExceptionInstance_Check(exc)
        && _PyException_AddNote(exc, note) < 0)
    {
        PyErr_Clear();
    }
    Py_XDECREF(note);
    PyErr_Clear();
    const char *cfile = NULL, *cfunc = NULL;
    if (filename != NULL && lineno > 0) {
        cfile = PyUnicode_AsUTF8(filename);
        cfunc = PyUnicode_AsUTF8(((PyCodeObject *)lz->lz_code)->co_name);
        PyErr_Clear();
    }
    _PyErr_SetRaisedException(tstate, exc);
    if (cfile != NULL && cfunc != NULL) {
        /* A traceback entry showing the import statement. */
        _PyTraceback_Add(cfunc, cfile, lineno);
    }
}

/* Append to 'names' the module whose namespace holds the lazy import 'lz'
   (the module whose code reads it), unless it is the last name. */
static int
append_reader(PyObject *names, PyLazyImportObject *lz)
{
    PyObject *modname = NULL;
    if (lz->lz_globals == NULL || !PyDict_Check(lz->lz_globals)
        || PyDict_GetItemRef(lz->lz_globals, &_Py_ID(__name__),
                             &modname) <= 0)
    {
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_ssize_t n = PyList_GET_SIZE(names);
    int r = 0;
    if (PyUnicode_Check(modname)
        && (n == 0 || PyUnicode_Compare(PyList_GET_ITEM(names, n - 1),
                                        modname) != 0))
    {
        r = PyList_Append(names, modname);
    }
    Py_DECREF(modname);
    return r;
}

/* Raise ImportError for the re-entry of 'lz', which this thread is
   resolving (a cycle): the message shows the cycle, each lazy import with
   the module reading it. */
static PyObject *
cycle_error(PyThreadState *tstate, PyLazyImportObject *lz)
{
    PyObject *names = PyList_New(0);
    if (names == NULL) {
        return NULL;
    }
    int found = 0;
    for (Py_ssize_t i = 0; i < RESOLVING(tstate).resolving_len; i++) {
        PyLazyImportObject *item = LAZY(RESOLVING(tstate).resolving[i].lazy);
        found |= (item == lz);
        if (!found) {
            continue;
        }
        PyObject *itemname = _PyLazyImport_FullName((PyObject *)item);
        if (itemname == NULL
            || (item != lz && append_reader(names, item) < 0)
            || PyList_Append(names, itemname) < 0)
        {
            goto done;
        }
    }
    PyObject *fullname = _PyLazyImport_FullName((PyObject *)lz);
    if (fullname == NULL || append_reader(names, lz) < 0
        || PyList_Append(names, fullname) < 0)
    {
        goto done;
    }
    PyObject *sep = PyUnicode_FromString(" -> ");
    if (sep == NULL) {
        goto done;
    }
    PyObject *chain = PyUnicode_Join(sep, names);
    Py_DECREF(sep);
    if (chain != NULL) {
        PyObject *msg = PyUnicode_FromFormat(
            "cannot resolve lazy import '%U' while it is being resolved "
            "(most likely due to a circular import: %U)",
            fullname, chain);
        if (msg != NULL) {
            PyObject *exc = PyObject_CallOneArg(PyExc_ImportError, msg);
            if (exc != NULL) {
                PyObject_SetAttr(exc, &_Py_ID(name), fullname);
                PyErr_SetObject(PyExc_ImportError, exc);
                Py_DECREF(exc);
            }
            Py_DECREF(msg);
        }
        Py_DECREF(chain);
    }
done:
    Py_DECREF(names);
    return NULL;
}

PyObject *
_PyLazyImport_Resolve(PyObject *lazy)
{
    assert(PyLazyImport_CheckExact(lazy));
    PyLazyImportObject *lz = LAZY(lazy);
    if (lz->lz_value != NULL) {
        return Py_NewRef(lz->lz_value);
    }
    PyThreadState *tstate = _PyThreadState_GET();
    if (_PyLazyImport_IsResolvingIn(tstate, lazy)) {
        /* Unbound (no exception set) for an observer, and for the lazy
           binding of a submodule in its package, which the eager import
           makes only once the submodule is loaded: code that the import
           runs sees the attribute missing, as eagerly ("from . import x"
           falls back to sys.modules). */
        if (_PyLazyImport_IsReference(lazy) || is_observed(tstate, lazy)) {
            return NULL;
        }
        return cycle_error(tstate, lz);
    }
    Py_INCREF(lazy);
    Py_ssize_t skipped = enter_resolution(tstate);
    Py_ssize_t depth = push_resolving(tstate, lazy);
    int observed = (tstate->interp->imports.lazy.observer != NULL);
    if (observed && depth >= 0) {
        _PyLazyImport_NotifyStatement("resolving", lz,
                                      lz->lz_parent ? lz->lz_name : NULL);
    }
    PyObject *res = depth < 0 ? NULL : _PyLazyImport_ResolveObject(lz);
    if (observed && depth >= 0) {
        _PyLazyImport_NotifyStatement("resolved", lz,
                                      res ? Py_True : Py_False);
    }
    if (depth >= 0) {
        pop_resolving(tstate, depth);
    }
    leave_resolution(tstate, skipped);
    if (res == NULL) {
        add_deferred_context(tstate, lz);
    }
    else if (lz->lz_value == NULL) {
        /* Another thread may have resolved it meanwhile: keep the first
           result so that every reader gets the same object. */
        lz->lz_value = Py_NewRef(res);
        PyLazyImportObject *st = _PyLazyImport_StatementOf(lz);
        if (lz->lz_parent != NULL && st->lz_fromlist != Py_None
            && _PyLazyImport_CompleteForSharedObject(
                   tstate, st->lz_globals, st->lz_fullname, lz->lz_name,
                   res) < 0)
        {
            Py_CLEAR(res);
        }
    }
    else {
        Py_SETREF(res, Py_NewRef(lz->lz_value));
    }
    Py_DECREF(lazy);
    return res;
}

int
_PyLazyImport_IsResolving(PyObject *lazy)
{
    return _PyLazyImport_IsResolvingIn(_PyThreadState_GET(), lazy);
}

PyObject *
_PyLazyImport_ResolveInWalk(PyObject *lazy)
{
    if (_PyLazyImport_IsResolvingIn(_PyThreadState_GET(), lazy)) {
        return NULL;
    }
    return _PyLazyImport_Resolve(lazy);
}

/* ----- Module attribute lookups ------------------------------------------ */

int
_PyLazyImport_KeepsAttribute(PyObject *module, PyObject *name,
                             PyObject *fullname)
{
    struct _lazy_import_state *state =
        &_PyInterpreterState_GET()->imports.lazy;
    if (!PyModule_Check(module)) {
        return 0;
    }
    /* Most often the import binds the submodule of the reference that
       this thread is resolving, read from the package: what the package
       did with the name during the import is overridden, as eagerly. */
    PyThreadState *tstate = _PyThreadState_GET();
    Py_ssize_t depth = RESOLVING(tstate).resolving_len;
    if (state->nbound > 0 && depth > 0) {
        PyObject *lazy = RESOLVING(tstate).resolving[depth - 1].lazy;
        if (is_bound_reference(lazy, module, fullname)) {
            unbind(LAZY(lazy));
            return 0;
        }
    }
    if (state->escaped == NULL || PyDict_GET_SIZE(state->escaped) == 0) {
        /* No binding escaped its package: the name is the lazy binding, to
           replace (its deallocation then finds the submodule loaded), or
           one that no lazy import bound. */
        return 0;
    }
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(PyModule_GetDict(module), name,
                                        &value);
    if (r < 0) {
        return -1;
    }
    if (is_bound_reference(value, module, fullname)) {
        /* The lazy binding itself: replaced by the module. */
        unbind(LAZY(value));
        Py_DECREF(value);
        return 0;
    }
    /* A lazy import bound the name and the package dropped the binding
       since: keep what the package did with the name (a value of its own,
       a lazy import of its own, or no value), but replace a lazy reference
       to the submodule. */
    PyObject *package = forget_escaped(fullname);
    Py_XDECREF(package);
    r = (package == module
         && (value == NULL || !_PyLazyImport_IsReference(value)));
    Py_XDECREF(value);
    return r;
}

/* Does the lazy import 'parent' import the module whose namespace is
   'dict' ("from P import x" in P), or a submodule of it that the name
   import reads from it ("import P.x as x" in P, pyarrow's "import
   pyarrow.ipc as ipc")? */
static int
is_own_module(PyLazyImportObject *parent, PyObject *dict)
{
    PyObject *modname;
    if (PyDict_GetItemRef(dict, &_Py_ID(__name__), &modname) <= 0) {
        return 0;
    }
    PyObject *fullname = _PyLazyImport_FullName((PyObject *)parent);
    int r = (fullname != NULL && PyUnicode_Check(modname)
             && (PyUnicode_Compare(modname, fullname) == 0
                 || (parent->lz_fromlist == Py_None
                     && _PyLazyImport_IsInside(fullname, modname))));
    Py_DECREF(modname);
    return r;
}

/* Is 'value', found in 'dict', a lazy import that the current thread is
   resolving?  Only "from P import name" run by P itself, while the import
   system checks whether P already has the attribute: any other re-entry
   is a cycle to report. */
int
_PyLazyImport_IsBeingResolved(PyObject *dict, PyObject *value)
{
    PyLazyImportObject *lz = LAZY(value);
    if (lz->lz_parent == NULL || lz->lz_globals != dict
        || !_PyLazyImport_IsResolvingIn(_PyThreadState_GET(), value))
    {
        return 0;
    }
    PyObject *exc = PyErr_GetRaisedException();
    int found = is_own_module(LAZY(lz->lz_parent), dict);
    PyErr_Clear();
    PyErr_SetRaisedException(exc);
    return found;
}

int
_PyLazyImport_GetModuleAttr(PyObject *module, PyObject *name,
                            PyObject **result)
{
    *result = NULL;
    PyObject *dict = ((PyModuleObject *)module)->md_dict;
    PyObject *value;
    int r = _PyDict_GetItemRefNoResolve(dict, name, &value);
    if (r <= 0) {
        return r;
    }
    PyObject *descr = _PyType_Lookup(Py_TYPE(module), name);
    if (descr != NULL && Py_TYPE(descr)->tp_descr_set != NULL) {
        Py_DECREF(value);
        return 0;  /* a data descriptor wins, as in a generic lookup */
    }
    if (!PyLazyImport_CheckExact(value)) {
        /* What the generic lookup would find, without a second look. */
        *result = value;
        return 1;
    }
    if (_PyLazyImport_IsBeingResolved(dict, value)) {
        Py_DECREF(value);
        return _PyLazyImport_ATTR_UNBOUND;
    }
    r = PyDict_GetItemRef(dict, name, result);
    if (r == 0 && _PyLazyImport_IsReference(value)
        && LAZY(value)->lz_submodule == SUBMODULE_NONE)
    {
        /* A tentative reference found no such submodule: the name was
           never bound.  (One that failed to import stays, so that the next
           use retries, as any lazy import that failed.) */
        PyObject *current;
        r = _PyDict_GetItemRefNoResolve(dict, name, &current);
        if (r > 0) {
            r = (current == value) ? PyDict_Pop(dict, name, NULL) : 0;
            Py_DECREF(current);
        }
        r = r < 0 ? -1 : 0;
    }
    Py_DECREF(value);
    return r < 0 ? -1 : r;
}


/* ----- Import hooks ----------------------------------------------------- */

PyObject *
_PyLazyImport_RunImportHook(PyObject *hook, PyObject *func, PyObject *args)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)_PyThreadState_GET();
    if (ts->lazy_imports.hooks == NULL) {
        ts->lazy_imports.hooks = PyList_New(0);
        if (ts->lazy_imports.hooks == NULL) {
            return NULL;
        }
    }
    PyObject *hooks = Py_NewRef(ts->lazy_imports.hooks);
    Py_ssize_t depth = PyList_GET_SIZE(hooks);
    if (PyList_Append(hooks, hook) < 0) {
        Py_DECREF(hooks);
        return NULL;
    }
    PyObject *res = PyObject_Call(func, args, NULL);
    /* Drop our entry, and whatever a call that did not return normally
       (a greenlet switch, say) left above it. */
    PyObject *exc = PyErr_GetRaisedException();
    if (PyList_SetSlice(hooks, depth, PyList_GET_SIZE(hooks), NULL) < 0) {
        Py_CLEAR(res);
        Py_CLEAR(exc);
        exc = PyErr_GetRaisedException();
    }
    PyErr_SetRaisedException(exc);
    Py_DECREF(hooks);
    return res;
}

PyObject *
_PyLazyImport_SkippedImportHooks(void)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)_PyThreadState_GET();
    Py_ssize_t n = ts->lazy_imports.hooks_skipped;
    if (n == 0 || ts->lazy_imports.hooks == NULL) {
        Py_RETURN_NONE;
    }
    return PyList_GetSlice(ts->lazy_imports.hooks, 0, n);
}


/* ----- Finalization ----------------------------------------------------- */

void
_PyLazyImport_Fini(PyInterpreterState *interp)
{
    /* No more lazy imports.  The pending submodule bindings and an
       "excluding" callable hold namespaces of modules: finalize_modules()
       drops them before the modules, so that those namespaces and their
       objects are destroyed with the modules. */
    struct _lazy_import_state *state = &interp->imports.lazy;
    state->mode = 0;
    Py_CLEAR(state->excluding);
    Py_CLEAR(state->filter);
    Py_CLEAR(state->observer);
    Py_CLEAR(state->lazy_modules);
    Py_CLEAR(state->pending);
    Py_CLEAR(state->last_parent);
    Py_CLEAR(state->escaped);
    Py_CLEAR(state->fromlist_code);
    Py_CLEAR(state->read_names_code);
    Py_CLEAR(state->read_names);
    Py_CLEAR(state->guard_scans);
    Py_CLEAR(state->guard_found);
    Py_CLEAR(state->guard_info);
}

void
_PyLazyImport_ClearThreadState(PyThreadState *tstate)
{
    _PyThreadStateImpl *ts = (_PyThreadStateImpl *)tstate;
    pop_resolving(tstate, 0);
    PyMem_Free(ts->lazy_imports.resolving);
    ts->lazy_imports.resolving = NULL;
    ts->lazy_imports.resolving_size = 0;
    Py_CLEAR(ts->lazy_imports.hooks);
    /* Borrowed, see _PyLazyImport_CompleteEarly(). */
    ts->lazy_imports.collect = NULL;
}
