# SPDX-License-Identifier: MIT
# mk/musl.mk: the library for musl (Alpine and every Linux without glibc),
# x86-64, built and tested here (docs/PLATFORMS.md, "musl").
#
#   make musl        build/musl/libidlelock.so: the self-contained variant
#                    (soname libidlelock.so, libsodium 1.0.18 built for musl
#                    from its release source, mk/libsodium.mk, linked in
#                    with its symbols hidden; NEEDED only musl's libc.so),
#                    with idlelock.h, LICENSE and THIRD_PARTY_NOTICES.md
#                    beside it (the test programs are in build/musl-tests)
#   make test-musl   check-library on it, then the C suites (test_abi,
#                    test_store, test_hygiene) and every trace, each a musl
#                    program run natively by musl's loader
#
# The route: the toolchain's Embedded stdlib for x86_64-unknown-linux-gnu
# makes no glibc call of its own, so the Swift core compiles for that
# triple against musl's headers (Debian's musl-dev, without the host's
# /usr/include) into one object; musl-gcc compiles the C support files and
# links. musl has no arc4random_buf, which the Embedded stdlib calls:
# arc4random_sodium.c provides it from libsodium.

MUSL_DIR      := $(BUILD)/musl
# Beside the folder: what builds it, and the test programs.
MUSL_WORK     := $(BUILD)/musl-work
MUSL_CC       := musl-gcc
MUSL_INCLUDE  := /usr/include/x86_64-linux-musl
MUSL_LIB      := $(MUSL_DIR)/libidlelock.so
MUSL_SUPPORT  := $(MUSL_WORK)/obj/last_error.o $(MUSL_WORK)/obj/struct_sizes.o $(MUSL_WORK)/obj/scrub_registers.o \
                 $(MUSL_WORK)/obj/arc4random_sodium.o
MUSL_SODIUM   := $(LIBSODIUM_DIR)/musl/libsodium.a
MUSL_TESTS    := $(BUILD)/musl-tests
MUSL_TEST_LINK := -L$(MUSL_DIR) -l:libidlelock.so -Wl,-rpath,$(abspath $(MUSL_DIR)) -lpthread

include mk/target.mk
include mk/libsodium.mk
libsodium_cc_musl     = $(MUSL_CC)
libsodium_cflags_musl = -fPIC
libsodium_ar_musl     = ar
libsodium_groups_musl = $(LIBSODIUM_X86_64_GROUPS)
# musl 1.2, as configure finds it: getrandom and getentropy (sys/random.h),
# explicit_bzero (for sodium_memzero), no memset_s; and x86-64's SIMD
# implementations.
LIBSODIUM_DEFINES_musl = -DHAVE_TI_MODE=1 -DHAVE_SYS_RANDOM_H=1 -DHAVE_GETRANDOM=1 -DHAVE_GETENTROPY=1 \
    -DHAVE_EXPLICIT_BZERO=1 $(LIBSODIUM_DEFINES_X86_64)
$(eval $(call libsodium_rules,musl))

.PHONY: musl musl-deps test-musl

musl-deps:
	@sh scripts/install-deps.sh --musl

# The folder a user copies whole, as build/<cpu>/self-contained/: the
# library, the header of the same version, the licence and libsodium's
# notice (it is linked in).
MUSL_FOLDER_FILES := $(MUSL_DIR)/idlelock.h $(MUSL_DIR)/LICENSE $(MUSL_DIR)/THIRD_PARTY_NOTICES.md
musl: musl-deps $(MUSL_LIB) $(MUSL_FOLDER_FILES)

$(MUSL_DIR)/idlelock.h: $(HEADER)
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(MUSL_DIR)/LICENSE: LICENSE
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(MUSL_DIR)/THIRD_PARTY_NOTICES.md: THIRD_PARTY_NOTICES.md
	@mkdir -p $(@D)
	$(Q)cp $< $@

# A sysroot whose usr/include is musl's headers: the Swift driver looks
# for its target's C library there (-sdk), and the host's glibc headers
# stay out.
$(MUSL_WORK)/sysroot/usr/include:
	@mkdir -p $(@D)
	$(Q)ln -sfn $(MUSL_INCLUDE) $@

# The library through the shared recipe (mk/target.mk).
target_swift_musl   := $(TARGET_SWIFT_PIC) -target x86_64-unknown-linux-gnu -sdk $(abspath $(MUSL_WORK)/sysroot) \
                       -Xcc -isystem -Xcc $(LIBSODIUM_INCLUDE)
target_cc_musl      := $(MUSL_CC)
target_cflags_musl  := $(filter-out -DILK_GLIBC_FLOOR,$(SUPPORT_CFLAGS)) -DILK_ARC4RANDOM_SODIUM -isystem $(LIBSODIUM_INCLUDE)
target_inputs_musl  := $(LIBSODIUM_READY)
target_order_musl   := $(MUSL_WORK)/sysroot/usr/include
target_link_musl    := $(MUSL_CC)
target_ldflags_musl := -Wl,--no-undefined
musl_link_libs      := -Wl,--exclude-libs,ALL $(MUSL_SODIUM)
$(eval $(call target_compile_rules,musl,$(MUSL_WORK)/obj))
$(eval $(call target_library_rule,musl,$(MUSL_LIB),libidlelock.so,$(MUSL_WORK)/obj/IdleLock.o $(MUSL_SUPPORT),$(musl_link_libs)))

# The C suites and the replay tool, as musl programs (the replay tool's
# `reboot` recomputes a store's checksum with its own copy of libsodium).
$(MUSL_TESTS)/test_abi: $(TEST_ABI_SOURCES) $(TEST_ABI_HEADERS) $(HEADER) $(MUSL_LIB)
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(MUSL_CC) $(CWARN) -Iinclude $(TEST_ABI_SOURCES) $(MUSL_TEST_LINK) -o $@

$(MUSL_TESTS)/test_store: $(TEST_STORE_SOURCES) $(TEST_STORE_HEADERS) $(HEADER) $(MUSL_LIB)
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(MUSL_CC) $(CWARN) -Iinclude $(TEST_STORE_SOURCES) $(MUSL_TEST_LINK) -o $@

$(MUSL_TESTS)/test_hygiene: $(CROSS_TEST_HYGIENE_SOURCES) $(HEADER) $(MUSL_LIB)
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(MUSL_CC) $(CWARN) -O1 -Iinclude $(CROSS_TEST_HYGIENE_SOURCES) $(MUSL_TEST_LINK) -o $@

$(MUSL_TESTS)/idlelock-replay: $(CROSS_REPLAY_SOURCES) tools/replay/fake_keystore.h $(HEADER) $(MUSL_LIB) $(MUSL_SODIUM)
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(MUSL_CC) $(CWARN) -Iinclude -isystem $(LIBSODIUM_INCLUDE) $(CROSS_REPLAY_SOURCES) $(MUSL_TEST_LINK) $(MUSL_SODIUM) -o $@

MUSL_PROGRAMS := $(MUSL_TESTS)/test_abi $(MUSL_TESTS)/test_store $(MUSL_TESTS)/test_hygiene $(MUSL_TESTS)/idlelock-replay

test-musl: musl $(MUSL_PROGRAMS)
	@$(STEPS_BEGIN)
	$(STEP) sh scripts/check-library.sh --self-contained --libc musl $(MUSL_LIB) $(HEADER)
	$(STEP) $(MUSL_TESTS)/test_abi
	$(STEP) $(MUSL_TESTS)/test_store $(STORE_PLATFORM_AREAS)
	$(STEP) $(MUSL_TESTS)/test_hygiene
	$(STEP) $(MUSL_TESTS)/idlelock-replay --quiet $(CROSS_TRACES)
	@$(STEPS_END)

TEST_SUITES += test-musl
