raise LookupError("raised by a submodule")
