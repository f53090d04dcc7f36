print("exec", __name__)
import target


def get():
    return target.value
