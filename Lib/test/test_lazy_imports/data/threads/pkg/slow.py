import time

print("exec", __name__, flush=True)
time.sleep(0.2)
value = object()
