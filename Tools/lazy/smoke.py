"""Smoke check of an installed tree of the fork (make install, make test,
make check-dist).

Run by the installed interpreter itself:

    PREFIX/bin/python3 -I Tools/lazy/smoke.py PREFIX [--relocated CONFIGURED]

and checks, with real processes in a temporary directory:

* the layout: bin/python3 -> python3.13, pip3, python3.13-config, the
  headers, the manual page with -L;
* the identity: sys.version names the fork and its revision
  ("lazy-cpython:<rev>") while sys.version_info, platform.python_version(),
  platform.python_implementation(), platform's parser of sys.version, the
  extension suffix and pip's wheel tags stay CPython 3.13's (the bytecode
  cache tag is the fork's own, cpython-313-lazy);
* sysconfig: python -m sysconfig runs, the installation paths and the
  build-time directories (LIBDIR, INCLUDEPY, ...) are under PREFIX;
* -L: a module imported at module level runs at first use, not before;
* venv + pip: a venv of the installed interpreter installs a stock cp313
  binary wheel (the msgpack pin of tests/wheels/requirements.txt), which
  imports, eagerly and lazily under -L; pip3 of PREFIX runs.

With --relocated CONFIGURED (an unpacked make dist tarball), also that no
sysconfig value still names the prefix the tree was configured with and that
the scripts of bin/ are trampolines.
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WHEELS = os.path.join(HERE, os.pardir, os.pardir, "tests", "wheels",
                      "requirements.txt")

# -I leaves this directory out of sys.path; lazytools is plain stdlib code.
sys.path.insert(0, HERE)
import lazytools  # noqa: E402

failures = []


def check(what, ok, detail=""):
    if ok:
        print(f"smoke: ok    {what}")
    else:
        print(f"smoke: FAIL  {what}{': ' + detail if detail else ''}")
        failures.append(what)


def run(cmd, **kwargs):
    env = lazytools.clean_env(**kwargs.pop("env", {}))
    return subprocess.run(cmd, capture_output=True, text=True, env=env,
                          **kwargs)


def under(path, prefix):
    path = os.path.realpath(path)
    return path == prefix or path.startswith(prefix + os.sep)


def check_layout(prefix, version):
    bindir = os.path.join(prefix, "bin")
    py3 = os.path.join(bindir, "python3")
    check("bin/python3 is a link to python" + version,
          os.path.islink(py3) and os.readlink(py3) == "python" + version)
    for name in ("pip3", f"pip{version}", f"python{version}-config",
                 "python3-config", f"pydoc{version}"):
        check(f"bin/{name} exists",
              os.access(os.path.join(bindir, name), os.X_OK))
    include = sysconfig.get_paths()["include"]
    check("Python.h in the include path",
          os.path.isfile(os.path.join(include, "Python.h")), include)
    man = os.path.join(prefix, "share", "man", "man1", f"python{version}.1")
    try:
        with open(man, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        text = ""
        check("manual page", False, str(exc))
    check("the manual page documents -L", "\n.B \\-L\n" in text, man)


def check_identity(python, revision):
    version = "%d.%d.%d" % sys.version_info[:3]
    match = re.match(r"(\S+) \(lazy-cpython:([A-Za-z0-9._+-]+), ",
                     sys.version)
    check("sys.version names the fork and its revision",
          match is not None and match.group(1) == version, sys.version)
    if match and revision:
        check(f"the revision is {revision}", match.group(2) == revision,
              match.group(2))
    out = run([python, "-VV"]).stdout
    check("python -VV names the fork",
          out.startswith(f"Python {version} (lazy-cpython:"), out.strip())
    check("platform.python_implementation() is CPython",
          platform.python_implementation() == "CPython")
    check("platform.python_version() matches sys.version_info",
          platform.python_version() == version)
    parsed = platform._sys_version()
    check("platform._sys_version() parses sys.version",
          parsed[:3] == ("CPython", version, "lazy-cpython")
          and match is not None and parsed[3] == match.group(2),
          repr(parsed))
    check("platform.python_build() is (lazy-cpython:<rev>, <date>)",
          match is not None
          and platform.python_build()[0] == f"lazy-cpython:{match.group(2)}",
          repr(platform.python_build()))
    # The fork's bytecode has its own magic number and cache tag
    # (Doc/library/lazy_imports.rst); extension modules keep CPython's tag.
    tag = "cpython-%d%d" % sys.version_info[:2]
    check(f"sys.implementation is cpython, cache tag {tag}-lazy",
          sys.implementation.name == "cpython"
          and sys.implementation.cache_tag == f"{tag}-lazy",
          repr(sys.implementation))
    ext = sysconfig.get_config_var("EXT_SUFFIX") or ""
    check(f"extension suffix {ext}", ext.startswith(f".{tag}-"))


def check_sysconfig(python, prefix, configured):
    proc = run([python, "-m", "sysconfig"])
    check("python -m sysconfig", proc.returncode == 0, proc.stderr[-300:])
    bad = {k: v for k, v in sysconfig.get_paths().items()
           if not under(v, prefix)}
    check("sysconfig.get_paths() under the prefix", not bad, repr(bad))
    names = ("prefix", "exec_prefix", "BINDIR", "LIBDIR", "LIBPL", "LIBDEST",
             "BINLIBDEST", "INCLUDEPY", "CONFINCLUDEPY", "LIBPC", "MANDIR")
    bad = {n: sysconfig.get_config_var(n) for n in names
           if not under(sysconfig.get_config_var(n), prefix)}
    check("sysconfig's build-time directories under the prefix", not bad,
          repr(bad))
    if configured:
        stale = sorted(k for k, v in sysconfig.get_config_vars().items()
                       if k != "CONFIG_ARGS" and isinstance(v, str)
                       and configured in v)
        check(f"no sysconfig value names {configured}", not stale,
              " ".join(stale))
        printed = [line for line in proc.stdout.splitlines()
                   if configured in line and "CONFIG_ARGS" not in line]
        check(f"python -m sysconfig does not print {configured}",
              not printed, "\n".join(printed))
    cc = sysconfig.get_config_var("CC") or ""
    check(f"sysconfig's CC is the compiler alone ({cc})",
          cc and not cc.startswith("ccache"))


def check_scripts(prefix, version, relocated):
    bindir = os.path.join(prefix, "bin")
    proc = run([os.path.join(bindir, "pip3"), "--version"])
    check("bin/pip3 runs from the prefix",
          proc.returncode == 0 and os.path.join(
              prefix, "lib", f"python{version}", "site-packages", "pip")
          in proc.stdout, (proc.stdout + proc.stderr).strip()[-300:])
    proc = run([os.path.join(bindir, f"python{version}-config"), "--prefix"])
    check(f"python{version}-config --prefix",
          proc.stdout.strip() == prefix, proc.stdout.strip())
    if relocated:
        with open(os.path.join(bindir, "pip3"), "rb") as f:
            first = f.readline()
        check("bin/pip3 starts with the /bin/sh trampoline",
              first == b"#!/bin/sh\n", repr(first))


def check_lazy(python, tmp):
    # side.py says when its body runs; main.py imports it at module level
    # and uses it after a print.
    tree = os.path.join(tmp, "lazy-tree")
    os.makedirs(tree)
    with open(os.path.join(tree, "side.py"), "w") as f:
        f.write("print('side: body')\nVALUE = 42\n")
    with open(os.path.join(tree, "main.py"), "w") as f:
        f.write("import side\nprint('main: body')\n"
                "print('main: value', side.VALUE)\n")
    main = os.path.join(tree, "main.py")
    eager = run([python, main], cwd=tree)
    lazy = run([python, "-L", main], cwd=tree)
    check("without -L the import runs at the import statement",
          eager.stdout.splitlines()
          == ["side: body", "main: body", "main: value 42"],
          eager.stdout + eager.stderr)
    check("with -L the import runs at first use",
          lazy.stdout.splitlines()
          == ["main: body", "side: body", "main: value 42"],
          lazy.stdout + lazy.stderr)


def wheel_pin(name="msgpack"):
    with open(WHEELS, encoding="utf-8") as f:
        for line in f:
            if line.split("==")[0].strip().lower() == name:
                return line.strip()
    raise SystemExit(f"smoke: no {name} pin in {WHEELS}")


def check_venv(python, tmp):
    venv = os.path.join(tmp, "venv")
    proc = run([python, "-m", "venv", venv])
    check("python -m venv", proc.returncode == 0, proc.stderr[-300:])
    vpy = os.path.join(venv, "bin", "python")
    if proc.returncode:
        return
    tags = run([vpy, "-c", "from pip._vendor.packaging.tags import sys_tags;"
                " print(next(iter(sys_tags())))"])
    check("pip's first wheel tag is cp313-cp313-<platform>",
          tags.stdout.startswith("cp%d%d-cp%d%d-" % (sys.version_info[:2]
                                                    * 2)),
          (tags.stdout + tags.stderr).strip())
    pin = wheel_pin()
    proc = run([vpy, "-m", "pip", "install", "-q",
                "--disable-pip-version-check", "--only-binary=:all:", pin])
    check(f"pip install {pin} (binary wheel) in the venv",
          proc.returncode == 0, proc.stderr[-500:])
    if proc.returncode:
        return
    script = os.path.join(tmp, "use_msgpack.py")
    with open(script, "w") as f:
        f.write("import sys\nimport msgpack\n"
                "print('msgpack' in sys.modules)\n"
                "import msgpack._cmsgpack\n"
                "print(msgpack.unpackb(msgpack.packb([1, 'x'])))\n")
    eager = run([vpy, script])
    lazy = run([vpy, "-L", script])
    check("the wheel's C extension imports in the venv",
          eager.stdout.splitlines() == ["True", "[1, 'x']"],
          eager.stdout + eager.stderr[-500:])
    check("... and under -L, at first use",
          lazy.stdout.splitlines() == ["False", "[1, 'x']"],
          lazy.stdout + lazy.stderr[-500:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prefix")
    parser.add_argument("--relocated", metavar="CONFIGURED", default="",
                        help="the tree is a relocated copy of a tree "
                             "configured with this prefix")
    parser.add_argument("--revision", default=os.environ.get("REVISION", ""))
    args = parser.parse_args()
    prefix = os.path.realpath(args.prefix)
    version = "%d.%d" % sys.version_info[:2]
    python = os.path.join(prefix, "bin", "python3")
    if not under(sys.executable, prefix):
        raise SystemExit(f"smoke: run me with {python}, not {sys.executable}")
    print(f"smoke: {prefix}")
    if args.relocated and os.path.exists(args.relocated):
        print(f"smoke: note: {args.relocated} exists on this machine")

    check("sys.prefix is the installation", sys.prefix == prefix, sys.prefix)
    check_layout(prefix, version)
    check_identity(python, args.revision)
    check_sysconfig(python, prefix, args.relocated)
    check_scripts(prefix, version, bool(args.relocated))
    with tempfile.TemporaryDirectory(prefix="lazy-smoke-") as tmp:
        check_lazy(python, tmp)
        check_venv(python, tmp)
    if failures:
        print(f"smoke: {len(failures)} check(s) failed in {prefix}")
        return 1
    print(f"smoke: all checks passed in {prefix}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
