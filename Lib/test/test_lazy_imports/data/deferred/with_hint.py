# An attribute read specialized on an instance dict (LOAD_ATTR_WITH_HINT)
# must resolve a lazy object later stored into that dict: the instance dict
# used as exec globals.
class Namespace:
    pass


namespace = Namespace()
for index in range(30):
    setattr(namespace, f"attribute{index}", index)
namespace.target = None


def get():
    return namespace.target


for _ in range(1000):
    get()
# The lambda reads the name (contract rule 57) and adds no key to the dict.
exec("import target\nlambda: target", vars(namespace))
print("bound")
print(get().value, get().value)
