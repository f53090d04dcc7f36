try:
    import target
except ImportError:
    raise
print("bound")
