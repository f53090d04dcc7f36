"""The rule to test map of tests/README.rst, computed from the test sources.

Every rule of the behaviour contract (Doc/library/lazy_imports_contract.rst)
is tested in Lib/test/test_lazy_imports, and a few in the pytest files of
tests/ (those needing the stock interpreter or PyPI packages).

A test names its rules in a comment on one of the three lines after its
``def`` (``# Contract rule 12: ...``, ``# Contract rules 8-10``, ``#
Contract rules 25 and 49``), in test_lazy_imports and in the pytest files
alike; a test_lazy_imports test without one takes the rules named in the
summary (first paragraph) of its class's docstring, else of its module's
docstring.

    python tests/coverage_map.py            print the map: per rule, how
                                            many tests and in which modules
    python tests/coverage_map.py --list     print the name of every rule's
                                            tests ("rule: test")
    python tests/coverage_map.py --check    exit 1 if tests/README.rst does
                                            not hold the current map or a
                                            rule has no test
"""

import argparse
import ast
import collections
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
PACKAGE = TOP / "Lib" / "test" / "test_lazy_imports"
README = TOP / "tests" / "README.rst"

SUBJECTS = {
    1: "``-L`` from the first import, documented",
    2: "``sys.flags.lazy_imports``", 3: "children inherit -L",
    4: "set_lazy_imports()", 5: "is_lazy_imports_enabled()",
    6: "per interpreter state",
    7: "``-X lazy_imports``, ``PYTHON_LAZY_IMPORTS``",
    8: "module-level imports are lazy", 9: "always-eager contexts",
    10: "eager_imports() is lexical", 11: "excluding",
    12: "binding without importing", 13: "from-import: independent objects",
    14: "dotted imports, package attributes", 15: "first read resolves",
    16: "builtins __import__ at resolution", 17: "del/rebind never imports",
    18: "module __getattr__", 19: "value reads resolve",
    20: "key reads do not", 21: "copies",
    22: "gc-visible lazy object is inert", 23: "is_lazy_import()",
    24: "original exception, note, traceback",
    25: "failed resolution state, retry", 26: "cycles", 27: "threads",
    28: "``-v``, ``-X importtime``", 29: "C API",
    30: "no ``-L``: stock behaviour", 31: "ABI", 32: "``.pyc`` files",
    33: "import hooks written in Python",
    34: "C API iteration (``PyDict_Next``)",
    35: "no lazy object leaks (views, copies, watchers)",
    36: "no form of delete imports",
    37: "``AttributeError`` while resolving",
    38: "excluding: no strings, no iterators",
    39: "stock bytecode keeps its meaning; ``dis``",
    40: "warnings keep their attribution",
    41: "tracers and debuggers", 42: "the guide's list of differences",
    43: "resolve_lazy_imports()", 44: "``-X lazy_imports=verify``",
    45: "``importlib.lazy report``", 46: "``importlib.lazy check``",
    47: "no report, no cost", 48: "PEP 810 forward compatibility",
    49: "resolution in eager order",
    50: "early completion is the only freedom",
    51: "a missed module attribute catches up",
    52: "popular packages keep their API",
    53: "run_path, retention, inert objects, shutdown",
    54: "a try sees eager code's ImportError",
    55: "an early completion has a cause",
    56: "a name imported from the module itself",
    57: "side-effect imports run as eagerly",
    58: "defaults cover a class of modules",
}
RULES = sorted(SUBJECTS)

NUMBERS = r"(\d+(?:-\d+)?(?:(?:, *|,? and )\d+(?:-\d+)?)*)"
#: "# Contract rule 12", "# Contract rules 8-10, 12 and 15" (a comment of
#: a test) and "(contract rules 45 and 47)" (a docstring's summary).
COMMENT = re.compile(rf"^\s*# (?:Contract )?[Rr]ules? {NUMBERS}")
TITLE = re.compile(rf"\b[Rr]ules? {NUMBERS}")


def rule_numbers(text):
    numbers = set()
    for part in re.split(r",? and |, *", text):
        first, _, last = part.partition("-")
        numbers.update(range(int(first), int(last or first) + 1))
    return numbers


def title_rules(node):
    summary = (ast.get_docstring(node) or "").partition("\n\n")[0]
    return {number
            for match in TITLE.finditer(" ".join(summary.split()))
            for number in rule_numbers(match.group(1))}


def comment_rules(function, lines):
    """The rules that the comment after the ``def`` of *function* names."""
    for line in lines[function.lineno:function.lineno + 3]:
        if match := COMMENT.match(line):
            return rule_numbers(match.group(1))
    return set()


def is_test(node):
    return (isinstance(node, ast.FunctionDef)
            and node.name.startswith("test_"))


def package_tests(path):
    """{test name: rules} of one test_lazy_imports module."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    module_rules = title_rules(tree)
    found = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        class_rules = title_rules(cls) or module_rules
        for function in filter(is_test, cls.body):
            found[f"{path.stem}.{cls.name}.{function.name}"] = (
                comment_rules(function, lines) or class_rules)
    return found


def pytest_tests(path):
    """{test node id: rules} of one pytest file of tests/ (its module-level
    test functions that name rules)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = {}
    for function in filter(is_test, ast.parse(source).body):
        if rules := comment_rules(function, lines):
            found[f"tests/{path.name}::{function.name}"] = rules
    return found


def collect():
    """{rule: [test names]}, test_lazy_imports first, then tests/."""
    found = collections.defaultdict(list)
    tests = {}
    for path in sorted(PACKAGE.glob("test_*.py")):
        tests.update(package_tests(path))
    for path in sorted((TOP / "tests").glob("test_*.py")):
        tests.update(pytest_tests(path))
    for name, rules in tests.items():
        for rule in sorted(rules):
            found[rule].append(name)
    return found


def where(names):
    """'test_flags 3, tests/test_compat.py 1': how many of *names* each
    module holds, in the order of collect()."""
    counts = collections.Counter(
        name.partition("::")[0] if "::" in name else name.partition(".")[0]
        for name in names)
    return ", ".join(f"{module} {count}" for module, count in counts.items())


def table():
    """The map: a simple table, a row per rule (the last column may run
    past the table's right edge)."""
    found = collect()
    rows = [(str(rule), SUBJECTS[rule], str(len(found[rule])),
             where(found[rule]) or "(none)") for rule in RULES]
    header = ("Rule", "Subject", "Tests", "Where")
    widths = [max(len(row[column]) for row in [header, *rows])
              for column in range(3)]
    border = "  ".join("=" * width for width in widths) + "  " + "=" * 40

    def line(row):
        cells = [cell.ljust(width) for cell, width in zip(row, widths)]
        return "  ".join([*cells, row[3]]).rstrip()

    return "\n".join([border, line(header), border,
                      *map(line, rows), border]) + "\n"


def listing():
    """Every rule's tests, one name a line."""
    found = collect()
    return "".join(f"{rule}: {name}\n" for rule in RULES
                   for name in found[rule])


def check():
    found = collect()
    problems = [f"rule {rule} has no test" for rule in RULES
                if not found[rule]]
    if table() not in README.read_text(encoding="utf-8"):
        problems.append(f"{README} does not hold the current map: replace "
                        f"its table with the output of {sys.argv[0]}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--check", action="store_true",
                        help="exit 1 if tests/README.rst does not hold the "
                             "current map or a rule has no test")
    action.add_argument("--list", action="store_true",
                        help="print the tests of every rule, one a line")
    args = parser.parse_args()
    if args.check:
        return check()
    print(listing() if args.list else table(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
