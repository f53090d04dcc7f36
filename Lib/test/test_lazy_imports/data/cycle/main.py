import holder

for attempt in 1, 2:
    try:
        holder.get()
    except ImportError as exc:
        print("ImportError", "target" in str(exc))
print("done")
