"""Self test: the examples of the documentation and a few end-to-end checks.

Run it with ``python -m logtool selftest``.
"""

import doctest
import inspect
import io
import unittest
import unittest.mock

from . import fmt, follow, parse, report

#: The modules whose public functions must have a docstring.
DOCUMENTED_MODULES = (fmt, follow, parse, report)

SAMPLE = (
    '192.0.2.1 - - [04/Mar/2024:09:00:03 +0000] "GET / HTTP/1.1" 200 512'
    ' "-" "curl/8.5.0" 0.004\n'
    '192.0.2.9 - - [04/Mar/2024:10:30:00 +0000] "POST /login HTTP/1.1" 401'
    ' 97 "-" "curl/8.5.0" 0.020\n'
    'not a log line\n'
)


class ReportTest(unittest.TestCase):

    def read_sample(self, strict=False):
        """Return the records of SAMPLE read from stdin, and the reader."""
        reader = parse.LogReader(["-"], strict=strict)
        with unittest.mock.patch("sys.stdin", io.StringIO(SAMPLE)):
            return list(reader), reader

    def test_summary(self):
        records, reader = self.read_sample()
        summary = report.summarize(records)
        self.assertEqual(reader.rejected, 1)
        self.assertEqual(summary["requests"], 2)
        self.assertEqual(summary["errors"], {"4xx": 1, "5xx": 0})
        self.assertEqual(summary["span_seconds"], 5397)
        self.assertEqual(summary["latency_ms"]["max"], 20.0)

    def test_strict_reader(self):
        with self.assertRaises(parse.ParseError) as caught:
            self.read_sample(strict=True)
        self.assertEqual(caught.exception.lineno, 3)

    def test_public_functions_documented(self):
        for module in DOCUMENTED_MODULES:
            for name, function in inspect.getmembers(module,
                                                     inspect.isfunction):
                if (name.startswith("_")
                        or function.__module__ != module.__name__):
                    continue
                with self.subTest(function=f"{module.__name__}.{name}"):
                    self.assertTrue(inspect.getdoc(function))


def run(verbosity=1):
    """Run the self test; return 0 on success and 1 on failure."""
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(ReportTest)
    for module in DOCUMENTED_MODULES:
        suite.addTests(doctest.DocTestSuite(module))
    result = unittest.TextTestRunner(verbosity=verbosity).run(suite)
    return 0 if result.wasSuccessful() else 1
