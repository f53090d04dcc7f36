# from pkg import b, c binds two independent lazy objects.
import sys
from pkg import b, c

print("bound")
print(b.value)
print("pkg.c" in sys.modules)
print(c.value)
