# Test targets beyond make test: long fuzzing of the differential
# property test, and stdlib suites run with lazy imports on.
#
# make test-differential  test_lazy_imports.test_differential with
#                         hypothesis (the venv's interpreter),
#                         DIFFERENTIAL_EXAMPLES programs (default 300)
# make fuzz               the same with FUZZ_EXAMPLES programs (default 5000),
#                         random seeds, example database (.hypothesis/) and
#                         shrinking (hypothesis profile "explore"), then the
#                         same programs on the fork and on vanilla, both
#                         without -L (tests/test_compat.py)
# make test-lazy-stdlib   LAZY_STDLIB_TESTS under $(PY_LAZY) -L -m test
#                         -j$(LAZY_STDLIB_JOBS); prints how many passed
# make test-thirdparty    the own pytest suites of the libraries pinned in
#                         bench/thirdparty/libraries.toml, each in a venv of
#                         $(PY_LAZY) under build/thirdparty/, run eagerly and
#                         with -L: every test id must have the same outcome
#                         (report: build/reports/thirdparty.md).  Downloads
#                         once into build/thirdparty/cache; THIRDPARTY=
#                         "attrs click" runs only those, THIRDPARTY_OPTS adds
#                         options (--offline, --jobs N, --timeout S)
#
# The differential test batches LAZY_DIFFERENTIAL_BATCH (default 25)
# generated programs into one pair of interpreter runs.

DIFFERENTIAL_EXAMPLES ?= 300
FUZZ_EXAMPLES ?= 5000
LAZY_STDLIB_JOBS ?= 2
THIRDPARTY ?=
THIRDPARTY_OPTS ?=

# Stdlib suites that import a lot, lazily or through importlib, or exercise
# common libraries whose modules import each other at start-up.
LAZY_STDLIB_TESTS ?= test_json test_logging test_argparse test_unittest \
	test_email test_http_cookies test_csv test_pathlib test_textwrap \
	test_collections test_functools test_typing test_dataclasses test_enum \
	test_inspect test_pydoc test_importlib test_pkgutil test_runpy \
	test_zipimport test_tomllib test_configparser test_urlparse test_datetime \
	test_decimal test_fractions test_statistics test_difflib test_pprint \
	test_string test_tempfile test_shutil test_contextlib test_abc \
	test_warnings test_traceback

PYTEST_ENV = LAZY_PYTHON="$(CURDIR)/$(PY_LAZY)" \
	VANILLA_PYTHON="$(CURDIR)/$(PY_VANILLA)"

.PHONY: test-differential fuzz test-lazy-stdlib test-thirdparty

REGRTEST_ENV = env -u PYTHONUNBUFFERED -u PYTHONDONTWRITEBYTECODE

test-differential: build venv  ## the differential test with hypothesis, DIFFERENTIAL_EXAMPLES programs
	$(REGRTEST_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(DIFFERENTIAL_EXAMPLES) \
	    $(VENV)/bin/python -m test -v test_lazy_imports.test_differential

fuzz: build vanilla venv  ## the differential tests with FUZZ_EXAMPLES random programs and shrinking
	$(REGRTEST_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(FUZZ_EXAMPLES) \
	    LAZY_HYPOTHESIS_PROFILE=explore \
	    $(VENV)/bin/python -m test -v test_lazy_imports.test_differential \
	    -m test_lazy_run_matches_eager_run
	$(PYTEST_ENV) LAZY_HYPOTHESIS_EXAMPLES=$(FUZZ_EXAMPLES) \
	    LAZY_HYPOTHESIS_PROFILE=explore \
	    $(VENV)/bin/python -m pytest -q -p no:cacheprovider \
	    tests/test_compat.py -k eager_run_matches_stock

test-lazy-stdlib: build
	@mkdir -p $(BUILD)/reports
	@log=$(BUILD)/reports/lazy-stdlib.log; \
	env -u PYTHONUNBUFFERED -u PYTHONDONTWRITEBYTECODE -u PYTHONPATH \
	    $(PY_LAZY) -L -m test -j$(LAZY_STDLIB_JOBS) --timeout 900 \
	    $(LAZY_STDLIB_TESTS) >$$log 2>&1; status=$$?; \
	tail -n 25 $$log; \
	total=$$(echo $(LAZY_STDLIB_TESTS) | wc -w); \
	failed=$$(grep '^Total test files:' $$log | grep -o 'failed=[0-9]*' | cut -d= -f2); \
	echo "test-lazy-stdlib: $$((total - $${failed:-0})) of $$total test modules passed under -L (log: $$log)"; \
	exit $$status

test-thirdparty: build
	@$(PY_LAZY) $(T)/thirdparty.py --python $(PY_LAZY) \
	    --workdir $(BUILD)/thirdparty --report $(BUILD)/reports/thirdparty.md \
	    $(THIRDPARTY_OPTS) $(THIRDPARTY)
