# Runs inside the interpreter under test, under valgrind --tool=callgrind, for
# Tools/lazy/bench_micro.py:  driver.py CGCTL.so spec.json
# For each entry of spec.json (the list bench_micro.py writes): set up in a
# fresh module namespace (exec of module code, so that -L makes its imports
# lazy), warm up (specialization, first resolution of lazy names), then zero
# the counters, run the measured part and dump the counters under the
# entry's name.
import ctypes
import gc
import importlib
import json
import sys
import textwrap

lib = ctypes.CDLL(sys.argv[1])
with open(sys.argv[2]) as f:
    spec = json.load(f)
zero, dump = lib.cg_zero, lib.cg_dump

# Start each configuration from the same interpreter state: under -L the
# imports of this driver and of the modules it uses are deferred, so the
# process would otherwise reach a measured region with fewer modules and
# interned strings than the eager one, and a one-time resize of those
# process-wide tables (some 400,000 instructions for the interned strings)
# would fall inside the region in one configuration and outside it in the
# other.  Resolved, only the region's own imports differ.  Only then: the
# call would change the eager fork's state, which is compared with vanilla.
if getattr(sys.flags, "lazy_imports", False):
    importlib.resolve_lazy_imports()


def measured(name, fn):
    gc.collect()
    gc.disable()
    zero()
    fn()
    dump(name.encode())
    gc.enable()


measured("_empty", lambda: None)
for e in spec:
    name, level = e["name"], e["level"]
    body = "\n".join([e["body"]] * e["unroll"]) if "body" in e else ""
    ns = {"__name__": "__bench__"}
    if level == "func":
        src = (f"{e['setup']}\n"
               f"def run(n):\n"
               f"    for i in range(n):\n"
               f"{textwrap.indent(body, ' ' * 8)}\n")
        exec(compile(src, name, "exec"), ns)
        run = ns["run"]
        run(max(e["n"] // 10, 100))
        measured(name, lambda: run(e["n"]))
    elif level == "module":
        exec(compile(e["setup"], name, "exec"), ns)
        loop = "for i in range({}):\n" + textwrap.indent(body, " " * 4) + "\n"
        exec(compile(loop.format(max(e["n"] // 10, 100)), name, "exec"), ns)
        code = compile(loop.format(e["n"]), name, "exec")
        measured(name, lambda: exec(code, ns))
    elif level == "once":
        # module code run once and measured whole (first imports)
        sys.path.insert(0, e["path"])
        code = compile(e["code"], name, "exec")
        measured(name, lambda: exec(code, ns))
