# Debug and sanitizer targets: pydebug build + refleaks, ASAN build.  make
# test builds `debug` and runs the fork's own suite with -R 3:3 on it; the
# other targets are not part of it.
#
# The debug and ASAN interpreters are built from DEBUG_SRC, by default a tree
# made from the committed patch queue and own files (Tools/lazy/debug-src.sh),
# so that they do not pick up edits in progress in $(SRC).  Point them at
# another tree with e.g. 'make debug DEBUG_SRC=build/src'.

SNAP      := $(BUILD)/src-snap
DEBUG_SRC ?= $(SNAP)
DEBUG     := $(BUILD)/debug
ASAN      := $(BUILD)/asan
PY_DEBUG  := $(DEBUG)/python
PY_ASAN   := $(ASAN)/python

.PHONY: src-snap debug refleaks asan asan-test

src-snap:
	@if [ "$(DEBUG_SRC)" = "$(SNAP)" ]; then sh $(T)/debug-src.sh $(SNAP); fi

# Interpreter built --with-pydebug (sys.gettotalrefcount, assertions).
debug: deps src-snap  ## the fork built --with-pydebug, $(PY_DEBUG)
	@sh $(T)/build.sh $(DEBUG_SRC) $(DEBUG) --with-pydebug

# AddressSanitizer build; pymalloc off so that ASAN sees every allocation.
# LeakSanitizer is off: CPython does not free everything at exit.
asan: deps src-snap  ## the fork built with AddressSanitizer, $(PY_ASAN)
	@ASAN_OPTIONS=detect_leaks=0 sh $(T)/build.sh $(DEBUG_SRC) $(ASAN) \
		--with-address-sanitizer --without-pymalloc

# regrtest -R on the suites that touch the patched code, without and with -L,
# and the in-process leak check (Lib/test/test_lazy_imports/test_refleaks.py).
REFLEAK_TESTS ?= test_lazy_imports test_dict test_import test_importlib
refleaks: debug  ## regrtest -R 3:3 of REFLEAK_TESTS on the debug build, fork and fork -L
	@sh $(T)/debug-refleaks.sh $(PY_DEBUG) $(REPORTS)/refleaks $(REFLEAK_TESTS)

# test_lazy_imports and test_dict (without and with -L), the in-process
# scenarios and the thread stress driver under ASAN.
ASAN_TESTS ?= test_lazy_imports test_dict
asan-test: asan  ## ASAN_TESTS, test_refleaks and the thread stress on the ASAN build
	@sh $(T)/asan-test.sh $(PY_ASAN) $(REPORTS)/asan $(ASAN_TESTS)
