"""Differential property test: -L changes when modules run, not results.

Hypothesis builds random package trees: packages, subpackages and modules
with integer attributes (some named like submodules), top-level imports of
every form (``import a.b.c``, ``import a.b as c``, ``from a import b, c``,
relative imports, inside ``if``/``for``/``try`` blocks), top-level reads of
what was imported, and functions reading it later.  A main script imports
from the tree, reads names, calls functions, then prints every name it and
the loaded modules bound.  It runs once eagerly and once with -L, and the
two runs are compared (contract rules 8, 12-15 and 19).

What must be equal is worked out below (``Semantics``).  Lazy imports move
the moment a module body runs.  So a program whose result depends on that
moment may legitimately differ between the runs, and the generator avoids
writing one:

* a module's top-level code reads an attribute of a module M only when no
  chain of top-level imports leads from M back to it, so M has finished
  executing in both runs (eagerly, a cycle leaves M half-initialized);
  ``from M import name`` counts as such a read, unless ``name`` is a
  submodule;
* ``pkg.sub`` is read only when the reading module itself ran
  ``import pkg.sub`` (eagerly, *any* module importing it sets the
  attribute; contract rule 14 only promises it for the importer's own
  statements);
* a package attribute named like one of its submodules is set after the
  package imported that submodule itself (``from .x import x``, or an
  assignment after ``from . import x``: then the attribute wins in both
  runs, contract rule 14), or else nothing imports the submodule.

Then every value the main script prints is identical, and the set of module
bodies run under -L is a subset of the eager set, each run at most once.

Without hypothesis (test.support.hypothesis_helper's stubs) the test runs
its explicit examples only.  With it, these environment variables apply:

LAZY_HYPOTHESIS_EXAMPLES
    Number of random programs (default 300).
LAZY_DIFFERENTIAL_BATCH
    Programs per hypothesis example, i.e. per pair of interpreter runs
    (default 25).
LAZY_HYPOTHESIS_PROFILE
    ``ci`` (default: derandomized, no example database, no shrinking: the
    failure names the program that differs) or ``explore`` (random seeds,
    the example database, failing batches shrunk), as ``make fuzz`` runs.

tests/test_compat.py runs the same programs on the fork and on stock
CPython, both without -L (contract rule 30).
"""

import dataclasses
import importlib
import importlib.util
import os
import re
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

# hypothesis registers its strategies as a side effect of importing its own
# modules, and checks the registry while they import: under -L (regrtest
# run with -L) it must be imported eagerly, as an application adopting -L
# would keep it (excluding=, contract rule 11).
if (importlib.is_lazy_imports_enabled() and "hypothesis" not in sys.modules
        and importlib.util.find_spec("hypothesis") is not None):
    importlib.set_lazy_imports(
        excluding=lambda name: name.partition(".")[0] == "hypothesis")

from test.support.hypothesis_helper import hypothesis
from test.support.script_helper import assert_python_ok

# By name: under -L the hypothesis package gets no "strategies" attribute
# as a side effect of its own imports (the guide's list of differences).
st = importlib.import_module(f"{hypothesis.__name__}.strategies")

#: False under test.support's stubs, which run the explicit examples only.
HAVE_HYPOTHESIS = not hypothesis.__name__.startswith("test.support.")

TOP_NAMES = ("alpha", "beta", "gamma")
SUBMODULE_NAMES = ("a", "b", "c")
VALUE_NAMES = ("a", "x", "y")      # "a" may shadow a submodule
ALIASES = ("q", "r", "x")          # "x" may be rebound by a value
MISSING = "zz"                     # never defined anywhere
WRAPPERS = ("plain", "plain", "plain", "if", "for", "try")
MAX_MODULES = 8
MAIN = "__main__"


# The program model ---------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Import:
    """``import path [as alias]``."""
    path: str
    alias: str | None = None
    wrapper: str = "plain"


@dataclasses.dataclass(frozen=True)
class FromImport:
    """``from <base> import name [as alias], ...``; *base* is absolute."""
    base: str
    names: tuple  # ((name, alias or None), ...)
    level: int = 0
    wrapper: str = "plain"


@dataclasses.dataclass(frozen=True)
class Chain:
    """``root.step1.step2``: a name of a module namespace, then attributes."""
    root: str
    steps: tuple = ()

    def __str__(self):
        return ".".join((self.root, *self.steps))


@dataclasses.dataclass
class Module:
    name: str
    is_package: bool = False
    values: dict = dataclasses.field(default_factory=dict)
    statements: list = dataclasses.field(default_factory=list)
    uses: dict = dataclasses.field(default_factory=dict)       # name: Chain
    functions: dict = dataclasses.field(default_factory=dict)  # name: body

    @property
    def package(self):
        """The package relative imports start from (__package__)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclasses.dataclass
class Program:
    modules: dict                  # name: Module
    main: Module
    main_uses: list = dataclasses.field(default_factory=list)  # of str

    def module(self, name):
        return self.main if name == MAIN else self.modules[name]

    def submodules(self, name):
        prefix = name + "."
        return {child[len(prefix):] for child in self.modules
                if child.startswith(prefix) and "." not in child[len(prefix):]}


def prefixes(path):
    parts = path.split(".")
    return [".".join(parts[:index]) for index in range(1, len(parts) + 1)]


# What a program computes, statically ----------------------------------------

UNSAFE = ("unsafe",)    # reading it depends on who imported what
ABSENT = ("missing",)   # AttributeError or ImportError in both runs


class Semantics:
    """Static view of a program: bindings, import graph, denotations.

    Denotations are ("module", name, covered submodule paths), ("int", n),
    ("function", qualified name), ABSENT or UNSAFE.
    """

    def __init__(self, program):
        self.program = program
        self._final = {}
        self._depth = 0
        self.graph = {name: set() for name in program.modules}
        for module in program.modules.values():
            for statement in module.statements:
                self.graph[module.name].update(
                    self.loads(module.name, statement))

    # Bindings.

    def final(self, owner):
        """{name: binding} of *owner*'s namespace after its body ran."""
        if owner not in self._final:
            module = self.program.module(owner)
            bindings = {}
            for statement in module.statements:
                bindings.update(self.bound_by(statement))
            bindings.update((name, ("value", value))
                            for name, value in module.values.items())
            bindings.update((name, ("use", chain))
                            for name, chain in module.uses.items())
            bindings.update((name, ("function",))
                            for name in module.functions)
            self._final[owner] = bindings
        return self._final[owner]

    @staticmethod
    def bound_by(statement):
        if isinstance(statement, Import):
            if statement.alias:
                return {statement.alias: ("as", statement.path)}
            root = statement.path.partition(".")[0]
            return {root: ("import", root)}
        return {alias or name: ("from", statement.base, name)
                for name, alias in statement.names}

    def is_self_from(self, base, name):
        """*base* binds *name* to its own submodule (``from . import x``)."""
        return self.final(base).get(name) == ("from", base, name)

    def is_pure(self, base, name):
        """``base.name`` is the submodule, whatever ran before."""
        return (name in self.program.submodules(base)
                and (name not in self.final(base)
                     or self.is_self_from(base, name)))

    def loads(self, owner, statement):
        """Modules the statement may import when it executes."""
        if isinstance(statement, Import):
            return prefixes(statement.path)
        loaded = prefixes(statement.base)
        for name, _ in statement.names:
            if name in self.program.submodules(statement.base) and (
                    statement.base == owner
                    or self.is_pure(statement.base, name)):
                loaded.append(f"{statement.base}.{name}")
        return loaded

    def coverage(self, owner, root):
        """Submodule paths *owner* imported with ``import root.x.y``."""
        return frozenset(
            path
            for statement in self.program.module(owner).statements
            if isinstance(statement, Import) and not statement.alias
            and statement.path.partition(".")[0] == root
            for path in prefixes(statement.path))

    # The import graph.

    def reaches(self, source, target):
        """Whether executing *source* can execute *target* before it ends."""
        if source == target:
            return True
        seen, stack = {source}, [source]
        while stack:
            for successor in self.graph.get(stack.pop(), ()):
                if successor == target:
                    return True
                if successor not in seen:
                    seen.add(successor)
                    stack.append(successor)
        return False

    # Denotations.

    def denote(self, owner, name):
        """Denotation of *name* in *owner*'s final namespace."""
        self._depth += 1
        try:
            if self._depth > 50:  # re-exports looping through each other
                return UNSAFE
            return self._denote(owner, name)
        finally:
            self._depth -= 1

    def _denote(self, owner, name):
        binding = self.final(owner).get(name)
        if binding is None:
            return ABSENT
        kind = binding[0]
        if kind == "import":
            return ("module", binding[1], self.coverage(owner, binding[1]))
        if kind == "from":
            return self.from_value(binding[1], binding[2])
        if kind == "as":
            return self.alias_value(binding[1])
        if kind == "value":
            return ("int", binding[1])
        if kind == "function":
            return ("function", f"{owner}.{name}")
        return self.evaluate(owner, binding[1])[0]

    def from_value(self, base, name):
        """What ``from base import name`` binds."""
        if name in self.final(base) and not self.is_self_from(base, name):
            return self.denote(base, name)
        if name in self.program.submodules(base):
            return ("module", f"{base}.{name}", frozenset())
        return ABSENT

    def alias_value(self, path):
        """What ``import path as alias`` binds."""
        root, *steps = path.split(".")
        value = ("module", root, frozenset(prefixes(path)))
        for step in steps:
            value, _ = self.step(value, step)
        return value

    def step(self, value, attribute):
        """(value.attribute, module that must have finished running)."""
        if value[0] != "module":
            return ABSENT, None
        module, covered = value[1], value[2]
        if attribute in self.final(module):
            if self.is_self_from(module, attribute):
                return ("module", f"{module}.{attribute}", frozenset()), module
            return self.denote(module, attribute), module
        if attribute in self.program.submodules(module):
            child = f"{module}.{attribute}"
            if child in covered:
                return ("module", child, covered), child
            return UNSAFE, None
        return ABSENT, None

    def evaluate(self, owner, chain):
        """(denotation, modules read) of *chain* in *owner*'s namespace."""
        value = self.denote(owner, chain.root)
        read = []
        for attribute in chain.steps:
            if value in (ABSENT, UNSAFE):
                break
            value, module = self.step(value, attribute)
            if module is not None:
                read.append(module)
        return value, read

    # Validity of top-level import statements.

    def hidden(self):
        """Submodules shadowed by a package attribute, never imported."""
        hidden = set()
        for package in self.program.modules.values():
            for name in self.program.submodules(package.name):
                child = f"{package.name}.{name}"
                if name in package.values and not any(
                        child in self.loads(package.name, statement)
                        for statement in package.statements):
                    hidden.add(child)
        return hidden

    def problem(self, owner, statement, hidden):
        """Why the statement would make the runs differ, or None."""
        for module in self.loads(owner, statement):
            if any(module == h or module.startswith(h + ".") for h in hidden):
                return f"imports hidden {module}"
        submodules = self.program.submodules(owner)
        statements = self.program.module(owner).statements
        done = statements[:statements.index(statement) + 1]
        for name, binding in self.bound_by(statement).items():
            # Binding a submodule's name is order-independent only once the
            # package imported that submodule itself (from .x import x).
            if name in submodules and binding != ("from", owner, name) and (
                    not any(f"{owner}.{name}" in self.loads(owner, earlier)
                            for earlier in done)):
                return f"binds {name} before importing submodule {name}"
        if isinstance(statement, Import):
            if statement.path == owner:
                return "imports itself"
            if statement.alias:
                parent, _, last = statement.path.rpartition(".")
                for path in prefixes(statement.path)[1:-1]:
                    above, _, name = path.rpartition(".")
                    if not self.is_pure(above, name):
                        return f"{path} is not a plain submodule"
                if parent and not self.is_pure(parent, last):
                    if parent == owner or self.reaches(parent, owner):
                        return f"reads {parent}.{last} before it is set"
            return None
        base = statement.base
        for name, _ in statement.names:
            if base == owner:
                if name not in submodules:
                    return f"reads {name} from itself"
            elif not self.is_pure(base, name):
                if self.from_value(base, name) in (ABSENT, UNSAFE):
                    return f"{base}.{name} does not exist"
                if self.reaches(base, owner):
                    return f"reads {base}.{name} before it is set"
        return None


def sanitize(program):
    """Drop statements, one at a time, until no rule above is broken."""
    while True:
        semantics = Semantics(program)
        hidden = semantics.hidden()
        for module in (*program.modules.values(), program.main):
            bad = [statement for statement in module.statements
                   if semantics.problem(module.name, statement, hidden)]
            if bad:
                module.statements.remove(bad[0])
                break
        else:
            return semantics


# Rendering ------------------------------------------------------------------

def render_statement(module, statement):
    if isinstance(statement, Import):
        text = f"import {statement.path}"
        if statement.alias:
            text += f" as {statement.alias}"
    else:
        names = ", ".join(name if alias is None else f"{name} as {alias}"
                          for name, alias in statement.names)
        base = statement.base
        if statement.level:
            anchor = module.package
            for _ in range(statement.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = "." * statement.level + base[len(anchor) + 1:]
        text = f"from {base} import {names}"
    if statement.wrapper == "if":
        return f"if True:\n    {text}\n"
    if statement.wrapper == "for":
        return f"for _ in (0,):\n    {text}\n"
    if statement.wrapper == "try":
        return f"try:\n    {text}\nexcept ImportError:\n    raise\n"
    return text + "\n"


def render_module(module):
    lines = ['print("exec", __name__)\n']
    lines += [render_statement(module, s) for s in module.statements]
    lines += [f"{name} = {value}\n" for name, value in module.values.items()]
    lines += [f"{name} = {chain}\n" for name, chain in module.uses.items()]
    for name, body in module.functions.items():
        lines.append(f"def {name}():\n{textwrap.indent(body, '    ')}\n")
    return "".join(lines)


MAIN_FOOTER = '''
def describe(value):
    if type(value) is type(sys):
        return "module " + value.__name__
    if callable(value):
        return "function " + value.__module__ + "." + value.__qualname__
    return type(value).__name__ + " " + repr(value)

def show(label, thunk):
    try:
        result = describe(thunk())
    except Exception as exc:
        result = "raised " + type(exc).__name__ + ": " + str(exc)
    print(label, result)

{uses}
for name in BOUND:
    show("bound " + name, lambda: globals()[name])
loaded = [name for name in TREE if name in sys.modules]
print("loaded", *loaded)
for name in loaded:
    for attribute in DUMP[name]:
        show("dump " + name + " " + attribute,
             lambda: getattr(sys.modules[name], attribute))
'''


def render_main(program, semantics):
    lines = ["import sys\n"]
    lines += [render_statement(program.main, s)
              for s in program.main.statements]
    lines.append(f"TREE = {sorted(program.modules)!r}\n")
    dump = {name: sorted(semantics.final(name)) for name in program.modules}
    lines.append(f"DUMP = {dump!r}\n")
    lines.append(f"BOUND = {sorted(semantics.final(MAIN))!r}\n")
    uses = "".join(f"show('use {index}', lambda: {expression})\n"
                   for index, expression in enumerate(program.main_uses))
    lines.append(MAIN_FOOTER.format(uses=uses))
    return "".join(lines)


def render(program, semantics):
    files = {}
    for module in program.modules.values():
        parts = module.name.split(".")
        if module.is_package:
            path = Path(*parts, "__init__.py")
        else:
            path = Path(*parts[:-1], parts[-1] + ".py")
        files[str(path)] = render_module(module)
    files["main.py"] = render_main(program, semantics)
    return files


# Strategies -----------------------------------------------------------------

def draw_tree(draw):
    modules = {}

    def add(name, depth):
        is_package = depth < 2 and draw(st.booleans())
        modules[name] = Module(name, is_package)
        if is_package:
            children = draw(st.lists(st.sampled_from(SUBMODULE_NAMES),
                                     max_size=3 - depth, unique=True))
            for child in children:
                if len(modules) < MAX_MODULES:
                    add(f"{name}.{child}", depth + 1)

    for top in draw(st.lists(st.sampled_from(TOP_NAMES), min_size=1,
                             unique=True)):
        add(top, 0)
    return modules


def draw_names(draw, program, base):
    """Names for ``from base import ...``, with optional aliases."""
    pool = sorted(set(program.module(base).values)
                  | program.submodules(base) | set(TOP_NAMES))
    names = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2,
                          unique=True))
    return tuple((name, draw(st.sampled_from((None, None, *ALIASES))))
                 for name in names)


def draw_statement(draw, program, owner):
    module = program.module(owner)
    targets = sorted(name for name in program.modules if name != owner)
    kinds = ["import", "import", "import as", "from", "from"]
    if module.package:
        kinds += ["relative", "relative"]
    kind = draw(st.sampled_from(kinds))
    wrapper = draw(st.sampled_from(WRAPPERS))
    if kind in ("import", "import as"):
        if not targets:
            return None
        alias = draw(st.sampled_from(ALIASES)) if kind == "import as" else None
        return Import(draw(st.sampled_from(targets)), alias, wrapper)
    if kind == "from":
        bases = sorted(program.modules)
        base = draw(st.sampled_from(bases))
        return FromImport(base, draw_names(draw, program, base), 0, wrapper)
    anchors = [module.package]
    if "." in module.package:
        anchors.append(module.package.rpartition(".")[0])
    level = draw(st.integers(1, len(anchors)))
    anchor = anchors[level - 1]
    bases = [anchor] + sorted(f"{anchor}.{name}"
                              for name in program.submodules(anchor))
    base = draw(st.sampled_from(bases))
    return FromImport(base, draw_names(draw, program, base), level, wrapper)


def candidate_chains(semantics, owner, top_level):
    """Chains readable in *owner*: (chain, denotation) pairs."""
    bindings = semantics.final(owner)
    if top_level:
        roots = [name for name, binding in bindings.items()
                 if binding[0] in ("import", "from", "as")]
    else:
        roots = list(bindings)
    found = []
    frontier = [Chain(root) for root in sorted(roots)]
    for depth in range(3):
        next_frontier = []
        for chain in frontier:
            value, read = semantics.evaluate(owner, chain)
            if value is UNSAFE:
                continue
            if top_level and (value is ABSENT or any(
                    semantics.reaches(module, owner) for module in read)):
                continue
            found.append((chain, value))
            if value[0] == "module" and depth < 2:
                attributes = (set(semantics.final(value[1]))
                              | semantics.program.submodules(value[1]))
                if not top_level:
                    attributes.add(MISSING)
                next_frontier += [Chain(chain.root, (*chain.steps, name))
                                  for name in sorted(attributes)]
        frontier = next_frontier
    return found


def draw_uses_and_functions(draw, program, semantics):
    hidden = semantics.hidden()
    for module in program.modules.values():
        candidates = candidate_chains(semantics, module.name, top_level=True)
        if candidates:
            chains = draw(st.lists(st.sampled_from(candidates), max_size=2))
            for index, (chain, _) in enumerate(chains):
                module.uses[f"u{index}"] = chain
            semantics._final.pop(module.name, None)
        importable = sorted(name for name in program.modules
                            if not any(name == h or name.startswith(h + ".")
                                       for h in hidden))
        for index in range(draw(st.integers(0, 2))):
            if draw(st.booleans()):
                # Eager in both runs; never loads a hidden submodule, whose
                # import would clobber the attribute eagerly only.
                base = draw(st.sampled_from(importable))
                name, _ = draw_names(draw, program, base)[0]
                body = f"from {base} import {name}\nreturn {name}"
            else:
                candidates = candidate_chains(semantics, module.name,
                                              top_level=False)
                if not candidates:
                    continue
                chain, _ = draw(st.sampled_from(candidates))
                body = f"return {chain}"
            module.functions[f"f{index}"] = body
        semantics._final.pop(module.name, None)


def draw_main_uses(draw, semantics):
    candidates = candidate_chains(semantics, MAIN, top_level=False)
    if not candidates:
        return []
    uses = []
    for chain, value in draw(st.lists(st.sampled_from(candidates),
                                      min_size=1, max_size=8)):
        form = draw(st.sampled_from(("read", "read", "call", "hasattr")))
        if form == "call" and value[0] == "function":
            uses.append(f"{chain}()")
        elif form == "hasattr" and value[0] == "module":
            module = value[1]
            names = (set(semantics.final(module)) | {MISSING}
                     | {name for name in semantics.program.submodules(module)
                        if f"{module}.{name}" in value[2]})
            uses.append(f"hasattr({chain}, "
                        f"{draw(st.sampled_from(sorted(names)))!r})")
        else:
            uses.append(str(chain))
    return uses


@st.composite
def programs(draw):
    modules = draw_tree(draw)
    counter = iter(range(100, 10_000))
    for module in modules.values():
        for name in draw(st.lists(st.sampled_from(VALUE_NAMES), max_size=3,
                                  unique=True)):
            module.values[name] = next(counter)
    program = Program(modules, Module(MAIN))
    for owner in [*sorted(modules), MAIN]:
        low = 1 if owner == MAIN else 0
        for _ in range(draw(st.integers(low, 4 if owner == MAIN else 3))):
            statement = draw_statement(draw, program, owner)
            if statement is not None:
                program.module(owner).statements.append(statement)
    semantics = sanitize(program)
    draw_uses_and_functions(draw, program, semantics)
    semantics = Semantics(program)
    program.main_uses = draw_main_uses(draw, semantics)
    return render(program, semantics)



# Running and comparing ------------------------------------------------------
#
# Starting two interpreters per program would cost most of the time budget,
# so each hypothesis example is a batch of BATCH programs.  Program i is
# renamed apart (top-level packages ``p<i>_alpha``..., script ``main<i>.py``)
# and all of them are written into one directory; a driver script runs the
# scripts one after the other in one interpreter per mode, like ``python
# main<i>.py`` would (runpy, as __main__).  Programs share no module, so one
# cannot change what another computes, and each is compared on its own.

#: Programs per hypothesis example (one pair of interpreter runs).
BATCH = int(os.environ.get("LAZY_DIFFERENTIAL_BATCH", "25"))

#: Programs per test (hypothesis examples times BATCH).
PROGRAMS = int(os.environ.get("LAZY_HYPOTHESIS_EXAMPLES", "300"))

#: "ci" or "explore" (see the module docstring).
PROFILE = os.environ.get("LAZY_HYPOTHESIS_PROFILE", "ci")

SEPARATOR = "=== program "

DRIVER = f"""
import runpy, sys, traceback
for script in sys.argv[1:]:
    print({SEPARATOR!r} + script, flush=True)
    try:
        runpy.run_path(script, run_name="__main__")
    except BaseException:
        print("raised out of the script:")
        traceback.print_exc(file=sys.stdout)
    sys.stdout.flush()
"""

TOP_NAME = re.compile(rf"\b({'|'.join(TOP_NAMES)})\b")


def rename(files, index):
    """*files* with top-level packages and main.py renamed for slot *index*."""
    renamed = {}
    for relative, text in files.items():
        if relative == "main.py":
            relative = f"main{index}.py"
        renamed[TOP_NAME.sub(rf"p{index}_\1", relative)] = TOP_NAME.sub(
            rf"p{index}_\1", text)
    return renamed


def write_batch(root, batch):
    """Write the programs of *batch* and the driver; return the scripts."""
    scripts = []
    for index, files in enumerate(batch):
        for relative, text in rename(files, index).items():
            path = Path(root, relative)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        scripts.append(f"main{index}.py")
    Path(root, "driver.py").write_text(DRIVER, encoding="utf-8")
    return scripts


def split_outputs(stdout, scripts):
    """{script: lines printed} of a driver run's standard output."""
    outputs, current = {}, None
    for line in stdout.splitlines():
        if line.startswith(SEPARATOR):
            current = outputs.setdefault(line[len(SEPARATOR):], [])
        else:
            current.append(line)
    if list(outputs) != scripts:
        raise AssertionError(f"the driver did not run every script:\n"
                             f"{stdout}")
    return outputs


@dataclasses.dataclass
class Observation:
    """What one run of a generated program printed."""
    lines: list
    executed: list
    shown: list     # "use ..." and "bound ..." lines, in order
    loaded: list
    dumped: dict    # (module, attribute): line

    @classmethod
    def parse(cls, lines):
        assert not any(line.startswith("raised out of") for line in lines), (
            "\n".join(lines))
        loaded = next(line for line in lines if line.startswith("loaded"))
        dumped = {}
        for line in lines:
            if line.startswith("dump "):
                _, module, attribute, _ = line.split(" ", 3)
                dumped[module, attribute] = line
        return cls(
            lines=lines,
            executed=[line.removeprefix("exec ") for line in lines
                      if line.startswith("exec ")],
            shown=[line for line in lines
                   if line.startswith(("use ", "bound "))],
            loaded=loaded.split()[1:],
            dumped=dumped)


def compare(eager_lines, lazy_lines):
    """Assert the -L run printed what the eager run allows."""
    eager = Observation.parse(eager_lines)
    lazy = Observation.parse(lazy_lines)
    assert lazy.shown == eager.shown
    assert len(set(eager.executed)) == len(eager.executed)
    assert len(set(lazy.executed)) == len(lazy.executed), "a body ran twice"
    assert set(lazy.executed) <= set(eager.executed)
    assert set(lazy.loaded) <= set(eager.loaded)
    for key, line in lazy.dumped.items():
        assert line == eager.dumped[key]
    assert {module for module, _ in lazy.dumped} <= set(lazy.loaded)


def same_output(first_lines, second_lines):
    assert first_lines == second_lines


def program_report(files, index, **runs):
    text = [f"program {index} (renamed p{index}_*, main{index}.py):"]
    for relative in sorted(files):
        text.append(f"--- {relative}\n{files[relative]}")
    for label, lines in runs.items():
        text.append(f"--- {label} run\n" + "\n".join(lines))
    return "\n".join(text)


def check_batch(batch, first, second, compare_runs):
    """Run *batch* with *first* and *second*, each a function running the
    driver (with the script arguments it is given) in a directory and
    returning its standard output; compare each program's two outputs with
    *compare_runs*.  Return None, or a report of the programs that differ.
    """
    with tempfile.TemporaryDirectory(prefix="lazy-differential-") as root:
        scripts = write_batch(root, batch)
        first_out = split_outputs(first(root, scripts), scripts)
        second_out = split_outputs(second(root, scripts), scripts)
    failures = []
    for index, (files, script) in enumerate(zip(batch, scripts)):
        try:
            compare_runs(first_out[script], second_out[script])
        except AssertionError as exc:
            failures.append(
                program_report(files, index, first=first_out[script],
                               second=second_out[script])
                + f"\n--- assertion\n{exc}")
    if failures:
        return (f"{len(failures)} of {len(batch)} programs differ; "
                f"the first one:\n{failures[0]}")
    return None


# Explicit examples ----------------------------------------------------------
#
# Hand-written programs in the model above, run with or without hypothesis.
# Together they show every construct of CONSTRUCTS below.

def example_programs():
    """Three programs rendered to files, checked by sanitize()."""
    alpha = {
        "alpha": Module("alpha", is_package=True, values={"a": 100},
                        statements=[FromImport("alpha.b", (("b", None),),
                                               level=1)]),
        "alpha.a": Module("alpha.a", values={"x": 101}),
        "alpha.b": Module("alpha.b", is_package=True,
                          statements=[FromImport("alpha.b.c",
                                                 (("y", None),), level=1),
                                      FromImport("alpha", (("b", "q"),),
                                                 level=2)]),
        "alpha.b.c": Module("alpha.b.c", values={"y": 102},
                            statements=[Import("beta", wrapper="try")],
                            uses={"u0": Chain("beta", ("x",))},
                            functions={"f0": "return beta.x"}),
        "beta": Module("beta", values={"x": 103},
                       statements=[Import("alpha.b.c", wrapper="for")],
                       functions={"f0": "return alpha.b.c.y"}),
    }
    main = Module(MAIN, statements=[
        Import("alpha.b.c"), Import("alpha.b.c", alias="r"),
        FromImport("beta", (("x", None), ("f0", "q"))),
        Import("gamma", wrapper="if")])
    gamma = {
        "gamma": Module("gamma", is_package=True,
                        statements=[FromImport("gamma.a", (("a", None),),
                                                level=1)]),
        "gamma.a": Module("gamma.a", values={"a": 104}),
        "gamma.b": Module("gamma.b", values={"x": 105}),
    }
    first = Program({**alpha, **gamma}, main, [
        "alpha.b.c.y", "r.f0()", "q()", "alpha.a", "alpha.zz",
        "hasattr(alpha.b, 'c')", "gamma.a", "beta.f0()"])
    second = Program(
        {"alpha": Module("alpha", is_package=True,
                         statements=[Import("beta")],
                         functions={"f0": "return beta.a"}),
         "beta": Module("beta", values={"a": 106},
                        statements=[Import("alpha")],
                        functions={"f0": "return alpha.f0()"})},
        Module(MAIN, statements=[Import("alpha"), Import("beta")]),
        ["alpha.f0()", "beta.f0()", "beta.zz"])
    third = Program(
        {"alpha": Module("alpha", is_package=True, values={"a": 107}),
         "alpha.a": Module("alpha.a", values={"x": 108})},
        Module(MAIN, statements=[FromImport("alpha", (("a", None),))]),
        ["a"])
    rendered = []
    for program in (first, second, third):
        sanitize(program)
        rendered.append(render(program, Semantics(program)))
    return rendered


EXAMPLES = example_programs()


def has_line(files, pattern, *, modules_only=False):
    regex = re.compile(pattern)
    return any(regex.search(line)
               for name, text in files.items()
               if not (modules_only and name == "main.py")
               for line in text.splitlines())


def has_shadowed_submodule(files):
    for name, text in files.items():
        package = Path(name).parent
        if name.endswith("__init__.py") and re.search(r"^a = \d+$", text,
                                                      re.MULTILINE):
            if {str(package / "a.py"), str(package / "a" / "__init__.py")} & (
                    set(files)):
                return True
    return False


def imports_each_other(files):
    imported = {}
    for name, text in files.items():
        if name != "main.py":
            root = Path(name).parts[0].removesuffix(".py")
            imported.setdefault(root, set()).update(
                re.findall(r"^\s*(?:import|from) (\w+)", text, re.MULTILINE))
    return any(a != b and b in imported[a] and a in imported[b]
               for a in imported for b in imported)


#: Constructs the generator must be able to produce (the module docstring's
#: promises): without them the differential test would prove little.
CONSTRUCTS = {
    "dotted import": lambda f: has_line(f, r"^\s*import \w+\.\w+"),
    "dotted import as": lambda f: has_line(f, r"^\s*import \w+\.\S+ as "),
    "from import of two names": lambda f: has_line(
        f, r"^\s*from \S+ import \w+( as \w+)?, "),
    "relative import": lambda f: has_line(f, r"^\s*from \.+\w* import"),
    "two-level relative import": lambda f: has_line(f, r"^\s*from \.\."),
    "import inside try": lambda f: has_line(f, r"^try:", modules_only=True),
    "import inside for": lambda f: has_line(f, r"^for _ in"),
    "subpackage": lambda f: any(len(Path(name).parts) >= 3 for name in f),
    "attribute shadowing a submodule": has_shadowed_submodule,
    "from pkg.x import x": lambda f: has_line(
        f, r"^\s*from [.\w]*\.(\w+) import (\w+( as \w+)?, )*\1\b(?! as)",
        modules_only=True),
    "top-level read of an import": lambda f: has_line(
        f, r"^u0 = \w+\.\w+", modules_only=True),
    "function reading an import": lambda f: has_line(f, r"^    return \w+\."),
    "main calls a function": lambda f: has_line(f, r"lambda: .*\.f\d\(\)"),
    "main reads a submodule": lambda f: has_line(
        f, r"lambda: \w+\.[abc]\.\w+"),
    "main reads a missing name": lambda f: has_line(
        f, rf"lambda: .*{MISSING}"),
    "packages importing each other": imports_each_other,
}


def batch_settings():
    """Hypothesis settings for PROGRAMS programs in batches of BATCH."""
    common = dict(
        max_examples=max(1, -(-PROGRAMS // BATCH)), deadline=None,
        suppress_health_check=[hypothesis.HealthCheck.too_slow,
                               hypothesis.HealthCheck.data_too_large],
        print_blob=True)
    if PROFILE == "explore":
        return hypothesis.settings(**common)
    # Shrinking a batch reruns it hundreds of times; the failure report
    # names the program that differs already.
    return hypothesis.settings(
        derandomize=True, database=None,
        phases=[hypothesis.Phase.explicit, hypothesis.Phase.reuse,
                hypothesis.Phase.generate], **common)


class DifferentialTests(unittest.TestCase):

    def run_driver(self, lazy):
        """A function running the batch driver with this interpreter."""
        def run(root, scripts):
            result = assert_python_ok(*(["-L"] if lazy else []), "driver.py",
                                      *scripts, __cwd=root, __isolated=False)
            self.assertEqual(result.err, b"")
            return result.out.decode("utf-8", "backslashreplace")
        return run

    @batch_settings()
    @hypothesis.given(batch=st.lists(programs(), min_size=BATCH,
                                     max_size=BATCH))
    @hypothesis.example(batch=EXAMPLES)
    def test_lazy_run_matches_eager_run(self, batch):
        # Contract rules 8, 12-15 and 19: the -L run computes exactly what
        # the eager run computes; only the moment modules run may differ.
        failure = check_batch(batch, self.run_driver(False),
                              self.run_driver(True), compare)
        if failure:
            self.fail(failure)

    def test_examples_show_every_construct(self):
        # The explicit examples stand for the generator without hypothesis:
        # together they write every construct it is checked for.
        for construct, present in CONSTRUCTS.items():
            with self.subTest(construct=construct):
                self.assertTrue(any(present(files) for files in EXAMPLES))

    @unittest.skipUnless(HAVE_HYPOTHESIS, "needs hypothesis")
    def test_generator_produces_every_construct(self):
        # The strategy can write each construct (this guards the
        # sanitizer, which drops what would make the runs differ).
        for construct, present in CONSTRUCTS.items():
            with self.subTest(construct=construct):
                hypothesis.find(
                    programs(), present,
                    settings=hypothesis.settings(
                        max_examples=5_000, database=None, derandomize=True,
                        deadline=None, phases=[hypothesis.Phase.generate],
                        suppress_health_check=list(hypothesis.HealthCheck)))


if __name__ == "__main__":
    unittest.main()
