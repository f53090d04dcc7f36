import target


def get():
    return target
