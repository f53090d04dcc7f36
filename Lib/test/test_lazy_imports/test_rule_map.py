"""Every contract rule has tests, and tests/README.rst maps them.

The map is the output of the repository's tests/coverage_map.py; this test
runs it with --check.  The test package is symlinked into the source tree
from the repository, so the repository is found through the real path of
this file; outside a checkout the test is skipped.
"""

import os
import unittest

from test.support.script_helper import assert_python_ok

TOOL = os.path.join(os.path.dirname(os.path.realpath(__file__)),
                    os.pardir, os.pardir, os.pardir, "tests", "coverage_map.py")


class RuleMapTests(unittest.TestCase):

    @unittest.skipUnless(os.path.isfile(TOOL), "not run from a checkout")
    def test_readme_holds_the_current_map(self):
        # The tool says which rule lacks a test, or that the table is stale.
        result = assert_python_ok(TOOL, "--check")
        self.assertEqual(result.err, b"")


if __name__ == "__main__":
    unittest.main()
