import unittest
import skipper


class Test(unittest.TestCase):
    def test_uses_skipper(self):
        skipper.attr


unittest.main()
