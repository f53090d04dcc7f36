print("exec", __name__)
import foo_dep


def get():
    return foo_dep.value
