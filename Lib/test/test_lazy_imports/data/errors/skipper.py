import unittest

raise unittest.SkipTest("not here")
