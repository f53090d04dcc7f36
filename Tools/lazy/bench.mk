# Benchmark targets: bench-micro, bench-disabled, bench-startup, bench-memory,
# bench-pyperformance.
# Not part of make test.  Results go to $(BUILD)/bench; see bench/README.rst.

BENCH := $(BUILD)/bench
BENCH_STARTUP_REQ := bench/requirements-startup.txt
BENCH_REPS ?= 15
BENCH_JOBS ?= 2
BENCH_SCALE ?= 0.3

# OPTIMIZE=1: bench-startup (and bench-explain) compare the fork and vanilla
# built with --enable-optimizations --with-lto, as distributions ship
# CPython ($(BUILD)/fork-opt and $(BUILD)/vanilla-opt, see install.mk; the
# PGO profile run makes each build take a while), with venvs and results in
# $(BUILD)/bench-opt.
STARTUP_BUILDS  := $(if $(OPTIMIZE),fork-opt vanilla-opt,build vanilla)
STARTUP_FORK    := $(if $(OPTIMIZE),$(BUILD)/fork-opt/python,$(PY_FORK))
STARTUP_VANILLA := $(if $(OPTIMIZE),$(BUILD)/vanilla-opt/python,$(PY_VANILLA))
STARTUP_OUT     := $(BENCH)$(if $(OPTIMIZE),-opt)

.PHONY: bench bench-micro bench-micro-explain bench-disabled bench-startup bench-startup-venvs \
	bench-explain bench-memory bench-pyperformance bench-pyperformance-fast bench-pyperformance-ir

bench: bench-micro bench-startup bench-memory bench-pyperformance-fast  ## bench-micro, bench-startup, bench-memory, bench-pyperformance-fast

# Instruction counts (callgrind) of loops over the paths the patch touches, fork vs vanilla.
bench-micro: build vanilla  ## callgrind instruction counts of the patched paths: vanilla, fork, fork -L
	@$(PY_VANILLA) $(T)/bench_micro.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) -j $(BENCH_JOBS) --scale $(BENCH_SCALE) $(if $(ONLY),--only $(ONLY))

# Self cost per function of one micro loop, vanilla vs fork (WITH_L=1: fork -L):
#   make bench-micro-explain LOOP=dict_getitem_str
bench-micro-explain: build vanilla  ## where one micro loop spends its instructions (LOOP=, WITH_L=1)
	@$(PY_VANILLA) $(T)/bench_micro_explain.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) $(if $(WITH_L),-L) $(LOOP)

# Whole processes counted in instructions (callgrind), the fork without -L over vanilla (issue
# 37, "disabled means free"): -c pass, -I -c pass and a script importing ten stdlib packages,
# one round per hash seed (REPS=, default 3); the functions where they differ, and what each
# hook of the import system costs, by ablation (a few minutes).
bench-disabled: build vanilla  ## callgrind: fork without -L vs vanilla, start-up and an import-heavy script, each hook's cost (REPS=)
	@$(PY_VANILLA) $(T)/bench_disabled.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) -j $(BENCH_JOBS) $(if $(REPS),--reps $(REPS))

# One venv per interpreter with the pinned command-line tools.
$(STARTUP_OUT)/venv-vanilla/.ok: $(BENCH_STARTUP_REQ) | $(word 2,$(STARTUP_BUILDS))
	@sh $(T)/lib.sh venv $(STARTUP_VANILLA) $(STARTUP_OUT)/venv-vanilla $(BENCH_STARTUP_REQ)
$(STARTUP_OUT)/venv-fork/.ok: $(BENCH_STARTUP_REQ) | $(word 1,$(STARTUP_BUILDS))
	@sh $(T)/lib.sh venv $(STARTUP_FORK) $(STARTUP_OUT)/venv-fork $(BENCH_STARTUP_REQ)
bench-startup-venvs: $(STARTUP_OUT)/venv-vanilla/.ok $(STARTUP_OUT)/venv-fork/.ok

# Wall time, peak RSS, modules and output of real tools: vanilla, fork, fork -L, interleaved,
# in two groups: --version-style commands and a small real job each (bench/startup/work).
# GROUP=version|work runs one group; ONLY=black,pip (tools or job names) some commands;
# BENCH_REPS=3 fewer repetitions; PEER=1 adds CPython 3.15 (peer, peer -X lazy_imports=all)
# from $(BENCH)/venv-peer, which make peer builds; BASE_PYTHON=PY adds an earlier build of the
# fork (base, base -L), to compare a change with the build before it.
bench-startup: $(STARTUP_BUILDS) bench-startup-venvs  ## start-up and a small job of real PyPI tools: vanilla, fork, fork -L (GROUP=, ONLY=, PEER=1, BASE_PYTHON=, OPTIMIZE=1)
	@$(STARTUP_VANILLA) $(T)/bench_startup.py --vanilla-venv $(STARTUP_OUT)/venv-vanilla \
		--fork-venv $(STARTUP_OUT)/venv-fork --reps $(BENCH_REPS) --out $(STARTUP_OUT) $(if $(ONLY),--only "$(ONLY)") \
		$(if $(GROUP),--group $(GROUP)) $(if $(PEER),--peer-venv $(BENCH)/venv-peer) \
		$(if $(BASE_PYTHON),--base-python $(BASE_PYTHON))
	@$(STARTUP_VANILLA) $(T)/bench_micro.py --vanilla $(STARTUP_VANILLA) --fork $(STARTUP_FORK) \
		--out $(STARTUP_OUT) --first-access-only

# What -L still imports for one tool and which line forced each import:
#   make bench-explain TOOL="aws --version"
bench-explain: $(word 1,$(STARTUP_BUILDS)) bench-startup-venvs  ## what fork -L still imports for TOOL="aws --version", and why
	@$(PY_VANILLA) $(T)/bench_startup.py --fork-venv $(STARTUP_OUT)/venv-fork --explain "$(TOOL)"

# Memory per deferred import (tracemalloc, peak RSS) and what fork -L keeps alive after the
# names are used that eager imports do not, on N generated one-line modules (< 1 minute).
bench-memory: build vanilla  ## memory per deferred import, and what fork -L keeps after use that eager does not
	@$(PY_VANILLA) $(T)/bench_memory.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) -j $(BENCH_JOBS)

# pyperformance, vanilla vs fork vs fork with lazy imports on at entry.
# BENCH_FAST=1 (or bench-pyperformance-fast) runs a subset with --fast (~20 min).
bench-pyperformance: build vanilla  ## pyperformance on vanilla, fork and fork -L (BENCH_FAST=1: the subset)
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_FORK) $(BENCH) $(if $(BENCH_FAST),fast,full)

bench-pyperformance-fast: build vanilla  ## a pyperformance subset with --fast (~20 min)
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_FORK) $(BENCH) fast

# The same benchmarks counted in instructions (callgrind, one value each, start-up included),
# in the venvs of the fast mode: the figure for +-1% on a noisy machine.
bench-pyperformance-ir: build vanilla  ## the fast subset counted in instructions (callgrind)
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_FORK) $(BENCH) venvs
	@$(PY_VANILLA) $(T)/bench_pyperformance_ir.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--venvs $(BENCH)/pyperformance \
		--out $(BENCH) -j $(BENCH_JOBS) $(if $(BENCH_LIST),--benchmarks $(BENCH_LIST))

# The peer: stock CPython 3.15.2 built like vanilla (Tools/lazy/peer.sh), whose PEP 810
# global mode (-X lazy_imports=all) users compare with fork -L, and its venv of the
# start-up corpus, $(BENCH)/venv-peer (bench_startup.py --peer-venv).  Optional: nothing
# else depends on it, and make test does not build it.  PEER_TARBALL=path gives the tarball.
PEER_DIR := $(BUILD)/peer
PY_PEER := $(PEER_DIR)/python
export PEER_TARBALL

.PHONY: peer peer-python

peer: $(BENCH)/venv-peer/.ok  ## CPython 3.15.2 built like vanilla, $(BUILD)/peer/python, and $(BENCH)/venv-peer

peer-python: deps  ## only the peer's interpreter, $(BUILD)/peer/python (fetch, check, build)
	@sh $(T)/peer.sh $(PEER_DIR)

# The corpus for the peer: the same pins, one of them under a marker.  backports.zstd has
# no release for Python 3.14 or later (the standard library has compression.zstd there),
# and the packages that need it (urllib3, httpx2, pbs-installer) ask for it only before
# 3.14.  Every other pin has a cp315, abi3 or pure-Python wheel.  pip 25.1.1 installs but
# does not run on 3.15 (typing.no_type_check_decorator is gone): "pip list" fails on the
# peer, eager and lazy alike, and the venv's own pip cannot be used after the install.
$(BENCH)/requirements-peer.txt: $(BENCH_STARTUP_REQ)
	@mkdir -p $(@D)
	@sed 's/^\(backports\.zstd==[^ ;]*\)$$/\1 ; python_version < "3.14"/' $< >$@.tmp && mv $@.tmp $@

# As venv-vanilla and venv-fork, with the sitecustomize hook of bench_startup.py in place.
$(BENCH)/venv-peer/.ok: $(BENCH)/requirements-peer.txt | peer-python
	@sh $(T)/lib.sh venv $(PY_PEER) $(BENCH)/venv-peer $(BENCH)/requirements-peer.txt
	@cp bench/startup/sitecustomize.py \
		"$$($(BENCH)/venv-peer/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/"

# The ecosystem corpus: the most-downloaded PyPI packages of bench/ecosystem/packages-400.txt
# (PACKAGES=bench/ecosystem/packages.txt for the top 200), each pip-installed from wheels into
# a venv of the fork ($(BUILD)/ecosystem/venv-fork) and imported in fresh processes, eagerly
# and with -L: the same public API ({name: type}), and how many modules -L defers, with a
# summary of ranks 1-200 and 201-400 (Tools/lazy/ecosystem.py).  Needs the network: not part
# of make test.  PEER_PYTHON=/path/to/python3.15 adds CPython 3.15 with -X lazy_imports=all
# side by side (its venv: $(BUILD)/ecosystem/venv-peer); LIMIT=N the first N packages,
# ONLY="a b" some of them.
ECOSYSTEM := $(BUILD)/ecosystem
PACKAGES ?= bench/ecosystem/packages-400.txt

.PHONY: test-ecosystem

test-ecosystem: build  ## top PyPI packages imported eagerly and with -L: same API? ($(REPORTS)/ecosystem.md; PEER_PYTHON=, PACKAGES=, LIMIT=, ONLY=)
	@$(CLEAN_ENV) $(PY_FORK) $(T)/ecosystem.py --python $(PY_FORK) --lazy-flag=-L \
		--packages $(PACKAGES) --per 200 --venv $(ECOSYSTEM)/venv-fork --out $(REPORTS) \
		$(if $(PEER_PYTHON),--peer-python $(PEER_PYTHON) --peer-venv $(ECOSYSTEM)/venv-peer) \
		$(if $(LIMIT),--limit $(LIMIT)) $(if $(ONLY),--only "$(ONLY)")

# The wide CLI corpus (issue 37): every console script of the most-downloaded PyPI packages
# of bench/clicorpus/packages.txt, installed from wheels into $(BUILD)/clicorpus/venv-fork,
# run with --version and with --help eagerly, with -L and with -L -X lazy_imports_heal=0, in
# a temporary home with no network: modules in sys.modules at exit, the same output as
# eagerly or not, and each early completion of -L with its reason (Tools/lazy/clicorpus.py).
# Needs the network for the installs: not part of make test.  PEER_PYTHON=/path/to/python3.15
# adds CPython 3.15 eager and with PYTHON_LAZY_IMPORTS=all (venv $(BUILD)/clicorpus/venv-peer);
# BASE_PYTHON= an earlier build of the fork, run with -L beside the current one; LIMIT=N the
# first N packages (default 300), ONLY="a b" some of them; TIME=N adds N interleaved rounds of
# wall time on 10 --version commands.
CLICORPUS := $(BUILD)/clicorpus

.PHONY: bench-cli

bench-cli: build  ## console scripts of the top PyPI packages: modules eager, -L, heal=0 ($(REPORTS)/clicorpus.md; PEER_PYTHON=, BASE_PYTHON=, LIMIT=, ONLY=, TIME=)
	@$(CLEAN_ENV) $(PY_FORK) $(T)/clicorpus.py --python $(PY_FORK) \
		--venv $(CLICORPUS)/venv-fork --out $(REPORTS) \
		$(if $(PEER_PYTHON),--peer-python $(PEER_PYTHON) --peer-venv $(CLICORPUS)/venv-peer) \
		$(if $(BASE_PYTHON),--base-python $(BASE_PYTHON) --base-venv $(CLICORPUS)/venv-base) \
		$(if $(LIMIT),--limit $(LIMIT)) $(if $(ONLY),--only "$(ONLY)") $(if $(TIME),--time $(TIME))
