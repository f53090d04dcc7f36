print("exec", __name__)
import inner


def get():
    return inner.value
