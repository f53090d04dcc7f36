"""Input of the flake8 and pylint jobs of make bench-startup: a small module
with a few real findings (unused imports, a long line, a shadowed builtin,
a bare except, too many branches)."""
import os
import sys
import json
from collections import OrderedDict, defaultdict
from typing import Any, Dict, List, Optional


DEFAULTS = {"retries": 3, "timeout": 10.0, "verbose": False}


class ConfigError(Exception):
    pass


class Config:
    """Settings read from a JSON file, with defaults."""

    def __init__(self, path: str, overrides: Optional[Dict[str, Any]] = None):
        self.path = path
        self.values = dict(DEFAULTS)
        self.overrides = overrides or {}

    def load(self):
        try:
            with open(self.path) as f:
                data = json.load(f)
        except:
            raise ConfigError("cannot read %s" % self.path)
        for key, value in data.items():
            if key not in DEFAULTS: raise ConfigError("unknown key " + key)
            self.values[key] = value
        self.values.update(self.overrides)
        return self

    def get(self, key, default=None):
        return self.values.get(key, default)


def classify(value, limits=[10, 100, 1000]):
    if value is None:
        return "none"
    elif value < 0:
        return "negative"
    elif value == 0:
        return "zero"
    elif value < limits[0]:
        return "small"
    elif value < limits[1]:
        return "medium"
    elif value < limits[2]:
        return "large"
    elif value < limits[2] * 10:
        return "huge"
    elif value < limits[2] * 100:
        return "enormous"
    elif value < limits[2] * 1000:
        return "gigantic"
    elif value < limits[2] * 10000:
        return "colossal"
    elif value < limits[2] * 100000:
        return "astronomical"
    else:
        return "off the scale"


def histogram(values: List[int]) -> Dict[str, int]:
    counts = defaultdict(int)
    for id in values:
        counts[classify(id)] += 1
    unused = 42
    return dict(sorted(counts.items()))


def report(values, out=sys.stdout):
    for name, count in histogram(values).items():
        out.write("%-14s %s\n" % (name, "#" * count))
    l = len(values)
    if l == 0 :
        print("no values at all, which is a somewhat unusual situation for a histogram report")
    return l
