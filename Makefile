# lazy-cpython: CPython 3.13.5 with PEP 690 lazy imports, as a patch set.
# Named steps only; the logic lives in Tools/lazy/.

BUILD    := build
SRC      := $(BUILD)/src
PRISTINE := $(BUILD)/pristine
LAZY     := $(BUILD)/lazy
VANILLA  := $(BUILD)/vanilla
VENV     := $(BUILD)/venv
PY_LAZY  := $(LAZY)/python
PY_VANILLA := $(VANILLA)/python
T        := Tools/lazy
export CPYTHON_TARBALL

.PHONY: all deps fetch src patches check-patches check-series regen build vanilla demo test \
	test-quick test-pytest test-regrtest test-stdlib venv clean distclean help

all: build

help:
	@echo "make demo           build what is missing, run the demo eager vs -L"
	@echo "make test           build what is missing, run every test suite"
	@echo "make test-quick     the fork's own suites only (for iteration)"
	@echo "make build          patched interpreter at $(PY_LAZY)"
	@echo "make vanilla        unpatched baseline at $(PY_VANILLA)"
	@echo "make src            patch-queue tree at $(SRC) (git: upstream + one commit per patch)"
	@echo "make patches        export $(SRC)'s commits back into patches/"
	@echo "make check-patches  verify the patch queue round-trips byte for byte"
	@echo "make check-series   build every prefix of the patch queue"
	@echo "make regen          regenerate CPython's generated files in $(SRC)"

deps:
	@sh $(T)/deps.sh

fetch:
	@sh $(T)/fetch.sh

$(SRC)/.git:
	@sh $(T)/src.sh $(SRC)

src: $(SRC)/.git

$(PRISTINE)/configure:
	@sh $(T)/fetch.sh >/dev/null
	@rm -rf $(PRISTINE) && mkdir -p $(PRISTINE)
	@tar -xf $(BUILD)/$$(. ./UPSTREAM && echo $$TARBALL) -C $(PRISTINE) --strip-components=1

patches:
	@sh $(T)/export-patches.sh $(SRC) patches

check-patches:
	@sh $(T)/check-patches.sh

# Every prefix of the patch queue builds (a build per patch; not in make test).
check-series: src
	@sh $(T)/check-series.sh $(SRC)

# Regenerate CPython's generated files in $(SRC) after editing their sources
# (bytecodes.c, Argument Clinic blocks); commit them with the change.
regen: build vanilla
	cd $(SRC) && $(MAKE) -f ../lazy/Makefile srcdir=. \
		PYTHON_FOR_REGEN=$(abspath $(PY_VANILLA)) regen-cases clinic

build: deps src
	@sh $(T)/link.sh $(SRC)
	@sh $(T)/build.sh $(SRC) $(LAZY)

vanilla: deps $(PRISTINE)/configure
	@sh $(T)/build.sh $(PRISTINE) $(VANILLA)

venv: build
	@if [ ! -f $(VENV)/.ok ] || [ requirements-test.txt -nt $(VENV)/.ok ]; then \
		sh $(T)/venv.sh $(PY_LAZY) $(VENV) requirements-test.txt; fi

demo: build vanilla
	@$(PY_VANILLA) $(T)/demo.py --fork $(PY_LAZY) --vanilla $(PY_VANILLA)

test: build vanilla venv check-patches debug
	@sh $(T)/test.sh

# For iteration: test_lazy_imports without and with -L, its differential
# test with hypothesis at a small size, and the pytest tests that need no
# vanilla build; no stdlib suites.
test-quick: build venv  ## the fork's own suites only (for iteration)
	@$(PY_LAZY) -m test -q test_lazy_imports
	@$(PY_LAZY) -L -m test -q test_lazy_imports
	@LAZY_HYPOTHESIS_EXAMPLES=25 \
		$(VENV)/bin/python -m test -q test_lazy_imports.test_differential
	@LAZY_PYTHON=$(abspath $(PY_LAZY)) \
		$(VENV)/bin/python -m pytest -q -x -p no:cacheprovider tests

clean:
	rm -rf $(LAZY) $(VANILLA) $(VENV) $(BUILD)/reports

distclean:
	rm -rf $(BUILD)

# Long-running targets, each in a file of its own (not part of make test).
include $(T)/bench.mk
include $(T)/reliability.mk
include $(T)/debug.mk
include $(T)/tests.mk
# Installing and shipping: install, dist, check-dist, bundle.
include $(T)/install.mk
