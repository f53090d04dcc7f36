"""Where one bench-micro loop spends its instructions, function by function.

    bench_micro_explain.py [--vanilla PY] [--fork PY] LOOP [-L] [--scale S] [--top N]

Runs the loop LOOP of bench_micro.LOOPS once under callgrind with each interpreter (the fork
with -L when asked) and prints the self cost of the functions whose count differs most,
per unrolled statement.  A difference confined to _PyEval_EvalFrameDefault on a loop that
never reaches patched code is the compiler laying out the evaluation loop differently; a
difference in a patched function (PyDict_GetItemRef, _Py_module_getattro_impl, ...) is the
patch's own cost.
"""
import argparse
import json
import os
import re
import subprocess
import tempfile

import bench_micro
import lazytools

ROW = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?):(\S+)(?:\s|$)")


def self_costs(py, flags, spec_path, so, outdir, name):
    out = os.path.join(outdir, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                    py, *flags, bench_micro.DRIVER, so, spec_path],
                   env=lazytools.clean_env(PYTHONHASHSEED="0"), capture_output=True, check=True)
    for fn in os.listdir(outdir):
        path = os.path.join(outdir, fn)
        with open(path) as f:
            text = f.read()
        if f"Client Request: {name}\n" not in text:
            continue
        total = int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1))
        report = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100",
                                 path], capture_output=True, text=True, check=True).stdout
        costs = {}
        for line in report.splitlines():
            m = ROW.match(line)
            if m and not m.group(3).startswith("*"):
                costs[m.group(3)] = costs.get(m.group(3), 0) + int(m.group(1).replace(",", ""))
        return total, costs
    raise RuntimeError(f"no callgrind dump for {name} in {outdir}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vanilla", default=lazytools.VANILLA_PYTHON)
    ap.add_argument("--fork", default=lazytools.FORK_PYTHON)
    ap.add_argument("loop", choices=sorted(bench_micro.LOOPS))
    ap.add_argument("-L", action="store_true", help="run the fork with -L")
    ap.add_argument("--scale", type=float, default=0.3)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--out", default="build/bench")
    args = ap.parse_args()
    level, n, setup, body = bench_micro.LOOPS[args.loop]
    n = max(1, int(n * args.scale))
    os.makedirs(args.out, exist_ok=True)
    so = bench_micro.build_cgctl(args.out)
    with tempfile.TemporaryDirectory(prefix="bench-explain-") as tmp:
        spec_path = os.path.join(tmp, "spec.json")
        with open(spec_path, "w") as f:
            json.dump([{"name": args.loop, "level": level, "n": n, "setup": setup,
                        "body": body, "unroll": bench_micro.UNROLL}], f)
        res = {}
        for cfg, py, flags in (("vanilla", args.vanilla, []),
                               ("fork", args.fork, ["-L"] if args.L else [])):
            os.mkdir(os.path.join(tmp, cfg))
            res[cfg] = self_costs(py, flags, spec_path, so, os.path.join(tmp, cfg), args.loop)
    stmts = n * bench_micro.UNROLL
    (tv, cv), (tf, cf) = res["vanilla"], res["fork"]
    label = "fork -L" if args.L else "fork"
    print(f"{args.loop}: Ir per statement vanilla {tv / stmts:.1f}, {label} {tf / stmts:.1f} "
          f"({(tf / tv - 1) * 100:+.2f}%; measured region with loop overhead)")
    print(f"{'function (self cost)':48} {'vanilla':>9} {label:>9} {'diff':>8}")
    names = sorted(set(cv) | set(cf), key=lambda k: -abs(cf.get(k, 0) - cv.get(k, 0)))
    for k in names[:args.top]:
        a, b = cv.get(k, 0) / stmts, cf.get(k, 0) / stmts
        if abs(b - a) < 0.005:
            break
        print(f"{k[:48]:48} {a:9.2f} {b:9.2f} {b - a:+8.2f}")


if __name__ == "__main__":
    main()
