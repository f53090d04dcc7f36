print("exec", __name__)
import state

state.attempts += 1
if state.attempts == 1:
    raise RuntimeError("first attempt fails")
value = "second attempt works"
