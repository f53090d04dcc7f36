# Debug and sanitizer targets (issue 5): pydebug build + refleaks, ASAN build, stress, wheels.
