"""Input of the pytest job of make bench-startup: a few small tests of the
kinds a project has (plain, parametrized, a fixture, a raises, a tmp_path,
an expected failure).  The outcome is always the same."""
import json

import pytest


def slugify(text):
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


@pytest.fixture
def records():
    return [{"id": i, "name": f"item {i}", "tags": ["a", "b"][: i % 3]} for i in range(20)]


def test_slugify_simple():
    assert slugify("Hello, World!") == "hello-world"


@pytest.mark.parametrize("text, expected", [
    ("", ""),
    ("A  B", "a-b"),
    ("Lazy Imports (PEP 690)", "lazy-imports-pep-690"),
    ("ünïcödé", "ünïcödé"),
])
def test_slugify_cases(text, expected):
    assert slugify(text) == expected


def test_records(records):
    tagged = [r for r in records if r["tags"]]
    assert len(tagged) == 13
    assert sum(len(r["tags"]) for r in records) == 19


def test_json_roundtrip(records, tmp_path):
    path = tmp_path / "records.json"
    path.write_text(json.dumps(records, sort_keys=True))
    assert json.loads(path.read_text()) == records


def test_raises():
    with pytest.raises(ZeroDivisionError, match="division"):
        1 / 0


@pytest.mark.xfail(reason="documented limitation", strict=True)
def test_known_limitation():
    assert slugify("a_b") == "a_b"


def test_approx():
    assert sum(0.1 for _ in range(10)) == pytest.approx(1.0)
