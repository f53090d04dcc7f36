# Threads reaching one lazy submodule at once: one body run, one object.
import threading
import pkg.slow

THREADS = 8
barrier = threading.Barrier(THREADS)
results = []


def worker():
    barrier.wait()
    results.append(pkg.slow.value)


threads = [threading.Thread(target=worker) for _ in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join(60)
print(any(thread.is_alive() for thread in threads))
print(len(results), len({id(result) for result in results}))
