# Benchmark targets: bench-micro, bench-startup, bench-pyperformance.
# Not part of make test.  Results go to $(BUILD)/bench; see bench/README.rst.

BENCH := $(BUILD)/bench
BENCH_STARTUP_REQ := bench/requirements-startup.txt
BENCH_REPS ?= 15
BENCH_JOBS ?= 2
BENCH_SCALE ?= 0.3

# OPTIMIZE=1: bench-startup (and bench-explain) compare the fork and vanilla
# built with --enable-optimizations --with-lto, as distributions ship
# CPython ($(BUILD)/lazy-opt and $(BUILD)/vanilla-opt, see install.mk; the
# PGO profile run makes each build take a while), with venvs and results in
# $(BUILD)/bench-opt.
STARTUP_BUILDS  := $(if $(OPTIMIZE),lazy-opt vanilla-opt,build vanilla)
STARTUP_FORK    := $(if $(OPTIMIZE),$(BUILD)/lazy-opt/python,$(PY_FORK))
STARTUP_VANILLA := $(if $(OPTIMIZE),$(BUILD)/vanilla-opt/python,$(PY_VANILLA))
STARTUP_OUT     := $(BENCH)$(if $(OPTIMIZE),-opt)

.PHONY: bench bench-micro bench-micro-explain bench-startup bench-startup-venvs \
	bench-explain bench-pyperformance bench-pyperformance-fast bench-pyperformance-ir

bench: bench-micro bench-startup bench-pyperformance-fast  ## bench-micro, bench-startup, bench-pyperformance-fast

# Instruction counts (callgrind) of loops over the paths the patch touches, fork vs vanilla.
bench-micro: build vanilla  ## callgrind instruction counts of the patched paths: vanilla, fork, fork -L
	@$(PY_VANILLA) $(T)/bench_micro.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) -j $(BENCH_JOBS) --scale $(BENCH_SCALE) $(if $(ONLY),--only $(ONLY))

# Self cost per function of one micro loop, vanilla vs fork (WITH_L=1: fork -L):
#   make bench-micro-explain LOOP=dict_getitem_str
bench-micro-explain: build vanilla  ## where one micro loop spends its instructions (LOOP=, WITH_L=1)
	@$(PY_VANILLA) $(T)/bench_micro_explain.py --vanilla $(PY_VANILLA) --fork $(PY_FORK) \
		--out $(BENCH) $(if $(WITH_L),-L) $(LOOP)

# One venv per interpreter with the pinned command-line tools.
$(STARTUP_OUT)/venv-vanilla/.ok: $(BENCH_STARTUP_REQ) | $(word 2,$(STARTUP_BUILDS))
	@sh $(T)/venv.sh $(STARTUP_VANILLA) $(STARTUP_OUT)/venv-vanilla $(BENCH_STARTUP_REQ)
$(STARTUP_OUT)/venv-fork/.ok: $(BENCH_STARTUP_REQ) | $(word 1,$(STARTUP_BUILDS))
	@sh $(T)/venv.sh $(STARTUP_FORK) $(STARTUP_OUT)/venv-fork $(BENCH_STARTUP_REQ)
bench-startup-venvs: $(STARTUP_OUT)/venv-vanilla/.ok $(STARTUP_OUT)/venv-fork/.ok

# Wall time, peak RSS, modules and output of real tools: vanilla, fork, fork -L, interleaved.
bench-startup: $(STARTUP_BUILDS) bench-startup-venvs  ## start-up of real PyPI tools: vanilla, fork, fork -L (OPTIMIZE=1: PGO+LTO builds)
	@$(STARTUP_VANILLA) $(T)/bench_startup.py --vanilla-venv $(STARTUP_OUT)/venv-vanilla \
		--fork-venv $(STARTUP_OUT)/venv-fork --reps $(BENCH_REPS) --out $(STARTUP_OUT) $(if $(ONLY),--only "$(ONLY)")
	@$(STARTUP_VANILLA) $(T)/bench_micro.py --vanilla $(STARTUP_VANILLA) --fork $(STARTUP_FORK) \
		--out $(STARTUP_OUT) --first-access-only

# What -L still imports for one tool and which line forced each import:
#   make bench-explain TOOL="aws --version"
bench-explain: $(word 1,$(STARTUP_BUILDS)) bench-startup-venvs  ## what fork -L still imports for TOOL="aws --version", and why
	@$(PY_VANILLA) $(T)/bench_startup.py --fork-venv $(STARTUP_OUT)/venv-fork --explain "$(TOOL)"

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
