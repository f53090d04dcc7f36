# Threads reaching one lazy name at once: one body run, one object.
#   main.py [import | from | submodule]: the form of the import of slow
import sys
import threading

form = sys.argv[1] if sys.argv[1:] else "import"
if form == "import":
    import slow

    def get():
        return slow.value
elif form == "from":
    from slow import value

    def get():
        return value
else:
    import pkg.slow

    def get():
        return pkg.slow.value

THREADS = 8
barrier = threading.Barrier(THREADS)
results = []


def worker():
    barrier.wait()
    results.append(get())


threads = [threading.Thread(target=worker) for _ in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(60)
print(any(thread.is_alive() for thread in threads))
print(len(results), len({id(result) for result in results}))
print(results[0] is get())
