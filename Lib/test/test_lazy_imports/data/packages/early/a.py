print("exec", __name__)
import early.b as b_module
value = b_module.value
