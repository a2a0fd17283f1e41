# SPDX-License-Identifier: MIT
# Benchmarks (bench/, BENCHMARKS.md).
#
#   make bench        build bench/ against the shipped library, print the
#                     table, write the figures to $(BENCH_JSON)
#   make bench-smoke  the same, once, with tiny counts (part of `make test`):
#                     it only proves the bench still builds and runs; it
#                     checks no timing
#   make bench-instructions [OLD_LIB=path/to/libidlelock.so.1]
#                     instructions per call of every hot call of section 1
#                     (valgrind's callgrind, exact whatever else loads the
#                     machine), the library's and its C baseline's side by
#                     side, with the ratio and section 1's goal; with
#                     OLD_LIB, that build's counts too
#
# BENCH_ARGS adds options, e.g. `make bench BENCH_ARGS="--rounds 21"`.

BENCH_DIR      := $(BUILD)/bench
BENCH_BIN      := $(BENCH_DIR)/idlelock-bench
BENCH_PROBE    := $(BENCH_DIR)/dlopen-probe
BENCH_NOOP     := $(BENCH_DIR)/libbench_noop.so
BENCH_STRIPPED := $(BENCH_DIR)/libidlelock.so.1.stripped
BENCH_JSON     ?= $(BENCH_DIR)/results.json
BENCH_ARGS     ?=
BENCH_CFLAGS   := $(CWARN) -O2 -Iinclude -Ibench

BENCH_PYTHON = IDLELOCK_LIBRARY=$(abspath $(LIB)) PYTHONPATH=$(abspath bindings/python) \
    $(PYTHON) $(abspath bench/bench_python.py) --noop $(abspath $(BENCH_NOOP))
BENCH_RUN = $(BENCH_BIN) --lib $(LIB) --stripped $(BENCH_STRIPPED) --probe $(BENCH_PROBE) \
    --python '$(BENCH_PYTHON)' --tmpdir $(BENCH_DIR)

.PHONY: bench bench-smoke bench-instructions

# The benchmark program: its sections and the allocation counter.
BENCH_SOURCES  := bench/main.c bench/harness.c bench/baseline.c bench/hot_calls.c bench/unlock.c \
                  bench/allocations.c bench/footprint.c bench/python.c bench/report.c \
                  bench/malloc_count.c
BENCH_HEADERS  := bench/bench.h bench/malloc_count.h

# -rdynamic: the allocation counter's malloc family must be visible to the
# shared objects (ELF interposition).
$(BENCH_BIN): $(BENCH_SOURCES) $(BENCH_HEADERS) $(HEADER) $(LIB)
	@mkdir -p $(BENCH_DIR)
	$(BUILD_STEP) CC $@ $(CC) $(BENCH_CFLAGS) $(BENCH_SOURCES) $(CLINK) -lsodium -rdynamic -o $@

# Links neither libidlelock nor libsodium: it dlopens them.
$(BENCH_PROBE): bench/dlopen_probe.c $(HEADER)
	@mkdir -p $(BENCH_DIR)
	$(BUILD_STEP) CC $@ $(CC) $(BENCH_CFLAGS) $< -ldl -o $@

$(BENCH_NOOP): bench/noop.c
	@mkdir -p $(BENCH_DIR)
	$(BUILD_STEP) CC $@ $(CC) $(BENCH_CFLAGS) -fPIC -shared $< -o $@

$(BENCH_STRIPPED): $(LIB)
	@mkdir -p $(BENCH_DIR)
	$(BUILD_STEP) STRIP $@ strip -o $@ $(LIB)

BENCH_DEPS := $(BENCH_BIN) $(BENCH_PROBE) $(BENCH_NOOP) $(BENCH_STRIPPED)

bench: lib $(BENCH_DEPS)
	$(BENCH_RUN) --json $(BENCH_JSON) $(BENCH_ARGS)

bench-smoke: lib $(BENCH_DEPS)
	@$(STEPS_BEGIN)
	$(STEP) $(BENCH_RUN) --smoke --json $(BENCH_DIR)/smoke.json $(BENCH_ARGS)
	$(STEP) sh scripts/callgrind-hot.sh --smoke $(BENCH_BIN) $(LIB)
	@$(STEPS_END)

bench-instructions: c-test-deps lib $(BENCH_BIN)
	sh scripts/callgrind-hot.sh $(BENCH_BIN) $(LIB) $(OLD_LIB)

TEST_SUITES += bench-smoke
