import unittest
import skipper


class Test(unittest.TestCase):
    def test_uses_skipper(self):
        skipper.attr


# Only Test is loaded: the default loader getattr()s every global of the
# module, which is a first use of skipper too (contract rule 15).
unittest.main(defaultTest="Test")
