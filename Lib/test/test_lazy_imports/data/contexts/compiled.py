# Compiled, never run, by the tests of contract rules 8-10 at the bytecode
# level: names imported by statements the compiler must mark as possibly
# lazy start with "lazy" (and `from . import lazy4`), the others with "eager".
import lazy1
import lazy2.sub as lazy2_sub
from lazy3 import name3
from . import lazy4
if x:
    import lazy5
for i in y:
    import lazy6
while z:
    import lazy7
    break
match m:
    case 1:
        import lazy8
try:
    import eager1
except ImportError:
    import eager2
else:
    import eager3
finally:
    import eager4
try:
    pass
except* ValueError:
    import eager5
with m:
    import eager6
    if x:
        import eager7
with importlib.eager_imports():
    import eager8
from eager9 import *
def f():
    import eager10
    from eager11 import name
class C:
    import eager12
async def g():
    async with m:
        import eager13
import lazy9
