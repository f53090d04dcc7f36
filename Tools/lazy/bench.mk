# Benchmark targets: bench-micro, bench-startup, bench-pyperformance.
# Not part of make test.  Results go to $(BUILD)/bench; see bench/README.rst.

BENCH := $(BUILD)/bench
BENCH_STARTUP_REQ := bench/requirements-startup.txt
BENCH_REPS ?= 15
BENCH_JOBS ?= 2
BENCH_SCALE ?= 0.3

.PHONY: bench bench-micro bench-micro-explain bench-startup bench-startup-venvs \
	bench-explain bench-pyperformance bench-pyperformance-fast bench-pyperformance-ir

bench: bench-micro bench-startup bench-pyperformance-fast

# Instruction counts (callgrind) of loops over the paths the patch touches, fork vs vanilla.
bench-micro: build vanilla
	@$(PY_VANILLA) $(T)/bench_micro.py --vanilla $(PY_VANILLA) --lazy $(PY_LAZY) \
		--out $(BENCH) -j $(BENCH_JOBS) --scale $(BENCH_SCALE) $(if $(ONLY),--only $(ONLY))

# Self cost per function of one micro loop, vanilla vs fork (WITH_L=1: fork -L):
#   make bench-micro-explain LOOP=dict_getitem_str
bench-micro-explain: build vanilla
	@$(PY_VANILLA) $(T)/bench_micro_explain.py --vanilla $(PY_VANILLA) --lazy $(PY_LAZY) \
		--out $(BENCH) $(if $(WITH_L),-L) $(LOOP)

# One venv per interpreter with the pinned command-line tools.
$(BENCH)/venv-vanilla/.ok: $(BENCH_STARTUP_REQ) | vanilla
	@sh $(T)/venv.sh $(PY_VANILLA) $(BENCH)/venv-vanilla $(BENCH_STARTUP_REQ)
$(BENCH)/venv-lazy/.ok: $(BENCH_STARTUP_REQ) | build
	@sh $(T)/venv.sh $(PY_LAZY) $(BENCH)/venv-lazy $(BENCH_STARTUP_REQ)
bench-startup-venvs: $(BENCH)/venv-vanilla/.ok $(BENCH)/venv-lazy/.ok

# Wall time, peak RSS, modules and output of real tools: vanilla, fork, fork -L, interleaved.
bench-startup: build vanilla bench-startup-venvs
	@$(PY_VANILLA) $(T)/bench_startup.py --vanilla-venv $(BENCH)/venv-vanilla \
		--lazy-venv $(BENCH)/venv-lazy --reps $(BENCH_REPS) --out $(BENCH) $(if $(ONLY),--only "$(ONLY)")
	@$(PY_VANILLA) $(T)/bench_micro.py --vanilla $(PY_VANILLA) --lazy $(PY_LAZY) \
		--out $(BENCH) --first-access-only

# What -L still imports for one tool and which line forced each import:
#   make bench-explain TOOL="aws --version"
bench-explain: build bench-startup-venvs
	@$(PY_VANILLA) $(T)/bench_startup.py --lazy-venv $(BENCH)/venv-lazy --explain "$(TOOL)"

# pyperformance, vanilla vs fork vs fork with lazy imports on at entry.
# BENCH_FAST=1 (or bench-pyperformance-fast) runs a subset with --fast (~20 min).
bench-pyperformance: build vanilla
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_LAZY) $(BENCH) $(if $(BENCH_FAST),fast,full)

bench-pyperformance-fast: build vanilla
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_LAZY) $(BENCH) fast

# The same benchmarks counted in instructions (callgrind, one value each, start-up included),
# in the venvs of the fast mode: the figure for +-1% on a noisy machine.
bench-pyperformance-ir: build vanilla
	@sh $(T)/bench-pyperformance.sh $(PY_VANILLA) $(PY_LAZY) $(BENCH) venvs
	@$(PY_VANILLA) $(T)/bench_pyperformance_ir.py --vanilla $(PY_VANILLA) --lazy $(PY_LAZY) \
		--venvs $(BENCH)/pyperformance \
		--out $(BENCH) -j $(BENCH_JOBS) $(if $(BENCH_LIST),--benchmarks $(BENCH_LIST))
