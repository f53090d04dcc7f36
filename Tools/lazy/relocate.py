"""Make an installed tree of the fork work from any directory (make dist).

CPython finds its standard library relative to the executable, so an
installation mostly works wherever it is unpacked.  Three things keep the
prefix it was configured with:

* the "#!<prefix>/bin/python3.13" line of the scripts that make install and
  ensurepip write (pip3, idle3.13, pydoc3.13, the config directory's
  python-config.py): it becomes a two-line /bin/sh trampoline that runs the
  interpreter found next to the script (by a path relative to it, symbolic
  links resolved), which Python reads as a plain string statement;
* the build-time variables of sysconfig (_sysconfigdata_*.py: LIBDIR,
  INCLUDEPY, BINDIR, ...): the module gets a few lines that rewrite the
  configured prefix to sys.base_prefix when it is loaded (sysconfig itself
  already takes 'prefix' and the installation paths from sys.prefix);
* the pkg-config files: their prefix becomes ${pcfiledir}/../.. .

python3.13-config, a shell script, already finds its prefix by itself.

Usage: relocate.py [--compilers-only] ROOT PREFIX
where ROOT is the installed tree (DESTDIR + PREFIX) and PREFIX the prefix it
was configured with.  Prints what it changed and the text files that still
name PREFIX (informational: the config directory's Makefile, for instance).

Every installation (make install, make dist; --compilers-only does only
this) also loses the "ccache " that Tools/lazy/build.sh puts before the
compiler: sysconfig's CC, LDSHARED, ... are what pip and setuptools build C
extensions with, on machines that may have no ccache.  CONFIG_ARGS keeps
the configure command line as it was.
"""

import argparse
import ast
import glob
import importlib.util
import os
import py_compile
import re
import sys

CCACHE = "ccache "

TRAMPOLINE = """\
#!/bin/sh
'''exec' "$(dirname -- "$(readlink -f -- "$0")")/{interpreter}" "$0" "$@"
' '''
"""

SYSCONFIG_HOOK = """

# Added by lazy-cpython's Tools/lazy/relocate.py (make dist): this tree was
# configured for the prefix below but may be unpacked anywhere; the build-time
# paths under that prefix name the prefix the interpreter runs from instead
# (CONFIG_ARGS, the configure command line, stays as it was).
def _relocate(configured={prefix!r}):
    import sys
    actual = sys.base_prefix
    if actual != configured:
        for key, value in build_time_vars.items():
            if (key != 'CONFIG_ARGS' and isinstance(value, str)
                    and configured in value):
                build_time_vars[key] = value.replace(configured, actual)


_relocate()
del _relocate
"""


def rewrite_shebangs(root, prefix):
    """Replace '#!<prefix>/...' by a trampoline in the scripts of ROOT."""
    changed = []
    candidates = glob.glob(os.path.join(root, "bin", "*"))
    candidates += glob.glob(os.path.join(root, "lib", "python3*", "config-*",
                                         "*.py"))
    for path in sorted(candidates):
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            first = f.readline()
            rest = f.read()
        head = b"#!" + os.fsencode(prefix) + b"/"
        if not first.startswith(head):
            continue
        words = first[2:].split()
        if len(words) != 1:
            sys.exit(f"relocate: {path}: shebang with arguments: {first!r}")
        target = os.fsdecode(words[0])
        # The interpreter's place in ROOT, relative to the script.
        inside = os.path.join(root, os.path.relpath(target, prefix))
        rel = os.path.relpath(inside, os.path.dirname(path))
        text = TRAMPOLINE.format(interpreter=rel).encode()
        mode = os.stat(path).st_mode
        with open(path, "wb") as f:
            f.write(text + rest)
        os.chmod(path, mode)
        changed.append(os.path.relpath(path, root))
    return changed


def recompile(path, root, prefix):
    """Rewrite the .pyc files of PATH, as make install writes them: all three
    optimization levels, the configured path as the source name."""
    dfile = os.path.join(prefix, os.path.relpath(path, root))
    for level in (0, 1, 2):
        cfile = importlib.util.cache_from_source(path,
                                                 optimization=level or "")
        if level == 0 or os.path.exists(cfile):
            py_compile.compile(
                path, cfile=cfile, dfile=dfile, doraise=True, optimize=level,
                invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP)


def drop_ccache(root, prefix):
    """Remove the 'ccache ' launcher from the compiler commands recorded in
    sysconfig's data and in the config directory's Makefile."""
    changed = []
    pattern = os.path.join(root, "lib", "python3*", "_sysconfigdata_*.py")
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        new = []
        for line in lines:
            # sysconfig writes one "    'NAME': value," line per variable.
            m = re.fullmatch(r"    ('\w+'): (.*),\n", line)
            if m:
                name = ast.literal_eval(m.group(1))
                value = ast.literal_eval(m.group(2))
                if (name != "CONFIG_ARGS" and isinstance(value, str)
                        and value.startswith(CCACHE)):
                    line = f"    {name!r}: {value[len(CCACHE):]!r},\n"
            new.append(line)
        if new != lines:
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(new)
            recompile(path, root, prefix)
            changed.append(os.path.relpath(path, root))
    pattern = os.path.join(root, "lib", "python3*", "config-*", "Makefile")
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        new = [re.sub(r"^(\w+=\s*)" + re.escape(CCACHE), r"\1", line)
               for line in lines]
        if new != lines:
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(new)
            changed.append(os.path.relpath(path, root))
    return changed


def patch_sysconfigdata(root, prefix):
    """Make sysconfig's build-time paths follow the running prefix."""
    changed = []
    pattern = os.path.join(root, "lib", "python3*", "_sysconfigdata_*.py")
    for path in sorted(glob.glob(pattern)):
        with open(path, encoding="utf-8") as f:
            source = f.read()
        if "def _relocate(" in source:
            continue
        with open(path, "a", encoding="utf-8") as f:
            f.write(SYSCONFIG_HOOK.format(prefix=prefix))
        recompile(path, root, prefix)
        changed.append(os.path.relpath(path, root))
    return changed


def patch_pkgconfig(root, prefix):
    """prefix=<prefix> becomes prefix=${pcfiledir}/../.. in the .pc files."""
    changed = []
    for path in sorted(glob.glob(os.path.join(root, "lib", "pkgconfig",
                                              "*.pc"))):
        if os.path.islink(path):
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        new = ["prefix=${pcfiledir}/../..\n" if line == f"prefix={prefix}\n"
               else line for line in lines]
        if new != lines:
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(new)
            changed.append(os.path.relpath(path, root))
    return changed


def still_naming(root, prefix, handled):
    """The text files of ROOT (no .pyc, no binaries) that contain PREFIX,
    but for the HANDLED ones and python-config's shell script, which
    replaces PREFIX by the directory it runs from."""
    needle = os.fsencode(prefix)
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path) or rel in handled:
                continue
            with open(path, "rb") as f:
                data = f.read()
            if (name.endswith("-config") and data.startswith(b"#!/bin/sh")
                    and b"prefix_real=$(installed_prefix" in data):
                continue
            if b"\0" not in data[:8192] and needle in data:
                found.append(rel)
    return sorted(found)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compilers-only", action="store_true",
                        help="only drop ccache from the compiler commands")
    parser.add_argument("root", help="the installed tree (DESTDIR + PREFIX)")
    parser.add_argument("prefix", help="the prefix it was configured with")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    prefix = args.prefix.rstrip("/")
    if not os.path.isabs(prefix) or prefix == "":
        sys.exit(f"relocate: the prefix must be an absolute path: {prefix!r}")

    compilers = drop_ccache(root, prefix)
    if compilers:
        print(f"relocate: ccache dropped from the compiler commands of "
              f"{' '.join(compilers)}")
    if args.compilers_only:
        return
    scripts = rewrite_shebangs(root, prefix)
    data = patch_sysconfigdata(root, prefix)
    pcs = patch_pkgconfig(root, prefix)
    if not data:
        sys.exit(f"relocate: no _sysconfigdata_*.py under {root}/lib")
    print(f"relocate: trampolines: {' '.join(scripts) or 'none'}")
    print(f"relocate: sysconfig data: {' '.join(data)}")
    print(f"relocate: pkg-config: {' '.join(pcs) or 'none'}")
    left = still_naming(root, prefix, set(scripts + data + pcs))
    if left:
        print(f"relocate: text files that still name {prefix}: "
              f"{' '.join(left)}")


if __name__ == "__main__":
    main()
