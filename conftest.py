"""Root pytest configuration: known gaps of the implementation.

tests/known_failures.txt lists node ids of tests for rules the fork does
not meet yet.  They are marked ``xfail(strict=True)``: they still run, and
one that starts passing fails the run until it is removed from the list.
"""
import pathlib

import pytest

_LIST = pathlib.Path(__file__).parent / "tests" / "known_failures.txt"


def _known_failures():
    if not _LIST.exists():
        return set()
    lines = _LIST.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines
            if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config, items):
    known = _known_failures()
    for item in items:
        if item.nodeid in known:
            item.add_marker(pytest.mark.xfail(
                strict=True, reason="known gap, see tests/known_failures.txt"))
