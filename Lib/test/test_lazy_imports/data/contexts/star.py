from target import *
print("bound")
