# Test targets beyond make test: long fuzzing of the differential
# property test, stdlib suites on fork -L, third-party suites on the fork
# and on fork -L, the thread stress with many trials, and stock binary
# wheels.
#
# make test-differential  test_lazy_imports.test_differential with
#                         hypothesis (the venv's interpreter),
#                         DIFFERENTIAL_EXAMPLES programs (default 300)
# make fuzz               the same with FUZZ_EXAMPLES programs (default 5000),
#                         random seeds, example database (.hypothesis/) and
#                         shrinking (hypothesis profile "explore"), then the
#                         same programs on the fork and on vanilla, both
#                         without -L (tests/test_compat.py)
# make test-stdlib-fork-L STDLIB_FORK_L_TESTS under $(PY_FORK) -L -m test
#                         -j$(STDLIB_FORK_L_JOBS); prints how many passed
# make test-thirdparty    the own pytest suites of the libraries pinned in
#                         bench/thirdparty/libraries.toml, each in a venv of
#                         $(PY_FORK) under build/thirdparty/, run on fork and
#                         fork -L: every test id must have the same outcome
#                         (report: build/reports/thirdparty.md).  Downloads
#                         once into build/thirdparty/cache; THIRDPARTY=
#                         "attrs click" runs only those, THIRDPARTY_OPTS adds
#                         options (--offline, --jobs N, --timeout S)
#
# The differential test batches LAZY_DIFFERENTIAL_BATCH (default 25)
# generated programs into one pair of interpreter runs.

DIFFERENTIAL_EXAMPLES ?= 300
FUZZ_EXAMPLES ?= 5000
STDLIB_FORK_L_JOBS ?= 2
THIRDPARTY ?=
THIRDPARTY_OPTS ?=

# Stdlib suites that import a lot, lazily or through importlib, or exercise
# common libraries whose modules import each other at start-up.
STDLIB_FORK_L_TESTS ?= test_json test_logging test_argparse test_unittest \
	test_email test_http_cookies test_csv test_pathlib test_textwrap \
	test_collections test_functools test_typing test_dataclasses test_enum \
	test_inspect test_pydoc test_importlib test_pkgutil test_runpy \
	test_zipimport test_tomllib test_configparser test_urlparse test_datetime \
	test_decimal test_fractions test_statistics test_difflib test_pprint \
	test_string test_tempfile test_shutil test_contextlib test_abc \
	test_warnings test_traceback

PYTEST_ENV = FORK_PYTHON="$(CURDIR)/$(PY_FORK)" \
	VANILLA_PYTHON="$(CURDIR)/$(PY_VANILLA)"

.PHONY: test-differential fuzz test-stdlib-fork-L test-thirdparty

test-differential: build venv  ## the differential test with hypothesis, DIFFERENTIAL_EXAMPLES programs
	$(CLEAN_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(DIFFERENTIAL_EXAMPLES) \
	    $(VENV)/bin/python -m test -v test_lazy_imports.test_differential

fuzz: build vanilla venv  ## the differential tests with FUZZ_EXAMPLES random programs and shrinking
	$(CLEAN_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(FUZZ_EXAMPLES) \
	    LAZY_HYPOTHESIS_PROFILE=explore \
	    $(VENV)/bin/python -m test -v test_lazy_imports.test_differential \
	    -m test_lazy_run_matches_eager_run
	$(PYTEST_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(FUZZ_EXAMPLES) \
	    LAZY_HYPOTHESIS_PROFILE=explore \
	    $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	    tests/test_compat.py -k eager_run_matches_stock

test-stdlib-fork-L: build  ## STDLIB_FORK_L_TESTS (36 stdlib suites) on fork -L; prints the pass count
	@mkdir -p $(REPORTS)
	@log=$(REPORTS)/stdlib-fork-L.log; \
	$(CLEAN_ENV) $(PY_FORK) -L -m test -j$(STDLIB_FORK_L_JOBS) --timeout 900 \
	    $(STDLIB_FORK_L_TESTS) >$$log 2>&1; status=$$?; \
	tail -n 25 $$log; \
	total=$$(echo $(STDLIB_FORK_L_TESTS) | wc -w); \
	failed=$$(grep '^Total test files:' $$log | grep -o 'failed=[0-9]*' | cut -d= -f2); \
	echo "test-stdlib-fork-L: $$((total - $${failed:-0})) of $$total test modules passed on fork -L (log: $$log)"; \
	exit $$status

test-thirdparty: build  ## third-party pytest suites on fork and fork -L: same outcome per test
	@$(PY_FORK) $(T)/thirdparty.py --python $(PY_FORK) \
	    --workdir $(BUILD)/thirdparty --report $(REPORTS)/thirdparty.md \
	    $(THIRDPARTY_OPTS) $(THIRDPARTY)

.PHONY: stress wheels

# Thread stress of lazy import resolution (test_thread_stress of
# test_lazy_imports.test_errors, contract rule 27) with many more trials
# than make test runs; STRESS_SECONDS bounds each kind's run time.  Uses
# the existing $(PY_FORK) (built when missing).
STRESS_TRIALS  ?= 1000
STRESS_THREADS ?= 8
STRESS_SECONDS ?= 90
stress:  ## the thread stress test with STRESS_TRIALS trials per kind
	@[ -x $(PY_FORK) ] || $(MAKE) build
	@mkdir -p $(REPORTS)
	@$(CLEAN_ENV) \
		LAZY_STRESS_TRIALS=$(STRESS_TRIALS) LAZY_STRESS_THREADS=$(STRESS_THREADS) \
		LAZY_STRESS_SECONDS=$(STRESS_SECONDS) \
		$(PY_FORK) -m test -v --junit-xml $(REPORTS)/stress.xml \
		test_lazy_imports.test_errors -m test_thread_stress

# Stock cp313 binary wheels (tests/wheels/requirements.txt) in venvs of the
# fork and of vanilla: tests/wheels/wheel_check.py must print the same on
# vanilla, the fork, and the fork with -L.  Uses the existing interpreters.
WHEELS_VENV         := $(BUILD)/wheels-venv
WHEELS_VENV_VANILLA := $(BUILD)/wheels-venv-vanilla
wheels:  ## stock cp313 binary wheels on vanilla, fork and fork -L: same output
	@[ -x $(PY_FORK) ] || $(MAKE) build
	@[ -x $(PY_VANILLA) ] || $(MAKE) vanilla
	@sh $(T)/wheels.sh $(PY_FORK) $(PY_VANILLA) $(WHEELS_VENV) \
		$(WHEELS_VENV_VANILLA) $(REPORTS)/wheels.txt
