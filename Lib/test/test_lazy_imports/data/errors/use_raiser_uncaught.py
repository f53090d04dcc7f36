import raiser
print("bound")
raiser.attr
