# lazy-cpython: CPython 3.13.5 with PEP 690 lazy imports, as a patch set.
# Named steps only; the logic lives in Tools/lazy/ (Tools/lazy/README.rst).
#
# Three configurations, named alike everywhere: vanilla (unpatched 3.13.5,
# $(PY_VANILLA)), fork (the patched interpreter, $(PY_FORK), without -L)
# and fork -L (the same with -L; "fork-L" in names of files and targets).
#
# Every target meant to be typed is written "target: deps  ## what it does";
# make help lists them from these comments.

BUILD    := build
SRC      := $(BUILD)/src
PRISTINE := $(BUILD)/pristine
FORK     := $(BUILD)/fork
VANILLA  := $(BUILD)/vanilla
VENV     := $(BUILD)/venv
REPORTS  := $(BUILD)/reports
PY_FORK  := $(FORK)/python
PY_VANILLA := $(VANILLA)/python
T        := Tools/lazy
# env without the variables of clean-env.txt, for recipes that run Python.
CLEAN_ENV := env $(addprefix -u ,$(shell sed 's/\#.*//' $(T)/clean-env.txt))
export CPYTHON_TARBALL

.PHONY: all deps fetch src patches check-patches check-series regen regen-defaults build vanilla demo test \
	test-quick venv clean distclean help

all: build  ## the same as make build

# The "## " comments of the Makefile and of the files it includes, grouped
# by file, with the $(VARIABLES) of HELP_VARS replaced by their values
# (POSIX awk: no GNU extension).
HELP_VARS = BUILD SRC FORK VANILLA VENV PY_FORK PY_VANILLA PY_DEBUG PY_ASAN REPORTS BENCH DIST \
	DESTDIR PREFIX
help:  ## this list
	@env $(foreach v,$(HELP_VARS),$(v)='$($(v))') awk ' \
		FNR == 1 && FILENAME != "Makefile" { printf "\n%s:\n", FILENAME } \
		/^[A-Za-z0-9][A-Za-z0-9_.-]*:.*## / { \
			target = $$0; sub(/:.*/, "", target); \
			text = $$0; sub(/^[^#]*## /, "", text); out = ""; \
			while (match(text, /\$$\([A-Za-z_]+\)/)) { \
				name = substr(text, RSTART + 2, RLENGTH - 3); \
				out = out substr(text, 1, RSTART - 1) \
					((name in ENVIRON) ? ENVIRON[name] : substr(text, RSTART, RLENGTH)); \
				text = substr(text, RSTART + RLENGTH) } \
			printf "  make %-25s %s\n", target, out text }' $(MAKEFILE_LIST)

deps:  ## install the Debian build dependencies when missing (or print them)
	@sh $(T)/deps.sh

fetch:  ## the pristine CPython tarball of UPSTREAM, checked (see fetch.sh)
	@sh $(T)/fetch.sh

$(SRC)/.git:
	@sh $(T)/src.sh $(SRC)

src: $(SRC)/.git  ## the patch-queue tree $(SRC) (git: upstream + a commit per patch)

$(PRISTINE)/configure:
	@sh $(T)/src.sh --pristine $(PRISTINE)

patches:  ## export $(SRC)'s commits back into patches/
	@sh $(T)/export-patches.sh $(SRC) patches

check-patches:  ## a fresh unpack + apply reproduces $(SRC) and patches/ byte for byte
	@sh $(T)/check-patches.sh

check-series: src  ## build every prefix of the patch queue (a build per patch)
	@sh $(T)/check-series.sh $(SRC)

# Regenerate CPython's generated files in $(SRC) after editing their sources
# (bytecodes.c, Argument Clinic blocks); commit them with the change.
regen: build vanilla  ## regenerate CPython's generated files in $(SRC)
	cd $(SRC) && $(MAKE) -f ../fork/Makefile srcdir=. \
		PYTHON_FOR_REGEN=$(abspath $(PY_VANILLA)) regen-cases clinic

# The shipped defaults of lazy imports: Python/lazy_defaults.h from
# Lib/importlib/_lazy_defaults.py (test_lazy_imports checks they agree).
PYTHON_FOR_REGEN ?= python3
regen-defaults:  ## regenerate Python/lazy_defaults.h from the defaults' data file
	$(PYTHON_FOR_REGEN) $(T)/regen_defaults.py

build: deps src  ## the fork, $(PY_FORK)
	@sh $(T)/link.sh $(SRC)
	@sh $(T)/build.sh $(SRC) $(FORK)

vanilla: deps $(PRISTINE)/configure  ## unpatched 3.13.5 with the same flags, $(PY_VANILLA)
	@sh $(T)/build.sh $(PRISTINE) $(VANILLA)

venv: build  ## $(VENV): a venv of the fork with requirements-test.txt
	@sh $(T)/lib.sh venv $(PY_FORK) $(VENV) requirements-test.txt

demo: build vanilla  ## the demo application on vanilla, fork and fork -L
	@$(PY_VANILLA) $(T)/demo.py --fork $(PY_FORK) --vanilla $(PY_VANILLA)

test: build vanilla venv check-patches debug  ## build what is missing, run every test suite
	@sh $(T)/test.sh

# For iteration: test_lazy_imports without and with -L, its differential
# test with hypothesis at a small size, and the pytest tests that need no
# vanilla build; no stdlib suites.
test-quick: build venv  ## the fork's own suites only (for iteration)
	@$(PY_FORK) -m test -q test_lazy_imports
	@$(PY_FORK) -L -m test -q test_lazy_imports
	@LAZY_HYPOTHESIS_EXAMPLES=25 \
		$(VENV)/bin/python -m test -q test_lazy_imports.test_differential
	@FORK_PYTHON=$(abspath $(PY_FORK)) \
		$(VENV)/bin/python -m pytest -q -x -p no:cacheprovider tests

clean:  ## remove the builds (keeps the tarball and $(SRC))
	rm -rf $(FORK) $(VANILLA) $(VENV) $(REPORTS)

distclean:  ## remove $(BUILD) entirely
	rm -rf $(BUILD)

# Long-running targets, each in a file of its own (not part of make test).
include $(T)/bench.mk
include $(T)/regrtest.mk
include $(T)/debug.mk
include $(T)/tests.mk
# Installing and shipping: install, dist, check-dist, bundle.
include $(T)/install.mk
