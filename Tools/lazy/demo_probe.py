"""Run a module like ``python -m`` does, and report on the process at exit.

Usage: python [OPTION ...] demo_probe.py REPORT -m MODULE [ARG ...]

MODULE runs as __main__ with ARG ... as its arguments and the current
directory at the front of sys.path, as with ``python -m MODULE ARG ...``;
its output and exit status are those of the process.  When the process
exits, however the module ends, a JSON object is written to the file
REPORT:

    vmhwm_kb  peak resident set size of the process (VmHWM), in KiB
    modules   sorted names of the modules in sys.modules

Tools/lazy/demo.py runs the demo application through this probe, so the
process measures itself: the numbers are not those of a wrapper.  The
probe writes nothing to stdout or stderr, and of the modules that
running a module with ``-m`` does not need, it imports only atexit, which
is built in, and json once the module list has been taken.
"""

import atexit
import os
import runpy
import sys

USAGE = "usage: python [OPTION ...] demo_probe.py REPORT -m MODULE [ARG ...]"


def _peak_rss_kb():
    """Return VmHWM, the peak resident set size of this process, in KiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("/proc/self/status has no VmHWM line")


def _write_report(path):
    """Write the report of this process to *path*."""
    report = {"vmhwm_kb": _peak_rss_kb(), "modules": sorted(sys.modules)}
    # Imported after sys.modules was read, so that it is not counted.
    import json
    with open(path, "w", encoding="utf-8") as stream:
        json.dump(report, stream)


def main():
    """Run the module named on the command line, as __main__."""
    if len(sys.argv) < 4 or sys.argv[2] != "-m":
        sys.exit(USAGE)
    report, module = sys.argv[1], sys.argv[3]
    # atexit calls the handlers in reverse order of registration: this
    # one, registered first, runs after those of the module.
    atexit.register(_write_report, report)
    del sys.argv[1:4]  # run_module() replaces argv[0], the probe's name.
    sys.path[0] = os.getcwd()
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
