# eager_imports() is lexical: outer is eager, outer's own imports are not,
# nor is the code exec() runs inside the block.
import importlib

namespace = {}
with importlib.eager_imports():
    import outer
    exec("import dynamic\ndef uses(): return dynamic", namespace)
print("after with")
import target
print("bound")
outer.get()
target.value
namespace["dynamic"]
