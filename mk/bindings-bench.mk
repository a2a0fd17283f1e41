# SPDX-License-Identifier: MIT
# The bindings' benchmarks (BENCHMARKS.md, "Bindings"): per host, touch
# through the binding against the same host's bare call of idlelock_touch
# (goal: the binding adds <= 1.2x), with that host's call of a native
# no-op beside them for scale (no goal: the library's touch itself costs
# more than a host's call, BENCHMARKS.md says why).
#
#   make bench-bindings        the three tables (bench-java, bench-csharp, bench-luajit)
#   make bench-bindings-smoke  each once with tiny counts (part of `make test`:
#                              it proves they build and run; it checks no time)
#
# `make bench` runs them after its own sections.

BB_DIR  := $(BUILD)/bench-bindings
BB_NOOP := $(BB_DIR)/libidlelock_bench.so

.PHONY: bench-bindings bench-bindings-smoke

# The native no-ops (and the bare JNI touch): bench/bindings/noop.c.
$(BB_NOOP): bench/bindings/noop.c $(HEADER) $(LIB)
	@mkdir -p $(BB_DIR)
	$(CC) -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -I$(JAVA_HOME)/include \
	    -I$(JAVA_HOME)/include/linux -Iinclude $< -L$(BUILD) -l:$(SONAME) -Wl,-rpath,$(abspath $(BUILD)) -o $@

bench-bindings: bench-java bench-csharp bench-luajit

# Each host's smoke run is one step (one check: it builds and runs).
bench-bindings-smoke:
	@$(STEPS_BEGIN)
	$(STEP) $(MAKE) --no-print-directory bench-java-smoke
	$(STEP) $(MAKE) --no-print-directory bench-csharp-smoke
	$(STEP) $(MAKE) --no-print-directory bench-luajit-smoke
	@$(STEPS_END)

bench: bench-bindings

TEST_SUITES += bench-bindings-smoke
