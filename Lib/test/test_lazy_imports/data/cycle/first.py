import second


def get():
    return second.value
