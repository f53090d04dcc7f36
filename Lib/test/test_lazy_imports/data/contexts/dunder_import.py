__import__("target")
print("bound")
