# Reliability targets: regrtest reports, debug/ASAN builds, stress, wheels.

# --- stdlib regrtest on vanilla, on the fork, and on the fork with -L -------
# make regrtest-vanilla   whole suite on $(PY_VANILLA)
# make regrtest           whole suite on $(PY_LAZY) without -L (as vanilla:
#                         contract rule 30)
# make regrtest-lazy      whole suite on $(PY_LAZY) -L (workers get -L too)
# make regrtest-all       the three runs, then the report
# make regrtest-report    build/reports/regrtest.md from the saved runs
# TESTS="test_dict test_import" runs only those modules; their results are laid
# over the last full run in the report.  REGRTEST_OPTS overrides the default
# regrtest options (--timeout 900 -j$(nproc)).
TESTS ?=
REPORTS := $(BUILD)/reports
# The report is plain Python: run it with the interpreter the target built.
REGRTEST_REPORT = $(T)/regrtest_report.py --reports $(REPORTS) \
	--expected Lib/test/lazy_imports_expected_failures.txt

.PHONY: regrtest regrtest-vanilla regrtest-lazy regrtest-all regrtest-report

regrtest-vanilla: vanilla
	@sh $(T)/regrtest.sh vanilla $(PY_VANILLA) $(TESTS)
	@$(PY_VANILLA) $(REGRTEST_REPORT)

regrtest: build
	@sh $(T)/regrtest.sh fork $(PY_LAZY) $(TESTS)
	@$(PY_LAZY) $(REGRTEST_REPORT)

regrtest-lazy: build
	@sh $(T)/regrtest.sh lazy $(PY_LAZY) -L $(TESTS)
	@$(PY_LAZY) $(REGRTEST_REPORT)

regrtest-all: build vanilla
	@sh $(T)/regrtest.sh vanilla $(PY_VANILLA) $(TESTS)
	@sh $(T)/regrtest.sh fork $(PY_LAZY) $(TESTS)
	@sh $(T)/regrtest.sh lazy $(PY_LAZY) -L $(TESTS)
	@$(PY_VANILLA) $(REGRTEST_REPORT)

regrtest-report: build
	@$(PY_LAZY) $(REGRTEST_REPORT)
