"""What the benchmark scripts of Tools/lazy share: the geometric mean, and writing a report
as OUT/BASE.txt (the printed table) and OUT/BASE.json (the raw figures)."""
import json
import math
import os


def geomean(xs):
    xs = list(xs)
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def write_report(out, base, text, data):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, base + ".txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out, base + ".json"), "w") as f:
        json.dump(data, f, indent=1)
    print(f"results: {out}/{base}.txt, {base}.json")
