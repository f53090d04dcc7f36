import importlib
import sys
import state
import flaky

for attempt in 1, 2:
    try:
        print(flaky.value)
    except RuntimeError as exc:
        print("failed:", exc)
        print("flaky" in sys.modules,
              importlib.is_lazy_import(globals(), "flaky"))
print(state.attempts)
