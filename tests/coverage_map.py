"""The rule to test map of README.rst, computed from the test sources.

pytest tests name their rules (``test_r12_...``, ``test_r8_r12_r15_...``);
test_lazy_imports tests say them in a comment on one of the three lines
after the ``def`` (``# Rule 12``, ``# Rules 8-10``).  ``python
tests/coverage_map.py`` prints the table; test_readme.py checks that
README.rst holds it and that every rule has tests in both suites.
"""

import collections
import re
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
PACKAGE = TOP / "Lib" / "test" / "test_lazy_imports"
RULES = range(1, 33)

SUBJECTS = {
    1: "``-L`` from the first import; ``--help``, man page",
    2: "``sys.flags.lazy_imports``", 3: "children inherit -L",
    4: "set_lazy_imports()", 5: "is_lazy_imports_enabled()",
    6: "per interpreter state",
    7: "PEP 810 spellings: ``-X lazy_imports``, ``PYTHON_LAZY_IMPORTS``",
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
}


def rule_numbers(text):
    numbers = set()
    for part in re.split(r"[ ,]+", text.strip()):
        if "-" in part:
            first, last = part.split("-")
            numbers.update(range(int(first), int(last) + 1))
        elif part.isdigit():
            numbers.add(int(part))
    return numbers


def collect():
    """{rule: ([pytest node ids], [regrtest test names])}."""
    found = collections.defaultdict(lambda: ([], []))
    for path in sorted((TOP / "tests").glob("test_*.py")):
        for match in re.finditer(r"^def (test_(r\d+(?:_r\d+)*)_\w+)\(",
                                 path.read_text(encoding="utf-8"), re.M):
            for number in re.findall(r"r(\d+)", match.group(2)):
                found[int(number)][0].append(
                    f"tests/{path.name}::{match.group(1)}")
    for path in sorted(PACKAGE.glob("test_*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        cls = None
        for index, line in enumerate(lines):
            if match := re.match(r"class (\w+)\(", line):
                cls = match.group(1)
            if match := re.match(r"    def (test_\w+)\(", line):
                for following in lines[index + 1:index + 4]:
                    if rules := re.search(r"# Rules? ([\d ,\-]+)", following):
                        for number in rule_numbers(rules.group(1)):
                            found[number][1].append(
                                f"{path.stem}.{cls}.{match.group(1)}")
                        break
    return found


def table():
    found = collect()
    lines = [".. list-table::", "   :header-rows: 1",
             "   :widths: 4 16 40 40", "",
             "   * - Rule", "     - Subject", "     - tests/ (pytest)",
             "     - Lib/test/test_lazy_imports (regrtest)"]
    for rule in RULES:
        pytest_ids, regrtest_ids = found[rule]
        lines += [f"   * - {rule}", f"     - {SUBJECTS[rule]}"]
        for ids in (pytest_ids, regrtest_ids):
            cell = [f"* ``{name}``" for name in ids] or ["(none)"]
            lines.append("     - " + cell[0])
            lines += ["       " + item for item in cell[1:]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(table(), end="")
