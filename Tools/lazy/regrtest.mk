# The whole stdlib regrtest on vanilla, on the fork and on fork -L, and the
# report comparing them (Tools/lazy/regrtest.sh, regrtest_report.py).
#
# The fork must pass as vanilla does (contract rule 30); fork -L runs its
# regrtest workers with -L too, and each of its failures needs a reason in
# Tools/lazy/expected-failures-fork-L.txt.  TESTS="test_dict test_import"
# runs only those modules; their results are laid over the last full run in
# the report.  REGRTEST_OPTS overrides the default regrtest options
# (--timeout 900 -j$(nproc)).  Results: $(REPORTS)/regrtest-CONFIG.{log,xml,tests}.
TESTS ?=
# The report is plain Python: run it with the interpreter the target built.
REGRTEST_REPORT = $(T)/regrtest_report.py --reports $(REPORTS)

.PHONY: regrtest-vanilla regrtest-fork regrtest-fork-L regrtest-all regrtest-report

regrtest-vanilla: vanilla  ## the whole stdlib suite on vanilla, then the report
	@sh $(T)/regrtest.sh vanilla $(PY_VANILLA) $(TESTS)
	@$(PY_VANILLA) $(REGRTEST_REPORT)

regrtest-fork: build  ## the whole stdlib suite on the fork, then the report
	@sh $(T)/regrtest.sh fork $(PY_FORK) $(TESTS)
	@$(PY_FORK) $(REGRTEST_REPORT)

regrtest-fork-L: build  ## the whole stdlib suite on fork -L, then the report
	@sh $(T)/regrtest.sh fork-L $(PY_FORK) $(TESTS)
	@$(PY_FORK) $(REGRTEST_REPORT)

regrtest-all: build vanilla  ## the three runs, then the report
	@sh $(T)/regrtest.sh vanilla $(PY_VANILLA) $(TESTS)
	@sh $(T)/regrtest.sh fork $(PY_FORK) $(TESTS)
	@sh $(T)/regrtest.sh fork-L $(PY_FORK) $(TESTS)
	@$(PY_VANILLA) $(REGRTEST_REPORT)

regrtest-report: build  ## $(REPORTS)/regrtest.md from the saved runs
	@$(PY_FORK) $(REGRTEST_REPORT)
