# SPDX-License-Identifier: MIT
# The C# binding (bindings/csharp): LibIdleLock.dll for Mono, .NET, Unity (Mono
# and IL2CPP) and Godot .NET, built with Mono's mcs, its tests on Mono, and its
# NuGet package.
#
#   make csharp        build/csharp/LibIdleLock.dll (+ its XML documentation)
#   make test-csharp   the tests (bindings/csharp/tests) on the Mono runtime, the
#                      traces replayed through the binding and compared with
#                      idlelock-replay's, the README's examples compiled and run,
#                      no library loaded from outside the app (planted-library.sh)
#   make nuget         build/dist/LibIdleLock.<version>.nupkg: the assembly and
#                      runtimes/linux-x64|linux-arm64|linux-arm/native/libidlelock.so
#                      (the self-contained variant of make cross), packed by
#                      Debian's nuget
#   make test-nuget    installs that package with nuget from a local folder, offline,
#                      into a fresh folder, checks its files, and runs the README's
#                      example against it with no library path set
#   make bench-csharp  touch through the binding vs a P/Invoke no-op (BENCHMARKS.md)

MCS   ?= mcs
MONO  ?= mono
NUGET ?= nuget

CS_DIR       := $(BUILD)/csharp
CS_DLL       := $(CS_DIR)/LibIdleLock.dll
CS_DOC       := $(CS_DIR)/LibIdleLock.xml
CS_SRC       := $(sort $(wildcard bindings/csharp/src/*.cs))
CS_TEST_SRC  := $(sort $(wildcard bindings/csharp/tests/*.cs))
CS_TEST_EXE  := $(CS_DIR)/LibIdleLock.Tests.exe
CS_REPLAY_EXE := $(CS_DIR)/idlelock-replay-cs.exe
CS_EXAMPLES  := $(sort $(wildcard bindings/csharp/examples/*.cs))
MCS_FLAGS    := -warn:4 -warnaserror+ -optimize+ -debug -nologo
# Mono resolves [DllImport("idlelock")] to libidlelock.so on LD_LIBRARY_PATH.
CS_RUN        = LD_LIBRARY_PATH=$(abspath $(BUILD)) $(MONO) --debug

# A build step in one line ("  MCS     build/csharp/LibIdleLock.dll"); the tool's
# own output goes to a log that is shown when the step fails.
CS_LOG  = $(CS_DIR)/step.log
cs_step = @mkdir -p $(CS_DIR); printf '  %-7s %s\n' '$(1)' '$(2)'; \
          ( $(3) ) > $(CS_LOG) 2>&1 || { cat $(CS_LOG); exit 1; }

.PHONY: csharp test-csharp bench-csharp bench-csharp-smoke nuget test-nuget

# The XML documentation ships in the package; the members without a summary
# (the constants, a few overloads) are documented in the README.
$(CS_DLL) $(CS_DOC) &: $(CS_SRC)
	$(call cs_step,MCS,$(CS_DLL),$(MCS) $(MCS_FLAGS) -target:library -doc:$(CS_DOC) -nowarn:1591 -out:$(CS_DLL) $(CS_SRC))

$(CS_TEST_EXE): $(CS_TEST_SRC) $(CS_DLL)
	$(call cs_step,MCS,$@,$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ $(CS_TEST_SRC))

$(CS_REPLAY_EXE): bindings/csharp/replay/Replay.cs $(CS_DLL)
	$(call cs_step,MCS,$@,$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ bindings/csharp/replay/Replay.cs)

csharp: lib $(CS_DLL)

test-csharp: test-deps csharp $(CS_TEST_EXE) $(CS_REPLAY_EXE) $(BUILD)/idlelock-replay
	@$(STEPS_BEGIN)
	$(STEP) sh -c 'cd $(CS_DIR) && $(CS_RUN) $(notdir $(CS_TEST_EXE)) $(abspath $(HEADER))'
	$(STEP) sh bindings/csharp/replay/compare-traces.sh $(BUILD)/idlelock-replay $(abspath $(BUILD)) \
	    $(CS_REPLAY_EXE) bindings/c/traces/*.trace
	$(STEP) sh bindings/csharp/examples/run-examples.sh $(CS_DIR) $(abspath $(BUILD))
	$(STEP) sh bindings/csharp/tests/planted-library.sh $(CS_DIR)
	@$(STEPS_END)

TEST_SUITES += test-csharp

# -- the NuGet package -------------------------------------------------------

CS_NUGET_DIR   := $(BUILD)/nuget
CS_NUGET_STAGE := $(CS_NUGET_DIR)/stage
CS_NUPKG       := $(BUILD)/dist/LibIdleLock.$(VERSION).nupkg
cs_rid_x86_64  := linux-x64
cs_rid_aarch64 := linux-arm64
cs_rid_armv7   := linux-arm
CS_NUGET_NATIVE := $(foreach c,x86_64 aarch64 armv7,$(CS_NUGET_STAGE)/runtimes/$(cs_rid_$(c))/native/libidlelock.so)

# cs_native_rule CPU: the package's copy of that CPU's self-contained library, stripped.
define cs_native_rule
$(CS_NUGET_STAGE)/runtimes/$(cs_rid_$(1))/native/libidlelock.so: $(BUILD)/$(1)/self-contained/libidlelock.so
	$$(call cs_step,STRIP,$$@,mkdir -p $$(@D) && $(call cross_strip,$(1)) -o $$@ $$<)
endef
$(foreach c,x86_64 aarch64 armv7,$(eval $(call cs_native_rule,$(c))))

$(CS_NUGET_STAGE)/LibIdleLock.nuspec: bindings/csharp/nuget/LibIdleLock.nuspec.in $(HEADER)
	$(call cs_step,NUSPEC,$@,mkdir -p $(@D) && sed 's|@VERSION@|$(VERSION)|' $< > $@)

$(CS_NUPKG): $(CS_NUGET_STAGE)/LibIdleLock.nuspec $(CS_NUGET_NATIVE) $(CS_DLL) $(CS_DOC) \
             LICENSE THIRD_PARTY_NOTICES.md bindings/csharp/README.md bindings/csharp/nuget/add-license-expression.py
	$(call cs_step,STAGE,$(CS_NUGET_STAGE),mkdir -p $(CS_NUGET_STAGE)/lib/net45 && \
	    cp $(CS_DLL) $(CS_DOC) $(CS_NUGET_STAGE)/lib/net45/ && \
	    cp LICENSE THIRD_PARTY_NOTICES.md bindings/csharp/README.md $(CS_NUGET_STAGE)/)
	$(call cs_step,NUGET,$@,rm -rf $@ $(CS_NUGET_DIR)/out && mkdir -p $(@D) $(CS_NUGET_DIR)/out $(CS_NUGET_DIR)/home && \
	    cd $(CS_NUGET_STAGE) && HOME=$(abspath $(CS_NUGET_DIR)/home) $(NUGET) pack LibIdleLock.nuspec \
	        -NonInteractive -NoPackageAnalysis -OutputDirectory $(abspath $(CS_NUGET_DIR)/out) && \
	    cd $(CURDIR) && $(PYTHON) bindings/csharp/nuget/add-license-expression.py $(CS_NUGET_DIR)/out/$(notdir $@) && \
	    mv $(CS_NUGET_DIR)/out/$(notdir $@) $@)

nuget: csharp $(CS_NUPKG)

test-nuget: test-deps nuget
	@sh bindings/csharp/nuget/test-nuget.sh $(CS_NUPKG) $(VERSION) bindings/csharp/examples/Example.cs

TEST_SUITES += test-nuget

# -- benchmark (mk/bindings-bench.mk) ----------------------------------------

CS_BENCH_EXE := $(CS_DIR)/Bench.exe
CS_BENCH_RUN  = cd $(CS_DIR) && LD_LIBRARY_PATH=$(abspath $(BUILD)):$(abspath $(BB_DIR)) $(MONO) Bench.exe

$(CS_BENCH_EXE): bench/bindings/Bench.cs $(CS_DLL)
	$(call cs_step,MCS,$@,$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ $<)

bench-csharp: csharp $(CS_BENCH_EXE) $(BB_NOOP)
	$(CS_BENCH_RUN)

bench-csharp-smoke: csharp $(CS_BENCH_EXE) $(BB_NOOP)
	$(CS_BENCH_RUN) --rounds 3 --iters 2000 > /dev/null
