# Imports of an imported module's body are lazy; the first read from a
# function (LOAD_GLOBAL) resolves them.
import holder

holder.__name__
print("holder imported")
print(holder.get())
