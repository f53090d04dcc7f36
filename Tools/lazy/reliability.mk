# Reliability targets (issue 5): regrtest reports, debug/ASAN builds, stress, wheels.
