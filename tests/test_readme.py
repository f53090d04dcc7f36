"""tests/README.rst maps every SPEC rule to tests of both suites."""

import coverage_map


def test_every_rule_has_tests_in_both_suites():
    found = coverage_map.collect()
    missing = [(rule, suite) for rule in coverage_map.RULES
               for suite, ids in zip(("tests/", "test_lazy_imports"),
                                     found[rule]) if not ids]
    assert not missing


def test_readme_holds_the_current_map():
    readme = (coverage_map.TOP / "tests" / "README.rst").read_text(
        encoding="utf-8")
    assert coverage_map.table() in readme, (
        "tests/README.rst is out of date: replace its table with the output "
        "of python tests/coverage_map.py")
