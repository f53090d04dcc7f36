# Installed into the start-up benchmark venvs (build/bench/venv-*) by Tools/lazy/bench_startup.py.
# Does nothing unless BENCH_STARTUP_STATS names a file: then, at exit, it appends the peak RSS
# (VmHWM from /proc/self/status, the child's own figure) and len(sys.modules).
# With BENCH_STARTUP_TRACE as well, a meta-path finder records, for every module really
# imported, the first frame outside the import machinery (the line that forced it).
# Only `sys` and `os` (already imported at start-up) and the built-in `atexit` are used, so
# the hook defeats no laziness.
# With BENCH_STARTUP_MODULES naming a file (alone or with BENCH_STARTUP_STATS), it appends at
# exit one line "PID NAME ...": the process id and the sorted names of sys.modules
# (Tools/lazy/clicorpus.py, which puts this file first on PYTHONPATH; the pid tells the
# process measured from the Python processes it starts).
# BENCH_LAZY_EXCLUDING (comma-separated module names) is the setting a tool's maintainer
# adopting -L would make at the program's start: applied only when lazy imports are on (the
# fork's importlib.set_lazy_imports(excluding=...), or the peer's filter with the same names).
import os
import sys

_excluding = os.environ.get("BENCH_LAZY_EXCLUDING")
if _excluding:
    _excluded = frozenset(_excluding.split(","))
    if getattr(sys.flags, "lazy_imports", False):
        import importlib
        importlib.set_lazy_imports(excluding=_excluded)
    elif getattr(sys, "get_lazy_imports", lambda: None)() == "all":
        sys.set_lazy_imports_filter(lambda importer, name, fromlist: name not in _excluded)

_stats = os.environ.get("BENCH_STARTUP_STATS")
_modules = os.environ.get("BENCH_STARTUP_MODULES")
if _modules:
    import atexit

    # With BENCH_STARTUP_LAZY_EVENTS as well, the fork's import observer records the
    # statements that lazy mode runs at once ("eager", with the rule's reason) or completes
    # before their first use ("early", with the cause); one line each at exit,
    # "E PID EVENT IMPORTER NAME FROMLIST REASON" (tab-separated).
    _events = None
    if os.environ.get("BENCH_STARTUP_LAZY_EVENTS"):
        _imp = sys.modules["_imp"]
        if hasattr(_imp, "_set_lazy_observer"):
            _events = []

            def _observe(event, key, name, fromlist, importer, filename, lineno, extra):
                if event in ("eager", "early"):
                    _events.append((event, importer, name, ",".join(fromlist or ()), extra))

            _imp._set_lazy_observer(_observe)

    def _modules_report():
        names = " ".join(sorted(sys.modules))
        with open(_modules, "a") as f:
            f.write(f"{os.getpid()} {names}\n")
            for event in _events or ():
                f.write("E\t%d\t%s\t%s\t%s\t%s\t%s\n" % (os.getpid(), *event))

    atexit.register(_modules_report)

if _stats:
    import atexit

    _trace = [] if os.environ.get("BENCH_STARTUP_TRACE") else None

    def _bench_report():
        hwm = "?"
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = line.split()[1]
        with open(_stats, "a") as f:
            f.write(f"{hwm} {len(sys.modules)}\n")
            if _trace is not None:
                for name, where in _trace:
                    f.write(f"T {name} {where}\n")

    atexit.register(_bench_report)

    if _trace is not None:
        class _TraceFinder:
            @staticmethod
            def find_spec(name, path=None, target=None):
                if name in sys.modules:
                    return None
                f = sys._getframe(1)
                while f is not None and (f.f_code.co_filename.startswith("<frozen")
                                         or "importlib" in f.f_code.co_filename):
                    f = f.f_back
                where = f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else "?"
                _trace.append((name, where))
                return None

        sys.meta_path.insert(0, _TraceFinder)
