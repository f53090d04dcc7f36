# A function specialized on a global (LOAD_GLOBAL_MODULE) must resolve a
# lazy object later stored into the same key.
target = None


def get():
    return target


for _ in range(1000):
    get()
import target
print("bound")
print(get().value)
