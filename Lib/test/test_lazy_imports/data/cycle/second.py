import first

value = first.get()
