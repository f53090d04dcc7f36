try:
    raise ExceptionGroup("group", [ValueError()])
except* ValueError:
    import target
print("bound")
