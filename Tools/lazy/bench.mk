# Benchmark targets (issue 6): bench-micro, bench-startup, bench-pyperformance.
