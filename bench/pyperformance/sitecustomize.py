# Put into the fork-L pyperformance venv by Tools/lazy/bench-pyperformance.sh: turns lazy
# imports on at entry of every process of that venv (pyperformance starts its own workers, so
# -L cannot be passed).  pyperf worker processes (argv has --worker) append one line to
# <venv>/lazy-workers.log so that the run can check that laziness was really on in them.
import importlib
import sys

# pip runs in this venv too (pyperformance installs the requirements of each benchmark
# through it), and pip's vendored truststore breaks under lazy imports
# (`from ._api import ...; del _api`), so pip stays eager.
if "pip" not in sys.orig_argv[1:3]:
    importlib.set_lazy_imports()

if "--worker" in sys.argv:
    try:
        with open(sys.prefix + "/lazy-workers.log", "a") as f:
            f.write(f"{importlib.is_lazy_imports_enabled()} {sys.argv[0]}\n")
    except OSError:
        pass
