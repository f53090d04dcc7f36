"""Compare the stdlib regrtest runs of vanilla, the fork and the fork with -L.

Reads the logs Tools/lazy/regrtest.sh saves under build/reports/:
regrtest-{vanilla,fork,lazy}.log (full runs) and regrtest-NAME.subset-*.log
(reruns of a few modules, laid over the full run when newer), and writes
build/reports/regrtest.md: per-module status of each run, totals, pass
percentages, the differences between vanilla and the fork (contract rule 30:
there must be none), and for each module failing only under -L the reason
from Lib/test/lazy_imports_expected_failures.txt, or UNEXPECTED.

    regrtest_report.py [--reports DIR] [--expected FILE] [--output FILE] [--strict]

--strict exits 1 when the fork differs from vanilla or a -L failure is
unexpected.
"""

import argparse
import glob
import os
import re
import sys

CONFIGS = [("vanilla", "vanilla"), ("fork", "fork"), ("lazy", "fork -L")]

PROGRESS = re.compile(
    r"^(?:\d+:\d\d:\d\d )?(?:load avg: [\d.]+ )?\[\s*(\d+)/(\d+)(?:/\d+)?\] (\S+) (.*)$")
RUN_N = re.compile(r"^(?:\d+:\d\d:\d\d )?(?:load avg: [\d.]+ )?Run (\d+) tests? ")
RERUN_START = re.compile(r"Re-running \d+ failed tests? in verbose mode")
RESULT = re.compile(r"^== Tests result: (.*) ==$")
SECTION = re.compile(r"^(\d+) (?:tests?|re-run tests?)(?: (.*))?:$")
TESTID = re.compile(r"^(FAIL|ERROR): \S+ \(([\w.]+)\)")
TESTID_SUB = re.compile(r"^(FAIL|ERROR): \S+ \(([\w.]+)\) \((.*)\)$")

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


class Run:
    """One regrtest log parsed."""

    def __init__(self, path):
        self.path = path
        self.meta = {}
        self.status = {}       # module -> final status
        self.first = {}        # module -> outcome text of the first run
        self.rerun_text = {}   # module -> outcome text of the re-run
        self.failing_ids = {}  # module -> set of failing test ids
        self.totals = {}
        self.complete = False
        self.parse()

    def parse(self):
        with open(self.path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        total = None
        rerun = False
        last_result = None
        ids = []               # (test id, module of the last progress line)
        current = None
        for i, line in enumerate(lines):
            if line.startswith("# ") and ": " in line and not self.status:
                k, _, v = line[2:].partition(": ")
                self.meta[k] = v
            elif line.startswith("# exit-status:") or line.startswith("# finished:") \
                    or line.startswith("# python-mtime-end:"):
                k, _, v = line[2:].partition(": ")
                self.meta[k] = v
            m = RUN_N.match(line)
            if m and total is None:
                total = m.group(1)
            if RERUN_START.search(line):
                rerun = True
            m = PROGRESS.match(line)
            if m and (m.group(2) == total or rerun):
                name, text = m.group(3), m.group(4)
                text = re.sub(r" -- running.*$", "", text)
                text = re.sub(r" \((?:\d+ min )?\d+(?:\.\d+)? (?:sec|ms)\)$", "", text)
                (self.rerun_text if rerun else self.first).setdefault(name, text)
                current = name
            m = TESTID.match(line)
            if m:
                tid = m.group(2)
                for prefix in ("unittest.loader._FailedTest.", "unittest.loader.ModuleImportFailure."):
                    if tid.startswith(prefix):
                        tid = tid[len(prefix):]
                ids.append((tid, current))
            if RESULT.match(line):
                last_result = i
        if last_result is None:
            return
        self.complete = True
        self.meta["result"] = RESULT.match(lines[last_result]).group(1)
        lists = {}
        current = None
        for line in lines[last_result + 1:]:
            m = SECTION.match(line)
            if m:
                current = SECTIONS.get(m.group(2) or "")
                if current is not None:
                    lists.setdefault(current, [])
                continue
            if current and line.startswith("    "):
                # "<regrtest worker>" stands for a broken worker, not a module
                lists[current].extend(t for t in line.replace("<regrtest worker>", "").split())
                continue
            current = None
            if line.startswith("Total tests:") or line.startswith("Total test files:"):
                key = "tests" if line.startswith("Total tests:") else "files"
                # "run=476/481 (filtered) failed=6 ...": keep the key=value words
                self.totals[key] = dict(kv.split("=", 1) for kv in line.split(":", 1)[1].split()
                                        if "=" in kv)
            if line.startswith("Result:"):
                self.meta["result"] = line.split(":", 1)[1].strip()
        for mod in self.first:
            self.status[mod] = "passed"
        for mod in self.rerun_text:
            self.status.setdefault(mod, "passed")
        for key in ("omitted", "skipped", "resource denied", "no tests", "env changed"):
            for mod in lists.get(key, ()):
                self.status[mod] = key
        for mod in lists.get("re-run", ()):
            if self.status.get(mod) == "passed":
                self.status[mod] = "passed on re-run"
        for mod in lists.get("FAILED", ()):
            self.status[mod] = "FAILED"
        # a re-run that did not happen (the run broke off) leaves a failed
        # module "omitted": its first result stands
        for mod, st in self.status.items():
            if st == "omitted" and self.first.get(mod, "").startswith(("failed", "worker", "timed")):
                self.status[mod] = "FAILED"
        # Attribute failing test ids to modules (longest module-name prefix).
        mods = sorted(self.status, key=len, reverse=True)
        # In -j mode a worker's output follows its progress line, so a test id
        # that names no module (test_datetime runs test.datetimetester) goes
        # to the module of the last progress line.
        for tid, cur in ids:
            owner = next((mod for mod in mods if tid == mod or tid.startswith(mod + ".")
                          or ("test." + tid).startswith(mod + ".")), cur)
            if owner:
                self.failing_ids.setdefault(owner, set()).add(tid)

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
            if omod in other.rerun_text:
                self.rerun_text[mod] = other.rerun_text[omod]
            else:
                self.rerun_text.pop(mod, None)
            self.failing_ids[mod] = other.failing_ids.get(omod, set())
            self.overlaid[mod] = other


def load(reports, name):
    path = os.path.join(reports, f"regrtest-{name}.log")
    if not os.path.exists(path):
        return None
    run = Run(path)
    if not run.complete:
        print(f"regrtest-report: {path} has no summary (run still going, or interrupted); "
              "left out", file=sys.stderr)
        return None
    run.overlaid = {}
    subsets = sorted(glob.glob(os.path.join(reports, f"regrtest-{name}.subset-*.log")))
    run.subsets = []
    for sub in subsets:
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
    return None, missing or ["(no failing test id found in the log)"]


def pct(a, b):
    return f"{100.0 * a / b:.2f}%" if b else "n/a"


def summarize(run):
    c = {}
    for st in run.status.values():
        c[st] = c.get(st, 0) + 1
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reports", default="build/reports")
    ap.add_argument("--expected", default="Lib/test/lazy_imports_expected_failures.txt")
    ap.add_argument("--output")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    out_path = args.output or os.path.join(args.reports, "regrtest.md")

    runs = {name: load(args.reports, name) for name, _ in CONFIGS}
    expected = load_expected(args.expected)
    present = [(n, label) for n, label in CONFIGS if runs[n] is not None]
    if not present:
        print("regrtest-report: no regrtest logs in", args.reports, file=sys.stderr)
        return 1

    modules = sorted(set().union(*(runs[n].status for n, _ in present)), key=short)
    out = []
    w = out.append
    w("# stdlib regrtest: vanilla / fork / fork -L\n")
    w("Generated by `Tools/lazy/regrtest_report.py` (`make regrtest-report`) from the logs "
      "in `build/reports/` (`make regrtest-vanilla`, `make regrtest`, `make regrtest-lazy`).\n")

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
    for key, title in (("tests", "tests (Total tests, full run)"),
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
    if runs["lazy"]:
        lazy = runs["lazy"]
        ref = runs["fork"] or runs["vanilla"]
        w("## Failures under -L\n")
        only_l = [m for m in modules if lazy.status.get(m) in ("FAILED", "env changed")
                  and (ref is None or ref.status.get(m) not in ("FAILED", "env changed"))]
        both = [m for m in modules if lazy.status.get(m) in ("FAILED", "env changed")
                and m not in only_l]
        n_expected = 0
        if only_l:
            w("Modules failing only under -L, with the reason from "
              "`Lib/test/lazy_imports_expected_failures.txt`:\n")
            w("| module | fork -L | reason |")
            w("|---|---|---|")
            for m in only_l:
                reason, missing = explain(m, lazy, expected)
                if reason:
                    n_expected += 1
                    w(f"| {m} | {describe(lazy, m)} | expected: {reason} |")
                else:
                    problems.append(f"unexpected -L failure: {m}")
                    w(f"| {m} | {describe(lazy, m)} | **UNEXPECTED** "
                      f"({', '.join('`%s`' % t for t in missing[:8])}"
                      f"{' ...' if len(missing) > 8 else ''}) |")
            w("")
        else:
            w("No module fails only under -L.\n")
        if both:
            w("Failing under -L and without -L too (not counted against -L): "
              + ", ".join(both) + "\n")
        r = ran["lazy"]
        p = passed["lazy"]
        w("### -L pass rate\n")
        w(f"- modules run under -L: {r}")
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
    elif st in ("FAILED", "env changed") and first:
        detail = re.sub(r"^failed \((.*)\)$", r"\1", first)
        text += f" ({detail})"
    if mod in getattr(run, "overlaid", {}):
        text += " [rerun]"
    return text


if __name__ == "__main__":
    sys.exit(main())
