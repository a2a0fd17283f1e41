# The C# binding (bindings/csharp): LibIdleLock.dll for Mono, Unity (Mono and
# IL2CPP) and Godot .NET, built with Mono's mcs, and its tests on Mono.
#
#   make csharp        build/csharp/LibIdleLock.dll
#   make test-csharp   the tests (bindings/csharp/tests) on the Mono runtime
#   make bench-csharp  touch through the binding vs a P/Invoke no-op (BENCHMARKS.md)

MCS  ?= mcs
MONO ?= mono

CS_DIR       := $(BUILD)/csharp
CS_DLL       := $(CS_DIR)/LibIdleLock.dll
CS_SRC       := $(sort $(wildcard bindings/csharp/src/*.cs))
CS_TEST_SRC  := $(sort $(wildcard bindings/csharp/tests/*.cs))
CS_TEST_EXE  := $(CS_DIR)/LibIdleLock.Tests.exe
MCS_FLAGS    := -warn:4 -warnaserror+ -optimize+ -debug -nologo
# Mono resolves [DllImport("idlelock")] to libidlelock.so on LD_LIBRARY_PATH.
CS_RUN        = LD_LIBRARY_PATH=$(abspath $(BUILD)) $(MONO) --debug

.PHONY: csharp test-csharp bench-csharp bench-csharp-smoke

$(CS_DLL): $(CS_SRC)
	@mkdir -p $(CS_DIR)
	$(MCS) $(MCS_FLAGS) -target:library -out:$@ $(CS_SRC)

$(CS_TEST_EXE): $(CS_TEST_SRC) $(CS_DLL)
	$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ $(CS_TEST_SRC)

csharp: lib $(CS_DLL)

test-csharp: test-deps csharp $(CS_TEST_EXE)
	cd $(CS_DIR) && $(CS_RUN) $(notdir $(CS_TEST_EXE)) $(abspath $(HEADER))

TEST_SUITES += test-csharp

# -- benchmark (mk/bindings-bench.mk) ----------------------------------------

CS_BENCH_EXE := $(CS_DIR)/Bench.exe
CS_BENCH_RUN  = cd $(CS_DIR) && LD_LIBRARY_PATH=$(abspath $(BUILD)):$(abspath $(BB_DIR)) $(MONO) Bench.exe

$(CS_BENCH_EXE): bench/bindings/Bench.cs $(CS_DLL)
	$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ $<

bench-csharp: csharp $(CS_BENCH_EXE) $(BB_NOOP)
	$(CS_BENCH_RUN)

bench-csharp-smoke: csharp $(CS_BENCH_EXE) $(BB_NOOP)
	$(CS_BENCH_RUN) --rounds 3 --iters 2000 > /dev/null
