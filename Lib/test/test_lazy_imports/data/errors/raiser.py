print("exec", __name__)
raise LookupError("raised by the module body")
