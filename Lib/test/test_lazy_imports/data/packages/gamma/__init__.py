print("exec", __name__)
# Binds gamma.a to the module gamma.a.a, over the submodule gamma.a.
from gamma.a import a
