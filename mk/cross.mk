# SPDX-License-Identifier: MIT
# mk/cross.mk: the library for the CPUs hosts run, the self-contained
# variant, and their tests under emulation (docs/PLATFORMS.md).
#
#   make cross               the system variant for aarch64 and armv7,
#                            build/<cpu>/libidlelock.so.1 (x86-64's is
#                            `make lib`), and the self-contained variant for
#                            every CPU: the folder build/<cpu>/self-contained/
#                            that a user copies whole, libidlelock.so with
#                            idlelock.h, LICENSE and THIRD_PARTY_NOTICES.md
#                            (libsodium's notice: it is linked in)
#   make cross CROSS_CPUS=aarch64   one CPU only
#   make test-cross          every build: the memory-hygiene test and
#                            check-library; the self-contained variants
#                            every trace; the system variant of each ARM
#                            CPU test_abi and test_store's platform areas
#                            (armv7's on a CPU without NEON); the register
#                            scrub on every CPU (test_scrub); under
#                            qemu-user for ARM; what each self-contained
#                            folder holds
#   make check-glibc-floor   the glibc each built library needs is <= 2.17
#
# The route (this toolchain ships the Embedded Swift stdlib for x86-64 Linux
# but not for ARM Linux: compiling for aarch64-unknown-linux-gnu fails with
# "could not find module 'Swift'"): the Swift sources compile for the
# bare-metal triples, whose Embedded stdlib the toolchain has, against the
# cross glibc headers (the triple's clang with --sysroot), into one object;
# the triple's gcc links it with the same version script, soname and flags
# as the native build. Offline: everything comes from Debian's packages
# (scripts/install-deps.sh --cross). The tests run under qemu-user without
# -L: the multiarch libc6:arm64/armhf (pulled in by libsodium23) provide the
# loader and libraries; -L /usr/<triple> would pair the cross loader with
# another libc.so.6 and hang in pthread_create.

# The test programs built for every CPU and variant, each from its sources
# (the suites' own lists where the Makefile has them; repoint a list here
# when a suite moves).
CROSS_TEST_ABI_SOURCES     := $(TEST_ABI_SOURCES)
CROSS_TEST_STORE_SOURCES   := $(TEST_STORE_SOURCES)
CROSS_TEST_HYGIENE_SOURCES := Tests/c/test_hygiene.c
CROSS_REPLAY_SOURCES       := tools/replay/idlelock-replay.c
CROSS_TEST_SCRUB_SOURCES   := Tests/c/test_scrub.c
CROSS_TEST_DEPS            := $(HEADER) tools/replay/fake_keystore.h $(TEST_ABI_HEADERS) $(TEST_STORE_HEADERS)
CROSS_TRACES               := traces/*.trace

include mk/target.mk

CROSS_CPUS          ?= aarch64 armv7
SELF_CONTAINED_CPUS := x86_64 $(CROSS_CPUS)
GLIBC_FLOOR         := 2.17
# Each build step prints one line, its tool's output kept in build/logs/
# (BUILD_STEP, Makefile); `make V=1 cross` prints the commands too. Q: the
# other build commands of the mk files (`make Q= ...` echoes them).
Q ?= @
# Suites run at once (qemu-user is one process per suite: one per core).
CROSS_JOBS          ?= 2
CROSS_SUITE_TIMEOUT ?= 900
# test_store's own alarm (300 s natively) under qemu on a busy 2-core
# machine: the runner's CROSS_SUITE_TIMEOUT is the hang guard there.
CROSS_STORE_TIMEOUT ?= 840

# Per CPU: the Swift target, the GNU triple (cross gcc, sysroot, multiarch
# folder), extra C/Swift code-generation flags, and how to run a program.
cross_swift_target_x86_64  := x86_64-unknown-linux-gnu
cross_swift_target_aarch64 := aarch64-none-none-elf
cross_swift_target_armv7   := armv7-none-none-eabi
cross_gnu_x86_64  := x86_64-linux-gnu
cross_gnu_aarch64 := aarch64-linux-gnu
cross_gnu_armv7   := arm-linux-gnueabihf
# 32-bit ARM: Debian armhf's baseline (ARMv7-A, Thumb-2, VFPv3-D16, hard
# float, no NEON). Thumb-2 code is what keeps the library under its size
# goal: the A32 default makes it 231 KB stripped, Thumb-2 166 KB (ABI 1.2).
cross_codegen_armv7 := -march=armv7-a -mthumb -mfpu=vfpv3-d16 -mfloat-abi=hard
# 32-bit ARM's glibc calls with 64-bit file offsets, inode numbers and
# directory offsets (readdir64, fstat64, pread64, ...; Debian 13 builds all
# its armhf packages so): the 32-bit readdir fails (EOVERFLOW) where the kernel hands
# out 64-bit directory offsets (a 64-bit kernel not told the caller is
# 32-bit: qemu-user; NFS), and the 32-bit fstat wherever an inode number
# passes 32 bits (XFS, btrfs), which would make every durable step
# STORAGE. The Swift code calls them through the headers' own names (its
# compile only: glibc_floor.c defines fstat and fstat64 for the glibc floor).
cross_lfs_armv7 := -D_FILE_OFFSET_BITS=64
cross_run_x86_64  :=
cross_run_aarch64 := qemu-aarch64
cross_run_armv7   := qemu-arm
# A CPU without NEON and with only d0-d15 (VFPv3-D16): the scrub's other
# branch, and proof that the library uses no NEON instruction.
cross_run_armv7_vfp := qemu-arm -cpu cortex-r5f
# x86-64 CPUs older than this machine, for the scrub's other two branches:
# AVX without AVX-512 (qemu's TCG has no AVX-512), and SSE only.
cross_run_x86_64_avx := qemu-x86_64 -cpu max
cross_run_x86_64_sse := qemu-x86_64 -cpu Nehalem

cross_cc    = $(if $(filter x86_64,$(1)),$(CC),$(cross_gnu_$(1))-gcc)
cross_strip = $(if $(filter x86_64,$(1)),strip,$(cross_gnu_$(1))-strip)
cross_sysroot_flags = $(if $(filter x86_64,$(1)),,-Xcc --sysroot=/usr/$(cross_gnu_$(1)) \
    -Xcc -isystem -Xcc /usr/$(cross_gnu_$(1))/include -Xcc -isystem -Xcc $(CROSS_SODIUM_INCLUDE))
cross_swift_flags = -target $(cross_swift_target_$(1)) $(call cross_sysroot_flags,$(1)) \
    $(foreach f,$(cross_codegen_$(1)) $(cross_lfs_$(1)),-Xcc $(f))

# libsodium's headers are the same on every CPU (Multi-Arch: same); a folder
# with only them keeps the host's other headers out of a cross build.
CROSS_SODIUM_INCLUDE := $(BUILD)/cross-include
# AArch64 links with the Swift toolchain's lld. Its segments are 64 KiB
# aligned (kernels with 64 KiB pages), and GNU ld pads the file itself up to
# that alignment where RELRO ends (42 KB at 1.2.1: 199 520 bytes stripped,
# right at the size goal, whatever the code's size); lld leaves the gap in
# the address space only (157 736 bytes). common-page-size=64 KiB makes lld
# end RELRO on a 64 KiB boundary too (its .relro_padding, no file bytes), so
# the loader can make it read-only under 4, 16 and 64 KiB pages alike
# (glibc rounds RELRO's end down to the page). Same exports, same glibc
# floor (check-library and check-glibc-floor read the result).
cross_linker_aarch64 := -B$(SWIFT_TOOLCHAIN_BIN) -fuse-ld=lld -Wl,-z,common-page-size=65536
CROSS_TEST_LINK = -L$(1) -l:$(2) -Wl,-rpath,$(abspath $(1)) -lpthread

# The support objects of the native build (Makefile), per CPU, and the
# self-contained variant's one more.
# x86-64's objects are the native build's (the same compile: swiftc's and
# the C compiler's defaults on an x86-64 host).
cross_obj = $(if $(filter x86_64,$(1)),$(NATIVE_OBJ),$(BUILD)/$(1)/obj)
cross_support = $(patsubst $(NATIVE_OBJ)/%,$(call cross_obj,$(1))/%,$(SUPPORT_OBJECTS))
cross_support_sodium = $(call cross_obj,$(1))/glibc_floor_sodium.o

CROSS_SYSTEM_LIBS := $(foreach c,$(CROSS_CPUS),$(BUILD)/$(c)/$(SONAME))
SELF_CONTAINED_LIBS := $(foreach c,$(SELF_CONTAINED_CPUS),$(BUILD)/$(c)/self-contained/libidlelock.so)
# The self-contained folder a user copies whole: the library, the header of
# the same version (the soname does not tell ABI majors apart), the licence,
# and libsodium's notice (its code is inside).
SELF_CONTAINED_DIRS    := $(foreach c,$(SELF_CONTAINED_CPUS),$(BUILD)/$(c)/self-contained)
SELF_CONTAINED_FILES   := libidlelock.so idlelock.h LICENSE THIRD_PARTY_NOTICES.md
SELF_CONTAINED_FOLDERS := $(foreach d,$(SELF_CONTAINED_DIRS),$(addprefix $(d)/,$(SELF_CONTAINED_FILES)))

.PHONY: cross cross-deps test-cross check-glibc-floor

cross-deps:
	@sh scripts/install-deps.sh --cross

cross: cross-deps $(CROSS_SYSTEM_LIBS) $(SELF_CONTAINED_FOLDERS)

$(CROSS_SODIUM_INCLUDE)/sodium.h:
	@mkdir -p $(@D)
	@ln -sfn /usr/include/sodium $(@D)/sodium
	@ln -sf /usr/include/sodium.h $@

# Each CPU as a target of the shared recipe (mk/target.mk). Its compiles
# and links come after cross-deps (the cross compilers, the CPUs' libsodium)
# under make -j too.
define cross_target
target_order_$(1)   := cross-deps
target_swift_$(1)   := $(TARGET_SWIFT_PIC) $(call cross_swift_flags,$(1))
target_cc_$(1)      := $(call cross_cc,$(1))
target_cflags_$(1)  := $(SUPPORT_CFLAGS) $(cross_codegen_$(1))
target_inputs_$(1)  := $(CROSS_SODIUM_INCLUDE)/sodium.h
target_link_$(1)    := $(call cross_cc,$(1))
target_ldflags_$(1) := $(cross_linker_$(1))
endef

# cross_build_rules CPU: the system variant (as the native
# build/$(SONAME)) and the self-contained variant (libsodium.a inside, its
# symbols hidden).
cross_link_system := -lsodium -Wl,--no-as-needed -l:libpthread.so.0
cross_link_self_contained := -Wl,--exclude-libs,ALL -l:libsodium.a -Wl,--no-as-needed -l:libpthread.so.0
define cross_build_rules
$(eval $(call cross_target,$(1)))
$(if $(filter x86_64,$(1)),,$(eval $(call target_compile_rules,$(1),$(BUILD)/$(1)/obj)))
$(eval $(call target_library_rule,$(1),$(BUILD)/$(1)/$(SONAME),$(SONAME),$(call cross_obj,$(1))/IdleLock.o $(call cross_support,$(1)),$(cross_link_system)))
$(eval $(call target_library_rule,$(1),$(BUILD)/$(1)/self-contained/libidlelock.so,libidlelock.so,$(call cross_obj,$(1))/IdleLock.o $(call cross_support,$(1)) $(call cross_support_sodium,$(1)),$(cross_link_self_contained)))
endef

# cross_test_rules CPU DIR LIBFILE TESTDIR INCDIR: the test programs in
# TESTDIR, compiled against INCDIR/idlelock.h and linked against
# DIR/LIBFILE. The self-contained variant's programs compile against the
# header in its folder (all a user of the folder has) and live beside the
# folder, not in it. CROSS_TEST_CFLAGS: the programs' own readdir, fstat
# and pread in their 64-bit forms: under qemu-arm, a 32-bit guest on a
# 64-bit kernel, glibc's 32-bit readdir fails (EOVERFLOW: ext4's 64-bit
# directory offsets), so test_store's count of stray temporary files was
# 0 whatever the folder held and its cleanup left every folder in /tmp.
CROSS_TEST_CFLAGS := $(CWARN) -D_FILE_OFFSET_BITS=64
define cross_test_rules
$(4)/test_abi: $(CROSS_TEST_ABI_SOURCES) $(CROSS_TEST_DEPS) $(2)/$(3) $(5)/idlelock.h
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(call cross_cc,$(1)) $(CROSS_TEST_CFLAGS) -I$(5) $(CROSS_TEST_ABI_SOURCES) $(call CROSS_TEST_LINK,$(2),$(3)) -o $$@

$(4)/test_store: $(CROSS_TEST_STORE_SOURCES) $(CROSS_TEST_DEPS) $(2)/$(3) $(5)/idlelock.h
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(call cross_cc,$(1)) $(CROSS_TEST_CFLAGS) -I$(5) $(CROSS_TEST_STORE_SOURCES) $(call CROSS_TEST_LINK,$(2),$(3)) -o $$@

$(4)/test_hygiene: $(CROSS_TEST_HYGIENE_SOURCES) $(CROSS_TEST_DEPS) $(2)/$(3) $(5)/idlelock.h
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(call cross_cc,$(1)) $(CROSS_TEST_CFLAGS) -O1 -I$(5) $(CROSS_TEST_HYGIENE_SOURCES) $(call CROSS_TEST_LINK,$(2),$(3)) -o $$@

# The replay tool's `reboot` recomputes a store's checksum with the CPU's
# own libsodium (the self-contained variant keeps its copy hidden).
$(4)/idlelock-replay: $(CROSS_REPLAY_SOURCES) $(CROSS_TEST_DEPS) $(2)/$(3) $(5)/idlelock.h $(CROSS_SODIUM_INCLUDE)/sodium.h
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(call cross_cc,$(1)) $(CROSS_TEST_CFLAGS) -I$(5) -isystem $(CROSS_SODIUM_INCLUDE) $(CROSS_REPLAY_SOURCES) \
	    $(call CROSS_TEST_LINK,$(2),$(3)) -lsodium -o $$@
endef

# test_scrub links the scrub's object itself (the library does not export it).
define cross_scrub_rules
$(BUILD)/$(1)/tests/test_scrub: $(CROSS_TEST_SCRUB_SOURCES) $(call cross_obj,$(1))/scrub_registers.o Sources/CIdleLockSupport/include/idlelock_support.h
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(call cross_cc,$(1)) $(CWARN) -O1 -ISources/CIdleLockSupport/include -Iinclude $(CROSS_TEST_SCRUB_SOURCES) \
	    $(call cross_obj,$(1))/scrub_registers.o -o $$@
endef

# The self-contained folder's other files (SELF_CONTAINED_FILES).
$(addsuffix /idlelock.h,$(SELF_CONTAINED_DIRS)): $(HEADER)
	@mkdir -p $(@D)
	$(BUILD_STEP) CP $@ cp $< $@
$(addsuffix /LICENSE,$(SELF_CONTAINED_DIRS)): LICENSE
	@mkdir -p $(@D)
	$(BUILD_STEP) CP $@ cp $< $@
$(addsuffix /THIRD_PARTY_NOTICES.md,$(SELF_CONTAINED_DIRS)): THIRD_PARTY_NOTICES.md
	@mkdir -p $(@D)
	$(BUILD_STEP) CP $@ cp $< $@

# The programs CROSS_SUITES runs: test_store, test_abi and test_hygiene on
# the system variants, the replay tool and test_hygiene on the
# self-contained ones (the rules make the others too, on request).
CROSS_SYSTEM_PROGRAMS := test_store test_abi test_hygiene
CROSS_SELF_CONTAINED_PROGRAMS := idlelock-replay test_hygiene
$(foreach c,$(SELF_CONTAINED_CPUS),$(eval $(call cross_scrub_rules,$(c))))
$(foreach c,$(SELF_CONTAINED_CPUS),$(eval $(call cross_build_rules,$(c))))
$(foreach c,$(CROSS_CPUS),$(eval $(call cross_test_rules,$(c),$(BUILD)/$(c),$(SONAME),$(BUILD)/$(c)/tests,include)))
$(foreach c,$(SELF_CONTAINED_CPUS),$(eval $(call cross_test_rules,$(c),$(BUILD)/$(c)/self-contained,libidlelock.so,$(BUILD)/$(c)/self-contained-tests,$(BUILD)/$(c)/self-contained)))

CROSS_TEST_BINARIES := $(foreach c,$(CROSS_CPUS),$(foreach p,$(CROSS_SYSTEM_PROGRAMS),$(BUILD)/$(c)/tests/$(p))) \
    $(foreach c,$(SELF_CONTAINED_CPUS),$(foreach p,$(CROSS_SELF_CONTAINED_PROGRAMS),$(BUILD)/$(c)/self-contained-tests/$(p))) \
    $(foreach c,$(SELF_CONTAINED_CPUS),$(BUILD)/$(c)/tests/test_scrub)

# The builds under test, one word each: CPU:DIR:LIBFILE:CHECK-ARGS:TESTDIR.
CROSS_BUILDS := $(foreach c,$(CROSS_CPUS),$(c):$(BUILD)/$(c):$(SONAME):--size-goal=$(LIB_SIZE_GOAL):$(BUILD)/$(c)/tests) \
    $(foreach c,$(SELF_CONTAINED_CPUS),$(c):$(BUILD)/$(c)/self-contained:libidlelock.so:--self-contained:$(BUILD)/$(c)/self-contained-tests)
cross_word = $(word $(2),$(subst :, ,$(1)))
# cross_suite BUILD KIND COMMAND-TAIL: a "name|command" line for
# `scripts/run-suites.sh each`, COMMAND-TAIL run from TESTDIR under the CPU's
# emulator.
cross_suite = "$(call cross_word,$(1),1) $(call cross_word,$(1),3): $(2)|$(cross_run_$(call cross_word,$(1),1)) $(call cross_word,$(1),5)/$(3)"
cross_check = "$(call cross_word,$(1),1) $(call cross_word,$(1),3): check-library|sh scripts/check-library.sh $(subst =, ,$(call cross_word,$(1),4)) --strip $(call cross_strip,$(call cross_word,$(1),1)) $(call cross_word,$(1),2)/$(call cross_word,$(1),3) $(HEADER)"

CROSS_NO_NEON := armv7 $(SONAME) on a CPU without NEON (VFPv3-D16)
# The slowest suites first; each program runs once per CPU where the
# builds share what it tests. The system variant of each emulated CPU runs
# test_store (its platform areas, STORE_PLATFORM_AREAS: the rules' areas
# are the same code on every CPU, and test-c runs them all) and test_abi;
# armv7's test_abi and test_hygiene run on a CPU without NEON only (code
# that runs there runs on a CPU with it). The self-contained variants link
# the same object (IdleLock.o) with libsodium inside, which every trace
# (unlocks, sealed secrets, the biometric wraps) and the hygiene test run
# through: the traces run there, once per CPU.
CROSS_SYSTEM_BUILDS := $(foreach c,$(CROSS_CPUS),$(c):$(BUILD)/$(c):$(SONAME):--size-goal=$(LIB_SIZE_GOAL):$(BUILD)/$(c)/tests)
CROSS_SELF_CONTAINED_BUILDS := $(filter-out $(CROSS_SYSTEM_BUILDS),$(CROSS_BUILDS))
# The system builds whose CPU has no other variant of its own for
# test_abi and test_hygiene (armv7's is the CPU without NEON, below).
CROSS_SYSTEM_DEFAULT_CPU := $(filter-out armv7:%,$(CROSS_SYSTEM_BUILDS))
# test_store's lock_file_races area is left out: processes racing over a
# deleted lock file (90 Argon2id runs, a minute of CPU under qemu-arm),
# where what races is the host kernel's flock, unlink and rename, which
# qemu-user calls for the guest; test-c, test-musl, test-android and
# test-c-sanitized race them natively. What the CPU's build changes there
# (the device and inode compared, the flock waits) lock_file_replaced
# runs on every CPU.
CROSS_STORE_AREAS := $(filter-out lock_file_races,$(STORE_PLATFORM_AREAS))
CROSS_SUITES := $(foreach b,$(CROSS_SYSTEM_BUILDS),$(call cross_suite,$(b),test_store,test_store $(CROSS_STORE_AREAS))) \
    $(foreach b,$(CROSS_SYSTEM_DEFAULT_CPU),$(call cross_suite,$(b),test_abi,test_abi)) \
    $(if $(filter armv7,$(CROSS_CPUS)),"$(CROSS_NO_NEON): test_abi|$(cross_run_armv7_vfp) $(BUILD)/armv7/tests/test_abi") \
    $(foreach b,$(CROSS_SELF_CONTAINED_BUILDS),$(call cross_suite,$(b),traces,idlelock-replay --quiet $(CROSS_TRACES))) \
    $(foreach b,$(CROSS_SYSTEM_DEFAULT_CPU) $(CROSS_SELF_CONTAINED_BUILDS),$(call cross_suite,$(b),test_hygiene,test_hygiene)) \
    $(foreach c,$(SELF_CONTAINED_CPUS),"$(c) scrub_registers.c: test_scrub|$(cross_run_$(c)) $(BUILD)/$(c)/tests/test_scrub") \
    "x86_64 scrub_registers.c on a CPU with AVX, no AVX-512: test_scrub|$(cross_run_x86_64_avx) $(BUILD)/x86_64/tests/test_scrub" \
    "x86_64 scrub_registers.c on a CPU with SSE only: test_scrub|$(cross_run_x86_64_sse) $(BUILD)/x86_64/tests/test_scrub" \
    $(if $(filter armv7,$(CROSS_CPUS)),"$(CROSS_NO_NEON): test_hygiene|$(cross_run_armv7_vfp) $(BUILD)/armv7/tests/test_hygiene" \
        "armv7 scrub_registers.c on a CPU without NEON (VFPv3-D16): test_scrub|$(cross_run_armv7_vfp) $(BUILD)/armv7/tests/test_scrub") \
    $(foreach b,$(CROSS_BUILDS),$(call cross_check,$(b))) \
    $(foreach c,$(SELF_CONTAINED_CPUS),"$(c) libidlelock.so: the self-contained folder|sh scripts/check-self-contained.sh $(BUILD)/$(c)/self-contained $(HEADER) $(call cross_cc,$(c))")

# Every suite of every build, CROSS_JOBS at once.
test-cross: cross $(CROSS_TEST_BINARIES)
	@printf '%s\n' $(CROSS_SUITES) | IDLELOCK_TEST_TIMEOUT=$(CROSS_STORE_TIMEOUT) V=$(V) sh scripts/run-suites.sh each test-cross $(BUILD)/cross-logs $(CROSS_JOBS) $(CROSS_SUITE_TIMEOUT)

check-glibc-floor: lib cross
	@$(STEPS_BEGIN)
	$(STEP) sh scripts/check-glibc-floor.sh $(GLIBC_FLOOR) $(LIB) $(CROSS_SYSTEM_LIBS) $(SELF_CONTAINED_LIBS)
	@$(STEPS_END)

TEST_SUITES += test-cross check-glibc-floor
