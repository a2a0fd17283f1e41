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
#   make nuget         build/dist/LibIdleLock.<version>.nupkg: the assembly for
#                      net45 (Mono) and for netstandard2.0 (.NET 6+, Godot 4, Unity),
#                      and runtimes/linux-x64|linux-arm64|linux-arm/native/libidlelock.so
#                      (the self-contained variant of make cross) and
#                      runtimes/linux-musl-x64/native/libidlelock.so (make musl),
#                      packed by Debian's nuget; reproducible (scripts/reproducible.py)
#   make test-nuget    installs that package with nuget from a local folder, offline,
#                      into a fresh folder, checks its files and metadata, runs the
#                      README's example against each assembly with no library path
#                      set, and the binding's tests against the netstandard2.0 one
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
# (the constants, a few overloads) are documented in the README. mcs gives
# each compile a random module version id: reproducible.py derives it from
# the contents instead (and updates the debug symbols that name it).
$(CS_DLL) $(CS_DOC) &: $(CS_SRC) scripts/reproducible.py
	$(call cs_step,MCS,$(CS_DLL),$(MCS) $(MCS_FLAGS) -target:library -doc:$(CS_DOC) -nowarn:1591 -out:$(CS_DLL) $(CS_SRC) && \
	    $(PYTHON) scripts/reproducible.py pe-mvid $(CS_DLL) $(CS_DLL).mdb)

$(CS_TEST_EXE): $(CS_TEST_SRC) $(CS_DLL)
	$(call cs_step,MCS,$@,$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ $(CS_TEST_SRC))

$(CS_REPLAY_EXE): bindings/csharp/replay/Replay.cs $(CS_DLL)
	$(call cs_step,MCS,$@,$(MCS) $(MCS_FLAGS) -target:exe -r:$(CS_DLL) -out:$@ bindings/csharp/replay/Replay.cs)

csharp: lib $(CS_DLL)

test-csharp: test-deps csharp $(CS_TEST_EXE) $(CS_REPLAY_EXE) $(BUILD)/idlelock-replay
	@$(STEPS_BEGIN)
	$(STEP) sh -c 'cd $(CS_DIR) && $(CS_RUN) $(notdir $(CS_TEST_EXE))'
	$(STEP) sh bindings/csharp/replay/compare-traces.sh $(BUILD)/idlelock-replay $(abspath $(BUILD)) \
	    $(CS_REPLAY_EXE) traces/*.trace
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
CS_NUGET_NATIVE := $(foreach c,x86_64 aarch64 armv7,$(CS_NUGET_STAGE)/runtimes/$(cs_rid_$(c))/native/libidlelock.so) \
                   $(CS_NUGET_STAGE)/runtimes/linux-musl-x64/native/libidlelock.so

# cs_native_rule CPU: the package's copy of that CPU's self-contained library, stripped.
define cs_native_rule
$(CS_NUGET_STAGE)/runtimes/$(cs_rid_$(1))/native/libidlelock.so: $(BUILD)/$(1)/self-contained/libidlelock.so
	$$(call cs_step,STRIP,$$@,mkdir -p $$(@D) && $(call cross_strip,$(1)) -o $$@ $$<)
endef
$(foreach c,x86_64 aarch64 armv7,$(eval $(call cs_native_rule,$(c))))

# linux-musl-x64: the musl build, what .NET picks on Alpine (mk/musl.mk's
# MUSL_LIB, named here as that file is read after this one).
$(CS_NUGET_STAGE)/runtimes/linux-musl-x64/native/libidlelock.so: $(BUILD)/musl/libidlelock.so
	$(call cs_step,STRIP,$@,mkdir -p $(@D) && strip -o $@ $<)

# -- the netstandard2.0 assembly ---------------------------------------------
#
# No netstandard reference assembly can be had here (no .NET SDK; Debian's
# Mono compiles against .NET Framework's): the binding is compiled against
# .NET Framework 4.7.1's reference assemblies (Debian's mono-devel), marked
# [TargetFramework(".NETStandard,Version=v2.0")], and Retarget.exe moves
# every framework type it uses to the assembly netstandard 2.0.0.0, after
# checking that netstandard 2.0 has it (Mono's netstandard facade lists its
# types): bindings/csharp/nuget/Retarget.cs says why that is a netstandard2.0
# assembly, and what it does not check.
CS_NS_DIR     := $(BUILD)/csharp-netstandard2.0
CS_NS_DLL     := $(CS_NS_DIR)/LibIdleLock.dll
CS_NS_DOC     := $(CS_NS_DIR)/LibIdleLock.xml
CS_API_REFS   := /usr/lib/mono/4.7.1-api
CS_NS_FACADE  := $(CS_API_REFS)/Facades/netstandard.dll
CS_CECIL      := $(firstword $(wildcard /usr/lib/mono/gac/Mono.Cecil/0.11.*/Mono.Cecil.dll) Mono.Cecil.dll)
CS_RETARGET   := $(CS_NS_DIR)/Retarget.exe

$(CS_RETARGET): bindings/csharp/nuget/Retarget.cs
	$(call cs_step,MCS,$@,mkdir -p $(@D) && $(MCS) -warn:4 -warnaserror+ -nologo -r:$(CS_CECIL) -out:$@ $<)

$(CS_NS_DLL) $(CS_NS_DOC) &: $(CS_SRC) $(CS_RETARGET)
	$(call cs_step,MCS,$(CS_NS_DLL),mkdir -p $(CS_NS_DIR)/framework && \
	    printf '[assembly: System.Runtime.Versioning.TargetFramework(".NETStandard,Version=v2.0", FrameworkDisplayName = "")]\n' \
	        > $(CS_NS_DIR)/TargetFramework.cs && \
	    $(MCS) -warn:4 -warnaserror+ -optimize+ -nologo -nostdlib -noconfig -target:library \
	        -r:$(CS_API_REFS)/mscorlib.dll -r:$(CS_API_REFS)/System.dll -r:$(CS_API_REFS)/System.Core.dll \
	        -doc:$(CS_NS_DOC) -nowarn:1591 -out:$(CS_NS_DIR)/framework/LibIdleLock.dll $(CS_SRC) $(CS_NS_DIR)/TargetFramework.cs && \
	    $(MONO) $(CS_RETARGET) $(CS_NS_DIR)/framework/LibIdleLock.dll $(CS_NS_DLL) $(CS_NS_FACADE))

# The package's README: its links made absolute (it is read on the
# package's page, outside this tree).
$(CS_NUGET_STAGE)/README.md: bindings/csharp/README.md scripts/md-links.py $(HEADER)
	$(call cs_step,README,$@,mkdir -p $(@D) && $(PYTHON) scripts/md-links.py absolute --url $(PROJECT_URL) \
	    --tag $(PROJECT_TAG) --path $< $< $@)

$(CS_NUGET_STAGE)/LibIdleLock.nuspec: bindings/csharp/nuget/LibIdleLock.nuspec.in $(HEADER)
	$(call cs_step,NUSPEC,$@,mkdir -p $(@D) && sed -e 's|@VERSION@|$(VERSION)|' -e 's|@PROJECT_URL@|$(PROJECT_URL)|' $< > $@)

# Packed with NuGet's package analysis on: an issue it finds fails the
# build, but one: nuget 2.8.7 (2015) predates netstandard (2016) and calls
# lib/netstandard2.0 an invalid framework folder, which every NuGet since 3.x
# reads (cs_pack_issues counts the others).
cs_pack_issues = $$(( $$(grep -c '^Issue:' $(1)) - $$(grep -c "folder 'netstandard2.0' under 'lib' is not recognized" $(1)) ))
$(CS_NUPKG): $(CS_NUGET_STAGE)/LibIdleLock.nuspec $(CS_NUGET_NATIVE) $(CS_DLL) $(CS_DOC) $(CS_NS_DLL) $(CS_NS_DOC) \
             $(CS_NUGET_STAGE)/README.md LICENSE THIRD_PARTY_NOTICES.md bindings/csharp/nuget/finish-nuspec.py \
             scripts/reproducible.py $(RELEASE_STAMP)
	$(call cs_step,STAGE,$(CS_NUGET_STAGE),mkdir -p $(CS_NUGET_STAGE)/lib/net45 $(CS_NUGET_STAGE)/lib/netstandard2.0 && \
	    cp $(CS_DLL) $(CS_DOC) $(CS_NUGET_STAGE)/lib/net45/ && \
	    cp $(CS_NS_DLL) $(CS_NS_DOC) $(CS_NUGET_STAGE)/lib/netstandard2.0/ && \
	    cp LICENSE THIRD_PARTY_NOTICES.md $(CS_NUGET_STAGE)/)
	$(call cs_step,NUGET,$@,rm -rf $@ $(CS_NUGET_DIR)/out && mkdir -p $(@D) $(CS_NUGET_DIR)/out $(CS_NUGET_DIR)/home && \
	    cd $(CS_NUGET_STAGE) && HOME=$(abspath $(CS_NUGET_DIR)/home) $(NUGET) pack LibIdleLock.nuspec \
	        -NonInteractive -OutputDirectory $(abspath $(CS_NUGET_DIR)/out) > $(abspath $(CS_NUGET_DIR)/pack.log) 2>&1 && \
	    cat $(abspath $(CS_NUGET_DIR)/pack.log) && test $(call cs_pack_issues,$(abspath $(CS_NUGET_DIR)/pack.log)) -eq 0 && \
	    cd $(CURDIR) && $(PYTHON) bindings/csharp/nuget/finish-nuspec.py $(CS_NUGET_DIR)/out/$(notdir $@) \
	        $(PROJECT_URL) $(PROJECT_COMMIT) && \
	    $(PYTHON) scripts/reproducible.py nupkg $(CS_NUGET_DIR)/out/$(notdir $@) && \
	    mv $(CS_NUGET_DIR)/out/$(notdir $@) $@)

nuget: csharp musl-deps $(CS_NUPKG)

test-nuget: test-deps nuget
	@PROJECT_URL=$(PROJECT_URL) PROJECT_TAG=$(PROJECT_TAG) \
	    sh bindings/csharp/nuget/test-nuget.sh $(CS_NUPKG) $(VERSION) bindings/csharp/examples/Example.cs

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
