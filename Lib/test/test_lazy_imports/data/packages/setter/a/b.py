print("exec", __name__)
try:
    import setter.a
finally:
    pass
