"""Compare the stdlib regrtest runs of vanilla, the fork and the fork with -L.

Reads what Tools/lazy/regrtest.sh leaves under build/reports/ for each
configuration (vanilla, fork, fork-L): the full run regrtest-CONFIG.* and
the reruns of a few modules, regrtest-CONFIG.subset-*.*, laid over it when
newer.  Writes build/reports/regrtest.md: per-module status of each run,
totals, pass percentages, the differences between vanilla and the fork
(contract rule 30: there must be none), and for each module failing only
under -L the reason from Tools/lazy/expected-failures-fork-L.txt, or
UNEXPECTED.

    regrtest_report.py [--reports DIR] [--expected FILE] [--output FILE] [--strict]

--strict exits 1 when the fork differs from vanilla or a -L failure is
unexpected.

Where each result comes from, for a run BASE:

BASE.xml (regrtest --junit-xml)
    every test case: its id, and whether it failed, raised or was skipped.
    A <testsuite> names no module: it belongs to the module of BASE.tests
    whose name prefixes most of its test ids (a doctest is named after the
    module it documents, not after the test module).  A module's first
    suite is its first run; later ones are regrtest's re-runs.
BASE.tests (regrtest --list-tests)
    the test modules the run selected.
BASE.log
    the header regrtest.sh writes, and regrtest's summary at the end: the
    modules that failed, changed the environment, were skipped or passed
    only when re-run.  The junit file records test cases, not these
    verdicts on modules, and has nothing for a module whose worker crashed
    or timed out.  The junit file also leaves unnamed a failing subTest
    and an error in a class or module fixture; for those only, the FAIL:
    and ERROR: lines of the log name the test.
"""

import argparse
import collections
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

import lazytools

CONFIGS = [(name, lazytools.LABELS[name]) for name in lazytools.CONFIGS]
EXPECTED = os.path.join(lazytools.TOOLS, "expected-failures-fork-L.txt")

RESULT = re.compile(r"^== Tests result: (.*) ==$")
SECTION = re.compile(r"^(\d+) (?:tests?|re-run tests?)(?: (.*))?:$")
TESTID = re.compile(r"^(?:FAIL|ERROR): \S+ \(([\w.]+)\)")
# What unittest puts before the name of a module it could not load.
LOADER_PREFIXES = ("unittest.loader._FailedTest.", "unittest.loader.ModuleImportFailure.",
                   "unittest.loader.ModuleSkipped.")

SECTIONS = {
    "omitted": "omitted",
    "skipped": "skipped",
    "skipped (resource denied)": "resource denied",
    "run no tests": "no tests",
    "altered the execution environment (env changed)": "env changed",
    "failed": "FAILED",
    "": "re-run",
}

# Statuses that count as "ran"
RAN = {"passed", "passed on re-run", "FAILED", "env changed"}
PASSED = {"passed", "passed on re-run"}
SKIPPED = {"skipped", "resource denied", "no tests"}


def short(mod):
    return mod[len("test."):] if mod.startswith("test.") else mod


def format_failed(errors, failures):
    """A module's first result as regrtest words it: failed (1 error, ...)."""
    parts = [f"{n} {word}{'s' if n > 1 else ''}"
             for n, word in ((errors, "error"), (failures, "failure")) if n]
    return f"failed ({', '.join(parts)})" if parts else "failed"


class ModuleIndex:
    """Finds the test module of BASE.tests that a test id belongs to."""

    def __init__(self, modules):
        self.by_name = {}
        for mod in modules:
            self.by_name["test." + short(mod)] = mod

    def owner(self, test_id):
        for prefix in LOADER_PREFIXES:
            if test_id.startswith(prefix):
                test_id = test_id[len(prefix):]
        if not test_id.startswith("test."):
            test_id = "test." + test_id
        parts = test_id.split(".")
        for i in range(len(parts), 1, -1):
            mod = self.by_name.get(".".join(parts[:i]))
            if mod is not None:
                return mod
        return None


class Run:
    """One regrtest run: BASE.tests, BASE.xml and BASE.log."""

    def __init__(self, base):
        self.base = base
        self.path = base + ".log"
        self.meta = {}
        self.status = {}       # module -> final status
        self.first = {}        # module -> result of its first run
        self.failing_ids = {}  # module -> set of failing test ids
        self.totals = {}
        self.complete = False
        self.overlaid = {}
        self.subsets = []
        with open(base + ".tests", encoding="utf-8") as f:
            self.modules = f.read().split()
        self.index = ModuleIndex(self.modules)
        lines = self.read_log()
        if self.complete:
            self.read_junit(lines)

    def read_log(self):
        """Read the header and regrtest's summary; return the log's lines."""
        with open(self.path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for line in lines:
            if not line.startswith("# ") or ": " not in line:
                continue
            key, _, value = line[2:].partition(": ")
            if key in ("regrtest-config", "python", "python-mtime", "started", "command",
                       "exit-status", "finished", "python-mtime-end"):
                self.meta[key] = value
        last = max((i for i, line in enumerate(lines) if RESULT.match(line)), default=None)
        if last is None:
            return lines
        self.complete = True
        self.meta["result"] = RESULT.match(lines[last]).group(1)
        lists = {}
        current = None
        for line in lines[last + 1:]:
            m = SECTION.match(line)
            if m:
                current = SECTIONS.get(m.group(2) or "")
                if current is not None:
                    lists.setdefault(current, [])
                continue
            if current and line.startswith("    "):
                # "<regrtest worker>" stands for a broken worker, not a module
                lists[current].extend(line.replace("<regrtest worker>", "").split())
                continue
            current = None
            if line.startswith("Total test files:"):
                # "run=476/481 (filtered) failed=6 ...": keep the key=value words
                self.totals["files"] = dict(kv.split("=", 1) for kv in
                                            line.split(":", 1)[1].split() if "=" in kv)
            if line.startswith("Result:"):
                self.meta["result"] = line.split(":", 1)[1].strip()
        for mod in self.modules:
            self.status[mod] = "passed"
        for key in ("omitted", "skipped", "resource denied", "no tests", "env changed"):
            for mod in lists.get(key, ()):
                self.status[mod] = key
        for mod in lists.get("re-run", ()):
            if self.status.get(mod) == "passed":
                self.status[mod] = "passed on re-run"
        for mod in lists.get("FAILED", ()):
            self.status[mod] = "FAILED"
        return lines

    def read_junit(self, lines):
        """Read the test cases of BASE.xml into first and failing_ids."""
        counts = collections.Counter()
        unnamed = collections.Counter()   # module -> failures with no test id
        try:
            root = ET.parse(self.base + ".xml").getroot()
        except (OSError, ET.ParseError) as exc:
            print(f"regrtest-report: {self.base}.xml: {exc}; no test results",
                  file=sys.stderr)
            root = ET.Element("testsuites")
        for suite in root.iter("testsuite"):
            cases = [(case.get("name"), {child.tag for child in case})
                     for case in suite.iter("testcase")]
            owners = collections.Counter(self.index.owner(name) for name, _ in cases if name)
            owners.pop(None, None)
            failed = [name for name, tags in cases if tags & {"failure", "error"}]
            errors, failures = int(suite.get("errors", 0)), int(suite.get("failures", 0))
            counts["tests"] += int(suite.get("tests", 0))
            counts["failures"] += failures
            counts["errors"] += errors
            counts["skipped"] += sum(1 for _, tags in cases if "skipped" in tags)
            if not owners:
                continue
            mod = owners.most_common(1)[0][0]
            if mod not in self.first:
                self.first[mod] = format_failed(errors, failures) if errors + failures else "passed"
            ids = self.failing_ids.setdefault(mod, set())
            ids.update(name for name in failed if name)
            unnamed[mod] += errors + failures - len([name for name in failed if name])
        self.totals["tests"] = {k: str(counts[k])
                                for k in ("tests", "failures", "errors", "skipped")}
        if +unnamed:
            # A failing subTest or a fixture error: only the log names it.
            found = collections.Counter()
            for line in lines:
                m = TESTID.match(line)
                mod = m and self.index.owner(m.group(1))
                if unnamed[mod] and m.group(1) not in self.failing_ids[mod]:
                    self.failing_ids[mod].add(m.group(1))
                    found[mod] += 1
            for mod, n in (+unnamed).items():
                if not found[mod]:
                    self.failing_ids[mod].add(f"({n} failing tests unnamed in the junit file)")
        for mod, status in self.status.items():
            if status in ("FAILED", "env changed", "passed on re-run") and mod not in self.first:
                # no suite: the worker crashed or timed out, or the module did not load
                self.first[mod] = "failed (no test results in the junit file)"
            # a re-run that did not happen (the run broke off) leaves a failed
            # module "omitted": its first result stands
            if status == "omitted" and self.first.get(mod, "").startswith("failed"):
                self.status[mod] = "FAILED"
        for mod in list(self.failing_ids):
            if not self.failing_ids[mod]:
                del self.failing_ids[mod]

    def overlay(self, other):
        """Replace the status of the modules `other` (a newer subset run) ran."""
        for omod, st in other.status.items():
            mod = omod
            # a module the rerun did not get to (omitted, a crashed worker)
            # keeps its result of the full run
            if st == "omitted" or mod.startswith("<"):
                continue
            if mod not in self.status and "test." + mod in self.status:
                mod = "test." + mod      # named test_pkg.test_x on the command line
            self.status[mod] = st
            self.first[mod] = other.first.get(omod, "")
            self.failing_ids[mod] = other.failing_ids.get(omod, set())
            self.overlaid[mod] = other


def load(reports, name):
    base = os.path.join(reports, f"regrtest-{name}")
    if not os.path.exists(base + ".log"):
        return None
    if not os.path.exists(base + ".tests"):
        print(f"regrtest-report: {base}.tests is missing (a run by an older regrtest.sh?); "
              "left out", file=sys.stderr)
        return None
    run = Run(base)
    if not run.complete:
        print(f"regrtest-report: {run.path} has no summary (run still going, or interrupted); "
              "left out", file=sys.stderr)
        return None
    for sub in sorted(glob.glob(base + ".subset-*.log")):
        sub = sub[:-len(".log")]
        if not os.path.exists(sub + ".tests"):
            continue
        srun = Run(sub)
        # a rerun started before the full run is stale
        if srun.complete and srun.meta.get("started", "") > run.meta.get("started", ""):
            run.overlay(srun)
            run.subsets.append(srun)
    return run


def load_expected(path):
    """{name: reason}; name is a module (test_x, test_asyncio.test_y) or a test id."""
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path, encoding="utf-8") as f:
        for line in f:
            body, _, reason = line.partition("#")
            body = body.strip()
            if not body:
                continue
            expected[short(body.split()[0])] = reason.strip() or "(no reason given)"
    return expected


def explain(mod, run, expected):
    """(reason or None, unexplained failing ids) for a module failing under -L."""
    m = short(mod)
    if m in expected:
        return expected[m], []
    ids = sorted(run.failing_ids.get(mod, ()))
    reasons, missing = [], []
    for tid in ids:
        t = short(tid)
        # a class entry covers its methods
        hit = next((expected[k] for k in expected
                    if t == k or t.startswith(k + ".")), None)
        if hit:
            if hit not in reasons:
                reasons.append(hit)
        else:
            missing.append(tid)
    if ids and not missing:
        return "; ".join(reasons), []
    return None, missing or ["(no failing test id in the junit file or the log)"]


def pct(a, b):
    return f"{100.0 * a / b:.2f}%" if b else "n/a"


def summarize(run):
    c = {}
    for st in run.status.values():
        c[st] = c.get(st, 0) + 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reports", default=os.path.join(lazytools.BUILD, "reports"))
    ap.add_argument("--expected", default=EXPECTED)
    ap.add_argument("--output")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    out_path = args.output or os.path.join(args.reports, "regrtest.md")

    runs = {name: load(args.reports, name) for name, _ in CONFIGS}
    expected = load_expected(args.expected)
    present = [(n, label) for n, label in CONFIGS if runs[n] is not None]
    if not present:
        print("regrtest-report: no regrtest runs in", args.reports, file=sys.stderr)
        return 1

    modules = sorted(set().union(*(runs[n].status for n, _ in present)), key=short)
    out = []
    w = out.append
    w("# stdlib regrtest: vanilla / fork / fork -L\n")
    w("Generated by `Tools/lazy/regrtest_report.py` (`make regrtest-report`) from the runs "
      "in `build/reports/` (`make regrtest-vanilla`, `make regrtest-fork`, "
      "`make regrtest-fork-L`): regrtest's junit files, module lists and logs.\n")

    w("## Runs\n")
    w("| run | log | interpreter (mtime) | started | finished | regrtest result | reruns laid over |")
    w("|---|---|---|---|---|---|---|")
    for n, label in present:
        r = runs[n]
        mt = r.meta.get("python-mtime", "?")
        mt_end = r.meta.get("python-mtime-end")
        if mt_end and mt_end != mt:
            mt += f" **rebuilt during the run ({mt_end})**"
        subs = ", ".join(f"`{os.path.basename(s.path)}` ({len(s.status)} modules, "
                         f"interpreter {s.meta.get('python-mtime', '?')})" for s in r.subsets) or "-"
        w(f"| {label} | `{os.path.basename(r.path)}` | `{r.meta.get('python', '?')}` ({mt}) | "
          f"{r.meta.get('started', '?')} | {r.meta.get('finished', '?')} | "
          f"{r.meta.get('result', 'INCOMPLETE')} | {subs} |")
    w("")

    # Totals
    w("## Totals (test modules)\n")
    w("| | " + " | ".join(label for _, label in present) + " |")
    w("|---|" + "---|" * len(present))
    counts = {n: summarize(runs[n]) for n, _ in present}
    rows = ["passed", "passed on re-run", "FAILED", "env changed", "skipped",
            "resource denied", "no tests", "omitted"]
    for st in rows:
        w(f"| {st} | " + " | ".join(str(counts[n].get(st, 0)) for n, _ in present) + " |")
    ran = {n: sum(v for k, v in counts[n].items() if k in RAN) for n, _ in present}
    passed = {n: sum(v for k, v in counts[n].items() if k in PASSED) for n, _ in present}
    w("| **modules run** | " + " | ".join(str(ran[n]) for n, _ in present) + " |")
    w("| **modules passed** | " + " | ".join(f"{passed[n]} ({pct(passed[n], ran[n])})"
                                             for n, _ in present) + " |")
    for key, title in (("tests", "test cases (junit file, full run and re-runs)"),
                       ("files", "test files (Total test files, full run)")):
        w(f"| {title} | " + " | ".join(
            ", ".join(f"{k}={v}" for k, v in runs[n].totals.get(key, {}).items()) or "?"
            for n, _ in present) + " |")
    w("")

    problems = []
    # Vanilla vs fork
    if runs["vanilla"] and runs["fork"]:
        w("## Contract rule 30: vanilla vs fork without -L\n")
        # Modules the fork adds (test_lazy_imports) have no vanilla counterpart.
        fork_only = [m for m in modules if m not in runs["vanilla"].status
                     and m in runs["fork"].status]
        diffs = [m for m in modules if m not in fork_only and
                 runs["vanilla"].status.get(m, "absent") != runs["fork"].status.get(m, "absent")]
        if not diffs:
            w("No difference: every test module has the same status on vanilla and on the fork.\n")
        else:
            w(f"{len(diffs)} module(s) differ:\n")
            w("| module | vanilla | fork |")
            w("|---|---|---|")
            for m in diffs:
                w(f"| {m} | {describe(runs['vanilla'], m)} | {describe(runs['fork'], m)} |")
                if not {runs["vanilla"].status.get(m), runs["fork"].status.get(m)} <= PASSED:
                    problems.append(f"vanilla/fork differ on {m}")
            w("")
        if fork_only:
            w("Test modules only the fork has (not compared): "
              + ", ".join(f"{m} ({describe(runs['fork'], m)})" for m in fork_only) + "\n")
        base_fail = [m for m in modules if runs["vanilla"].status.get(m) in ("FAILED", "env changed")]
        if base_fail:
            w("Modules failing (or changing the environment) on vanilla itself: "
              + ", ".join(f"{m} ({describe(runs['vanilla'], m)})" for m in base_fail) + "\n")

    # -L failures
    if runs["fork-L"]:
        fork_l = runs["fork-L"]
        ref = runs["fork"] or runs["vanilla"]
        w("## Failures of fork -L\n")
        only_l = [m for m in modules if fork_l.status.get(m) in ("FAILED", "env changed")
                  and (ref is None or ref.status.get(m) not in ("FAILED", "env changed"))]
        both = [m for m in modules if fork_l.status.get(m) in ("FAILED", "env changed")
                and m not in only_l]
        n_expected = 0
        if only_l:
            w("Modules failing only under -L, with the reason from "
              f"`{os.path.relpath(args.expected, lazytools.ROOT)}`:\n")
            w("| module | fork -L | reason |")
            w("|---|---|---|")
            for m in only_l:
                reason, missing = explain(m, fork_l, expected)
                if reason:
                    n_expected += 1
                    w(f"| {m} | {describe(fork_l, m)} | expected: {reason} |")
                else:
                    problems.append(f"unexpected -L failure: {m}")
                    w(f"| {m} | {describe(fork_l, m)} | **UNEXPECTED** "
                      f"({', '.join('`%s`' % t for t in missing[:8])}"
                      f"{' ...' if len(missing) > 8 else ''}) |")
            w("")
        else:
            w("No module fails only under -L.\n")
        if both:
            w("Failing under -L and without -L too (not counted against -L): "
              + ", ".join(both) + "\n")
        r = ran["fork-L"]
        p = passed["fork-L"]
        w("### fork -L pass rate\n")
        w(f"- modules run by fork -L: {r}")
        w(f"- passed: {p} ({pct(p, r)})")
        w(f"- passed or failing for an explained (expected) reason: {p + n_expected} "
          f"({pct(p + n_expected, r)})")
        w(f"- failing only under -L, UNEXPECTED: {len(only_l) - n_expected}")
        w(f"- failing under -L and on the fork without -L too: {len(both)}\n")

    # Full table
    w("## Per-module status\n")
    w("| module | " + " | ".join(label for _, label in present) + " |")
    w("|---|" + "---|" * len(present))
    for m in modules:
        w(f"| {m} | " + " | ".join(describe(runs[n], m) for n, _ in present) + " |")
    w("")

    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    line = "; ".join(f"{label}: {passed[n]}/{ran[n]} modules passed, "
                     f"{counts[n].get('FAILED', 0)} failed, "
                     f"{sum(counts[n].get(k, 0) for k in SKIPPED)} skipped"
                     for n, label in present)
    print(f"regrtest-report: {out_path}: {line}")
    for p in problems:
        print(f"regrtest-report: {p}")
    return 1 if (args.strict and problems) else 0


def describe(run, mod):
    if run is None:
        return "-"
    st = run.status.get(mod)
    if st is None:
        return "not run"
    text = st
    first = run.first.get(mod, "")
    if st == "passed on re-run":
        text += f" (first: {first})"
    elif st in ("FAILED", "env changed") and first.startswith("failed ("):
        text += f" ({first[len('failed ('):-1]})"
    if mod in run.overlaid:
        text += " [rerun]"
    return text


if __name__ == "__main__":
    sys.exit(main())
