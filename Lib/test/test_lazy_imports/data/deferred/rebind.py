# Deleting or rebinding a lazy name never imports anything.
import sys
import target
import target as other
import holder

del target
other = 1
holder.__name__
holder.target = 2
print("target" in sys.modules)


def _uses():
    return target, other
