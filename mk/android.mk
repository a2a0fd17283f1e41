# SPDX-License-Identifier: MIT
# mk/android.mk: the library and its JNI glue for Android, built here
# without the NDK; the AAR an app adds with one Gradle line; and what can
# be checked of them without a device (docs/PLATFORMS.md, "Android").
#
#   make android       build/android/jniLibs/<abi>/libidlelock.so (the
#                      self-contained variant: libsodium inside, NEEDED
#                      only bionic's libc.so) and libidlelock_jni.so (the
#                      Java binding's glue, NEEDED libidlelock.so), for
#                      arm64-v8a, armeabi-v7a, x86_64 and x86, minSdk 24
#   make aar           build/dist/maven/org/idlelock/idlelock-android/<v>/
#                      idlelock-android-<v>.aar and .pom: a Maven
#                      repository folder Gradle reads (bindings/java/README.md,
#                      "Android")
#   make test-android  scripts/check-android.py on every ABI's two
#                      libraries and on the AAR, the C suites' struct
#                      checks compiled for every ABI, the per-thread error
#                      of last_error.c's Android path run here, the
#                      vendored AOSP files against their checksums; and
#                      the x86_64 build run here through a stand-in for
#                      bionic (Tests/c/bionic_shim.c): the C suites, every
#                      trace, the Java tests with the Android glue
#
# The route. Android's C library headers and symbol lists are AOSP's
# bionic, vendored in third_party/aosp/ (a pinned commit; its README). The
# Swift core compiles as mk/cross.mk compiles it (the bare-metal Embedded
# triples: this toolchain has no Embedded stdlib for an Android triple)
# against bionic's headers, with the macros an Android target predefines;
# the C files (support, libsodium from its release source, the glue)
# compile with the toolchain's clang for <cpu>-linux-android24, and link
# with its lld against stub libc.so/libm.so/libdl.so that
# scripts/android-stubs.py makes from bionic's map files for API 24, as the
# NDK's stub libraries are made: a symbol introduced after API 24 is not in
# them, and the link fails. The compiler's helper functions (64-bit
# division on 32-bit CPUs, ...) come from Debian's cross libgcc of each
# CPU, linked in hidden (armeabi-v7a: armel's, the soft-float calling
# convention Android uses there). What each ABI needs:
#   arm64-v8a    -ffixed-x18 (Android reserves x18: the shadow call stack),
#                -mno-outline-atomics (libgcc's outline atomics read
#                glibc's __getauxval)
#   armeabi-v7a  ARMv7-A, Thumb-2, VFPv3-D16, float arguments in integer
#                registers (-mfloat-abi=softfp: the armeabi-v7a ABI)
#   x86          i686 with SSSE3 (the x86 ABI), and a stack 16-byte aligned
#                at every call (-mstack-alignment=16: the bare-metal i686
#                target keeps 4; Android's x86 code, libsodium's SSE code
#                among it, may keep 16-byte values on the stack)
# and on every ABI the per-thread last error without ELF TLS
# (Sources/CIdleLockSupport/last_error.c: a pthread key).

include mk/target.mk
include mk/libsodium.mk

ANDROID_API     := 24
ANDROID_ABIS    ?= arm64-v8a armeabi-v7a x86_64 x86
ANDROID_DIR     := $(BUILD)/android
ANDROID_JNILIBS := $(ANDROID_DIR)/jniLibs
AOSP            := third_party/aosp
BIONIC          := $(AOSP)/bionic
ANDROID_JNI_H   := $(AOSP)/libnativehelper/include_jni
ANDROID_BIN     := $(dir $(realpath $(shell command -v $(SWIFTC))))
ANDROID_CC      := $(ANDROID_BIN)clang
ANDROID_AR      := $(ANDROID_BIN)llvm-ar
ANDROID_OBJCOPY := $(ANDROID_BIN)llvm-objcopy
ANDROID_OBJDUMP := $(ANDROID_BIN)llvm-objdump

# Per ABI: clang's triple (with the API level appended), bionic's CPU name
# (the map files' tags), its kernel headers' asm folder, the Swift target,
# code generation (C and Swift alike), and the libgcc of the CPU.
android_triple_arm64-v8a   := aarch64-linux-android
android_triple_armeabi-v7a := armv7a-linux-androideabi
android_triple_x86_64      := x86_64-linux-android
android_triple_x86         := i686-linux-android
android_arch_arm64-v8a     := arm64
android_arch_armeabi-v7a   := arm
android_arch_x86_64        := x86_64
android_arch_x86           := x86
android_asm_arm64-v8a      := asm-arm64
android_asm_armeabi-v7a    := asm-arm
android_asm_x86_64         := asm-x86
android_asm_x86            := asm-x86
android_swift_arm64-v8a    := aarch64-none-none-elf
android_swift_armeabi-v7a  := armv7-none-none-eabi
android_swift_x86_64       := x86_64-unknown-none-elf
android_swift_x86          := i686-unknown-none-elf
android_codegen_arm64-v8a   := -ffixed-x18 -mno-outline-atomics
android_codegen_armeabi-v7a := -march=armv7-a -mthumb -mfpu=vfpv3-d16 -mfloat-abi=softfp
android_codegen_x86_64      :=
android_codegen_x86         := -march=i686 -mssse3 -mstack-alignment=16
android_gcc_lib = $(lastword $(sort $(wildcard /usr/lib/gcc-cross/$(1)/*/libgcc.a /usr/lib/gcc/$(1)/*/libgcc.a)))
android_libgcc_arm64-v8a    = $(call android_gcc_lib,aarch64-linux-gnu)
android_libgcc_armeabi-v7a  = $(call android_gcc_lib,arm-linux-gnueabi)
android_libgcc_x86_64       = $(call android_gcc_lib,x86_64-linux-gnu)
android_libgcc_x86          = $(call android_gcc_lib,i686-linux-gnu)

# bionic's headers for ABI $(1), as the NDK's sysroot lays them out; no
# header of the host's (-nostdlibinc keeps the compiler's own).
android_includes = -nostdlibinc -isystem $(BIONIC)/libc/include -isystem $(BIONIC)/libc/kernel/android/uapi \
    -isystem $(BIONIC)/libc/kernel/uapi/$(android_asm_$(1)) -isystem $(BIONIC)/libc/kernel/uapi -isystem $(LIBSODIUM_INCLUDE)
android_cc = $(ANDROID_CC) --target=$(android_triple_$(1))$(ANDROID_API) $(call android_includes,$(1))
# What clang predefines for an Android triple and not for the bare-metal
# one the Swift core compiles for: bionic's headers read these.
ANDROID_PREDEFINED := -D__ANDROID__=1 -D__ANDROID_MIN_SDK_VERSION__=$(ANDROID_API) -D__ANDROID_API__=$(ANDROID_API) \
    -D__linux__=1 -D__linux=1 -D__unix__=1 -D__unix=1
android_stubs = $(ANDROID_DIR)/$(1)/stubs
# Linked last: the CPU's helpers, then the API-24 stubs (only the ones a
# library needs become NEEDED).
android_runtime = $(android_libgcc_$(1)) -Wl,--as-needed $(call android_stubs,$(1))/libc.so \
    $(call android_stubs,$(1))/libm.so $(call android_stubs,$(1))/libdl.so
# 16 KiB pages (Google Play, for apps targeting Android 15), every symbol
# resolved at link time.
ANDROID_LDFLAGS := -Wl,-z,max-page-size=16384 -Wl,--no-undefined -Wl,--build-id=sha1
# arc4random_sodium.c: the Embedded stdlib's arc4random_buf is libsodium's
# on Android too (bionic has its own; every random byte of the library
# comes from libsodium: docs/ARCHITECTURE.md, "The platform layer").
ANDROID_SUPPORT := last_error struct_sizes scrub_registers arc4random_sodium

# android_abi ABI: the target variables of mk/target.mk, libsodium's, and
# the rules of its stubs, library and glue.
define android_abi
android_objects_$(1)   := $(ANDROID_DIR)/$(1)/obj/IdleLock.o $(foreach s,$(ANDROID_SUPPORT),$(ANDROID_DIR)/$(1)/obj/$(s).o)
android_link_libs_$(1) := -Wl,--exclude-libs,ALL $(call libsodium_archive,android-$(1)) $(call android_runtime,$(1))
target_swift_android-$(1)   := $(TARGET_SWIFT_PIC) -target $(android_swift_$(1)) -module-cache-path $(ANDROID_DIR)/$(1)/module-cache $(foreach f,$(call android_includes,$(1)) $(ANDROID_PREDEFINED) $(android_codegen_$(1)),-Xcc $(f))
target_cc_android-$(1)      := $(call android_cc,$(1))
target_cflags_android-$(1)  := $(filter-out -DILK_GLIBC_FLOOR,$(SUPPORT_CFLAGS)) -DILK_ARC4RANDOM_SODIUM $(android_codegen_$(1))
target_inputs_android-$(1)  := $(LIBSODIUM_READY)
target_link_android-$(1)    := $(ANDROID_CC) --target=$(android_triple_$(1))$(ANDROID_API) -fuse-ld=lld -nostdlib
target_ldflags_android-$(1) := $(ANDROID_LDFLAGS)

libsodium_cc_android-$(1)     = $(call android_cc,$(1))
libsodium_cflags_android-$(1) = -fPIC $(android_codegen_$(1))
libsodium_ar_android-$(1)     = $(ANDROID_AR)
libsodium_groups_android-$(1) = $(if $(filter x86%,$(1)),$(LIBSODIUM_X86_64_GROUPS))
# bionic at API 24, as configure finds it: no getrandom() (API 28: libsodium
# makes the system call itself, which Android's app seccomp filter allows
# from Android 8, the first that has one), no explicit_bzero, no memset_s;
# x86's SIMD implementations but RDRAND's (clang will not inline its
# intrinsic into code not built for it; libsodium's default generator
# never uses it).
LIBSODIUM_DEFINES_android-$(1) = $(if $(filter %64%,$(1)),-DHAVE_TI_MODE=1) \
    $(if $(filter x86%,$(1)),$(filter-out -DHAVE_RDRAND=1,$(LIBSODIUM_DEFINES_X86_64)))

$(ANDROID_DIR)/$(1)/libidlelock_jni.so: bindings/java/jni/idlelock_jni.c bindings/java/jni/idlelock_jni_generated.h $(HEADER) $(ANDROID_JNI_H)/jni.h \
    $(ANDROID_DIR)/$(1)/libidlelock.so $(call android_stubs,$(1))/libc.so $(call android_stubs,$(1))/libm.so \
    $(call android_stubs,$(1))/libdl.so
	$(BUILD_STEP) CC $$@ $$(target_link_android-$(1)) $(call android_includes,$(1)) -isystem $(ANDROID_JNI_H) -Iinclude \
	    -std=c11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror $(android_codegen_$(1)) -shared -o $$@ $$< \
	    -Wl,-soname=libidlelock_jni.so -Wl,-z,now -Wl,-z,relro -Wl,-z,noexecstack $(ANDROID_LDFLAGS) \
	    $(ANDROID_DIR)/$(1)/libidlelock.so $(call android_runtime,$(1))

# What ships: the two libraries without their symbol tables (the dynamic
# table stays), as the Android Gradle Plugin strips an app's own.
$(ANDROID_JNILIBS)/$(1)/%.so: $(ANDROID_DIR)/$(1)/%.so
	@mkdir -p $$(@D)
	$(BUILD_STEP) STRIP $$@ $(ANDROID_OBJCOPY) --strip-all $$< $$@
endef

# android_stub ABI LIB: the stub LIB.so (libc, libm, libdl) for ABI.
define android_stub
$(call android_stubs,$(1))/$(2).so: $(BIONIC)/$(2)/$(2).map.txt scripts/android-stubs.py
	@mkdir -p $$(@D)
	$(BUILD_STEP) STUBS $$(@:.so=.c) $(PYTHON) scripts/android-stubs.py --arch $(android_arch_$(1)) --api $(ANDROID_API) \
	    $$< $$(@:.so=.c) $$(@:.so=.map)
	$(BUILD_STEP) CC $$@ $(target_link_android-$(1)) -shared -fPIC -fno-builtin -w -fno-unwind-tables \
	    -Wl,--version-script=$$(@:.so=.map) -Wl,-soname=$(2).so -o $$@ $$(@:.so=.c)
endef

$(foreach a,$(ANDROID_ABIS),$(eval $(call android_abi,$(a))))
$(foreach a,$(ANDROID_ABIS),$(foreach l,libc libm libdl,$(eval $(call android_stub,$(a),$(l)))))
$(foreach a,$(ANDROID_ABIS),$(eval $(call libsodium_rules,android-$(a))))
$(foreach a,$(ANDROID_ABIS),$(eval $(call target_compile_rules,android-$(a),$(ANDROID_DIR)/$(a)/obj)))
$(foreach a,$(ANDROID_ABIS),$(eval $(call target_library_rule,android-$(a),$(ANDROID_DIR)/$(a)/libidlelock.so,libidlelock.so,$(android_objects_$(a)),$(android_link_libs_$(a)))))

ANDROID_LIBS := $(foreach a,$(ANDROID_ABIS),$(ANDROID_JNILIBS)/$(a)/libidlelock.so $(ANDROID_JNILIBS)/$(a)/libidlelock_jni.so)

.PHONY: android android-deps aar test-android

android-deps:
	@sh scripts/install-deps.sh --android

android: android-deps $(ANDROID_LIBS)

# -- the AAR (bindings/java/README.md, "Android") ------------------------------

# java.mk's JAVA_JAR (that file is read after this one): the binding's
# classes, javac --release 8.
ANDROID_CLASSES := $(BUILD)/java/idlelock.jar
AAR_REPO    := $(BUILD)/dist/maven
AAR_DIR     := $(AAR_REPO)/org/idlelock/idlelock-android/$(VERSION)
AAR_FILE    := $(AAR_DIR)/idlelock-android-$(VERSION).aar
AAR_POM     := $(AAR_DIR)/idlelock-android-$(VERSION).pom
AAR_INPUTS  := bindings/java/android/make-aar.py bindings/java/android/AndroidManifest.xml \
               bindings/java/android/proguard.txt LICENSE THIRD_PARTY_NOTICES.md $(ANDROID_LIBS) $(ANDROID_CLASSES)

$(AAR_FILE): $(AAR_INPUTS)
	$(BUILD_STEP) AAR $@ $(PYTHON) bindings/java/android/make-aar.py $(VERSION) $(ANDROID_CLASSES) $(ANDROID_JNILIBS) \
	    $@ $(ANDROID_ABIS)

# The Java binding's pom (java.mk's java_pom, read after this file: the
# recipe expands it), as the AAR's.
$(AAR_POM): bindings/java/pom.xml.in bindings/java/android/make-aar.py $(HEADER)
	@mkdir -p $(@D)
	@echo "  POM     $@"
	@$(call java_pom,aar) | $(PYTHON) bindings/java/android/make-aar.py --pom > $@.tmp && mv $@.tmp $@

aar: android $(AAR_FILE) $(AAR_POM)

# -- the checks ------------------------------------------------------------------

ANDROID_TESTS := $(ANDROID_DIR)/tests
# last_error.c alone, as a library in each of its two forms (the test loads
# it with dlopen), and its test, built for this machine.
$(ANDROID_TESTS)/last_error-%.so: Sources/CIdleLockSupport/last_error.c Sources/CIdleLockSupport/include/idlelock_support.h
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(CC) -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror $(if $(filter key,$*),-DILK_LAST_ERROR_PTHREAD_KEY) \
	    -ISources/CIdleLockSupport/include -o $@ $<
$(ANDROID_TESTS)/test_last_error: Tests/c/test_last_error.c
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -o $@ $< -lpthread -ldl

# android_checks ABI: the suite's steps for one ABI: its two libraries
# (scripts/check-android.py, scripts/check-library.sh), and the layout
# tables of Tests/abi-baseline/test_layout.c as both compilers of the build see the
# header: the C compiler's Android target, and the Swift core's bare-metal
# target with the same headers and macros (so the Swift side and C agree).
android_strip_arm64-v8a   := aarch64-linux-gnu-strip
android_strip_armeabi-v7a := arm-linux-gnueabihf-strip
android_strip_x86_64      := strip
android_strip_x86         := strip
define android_checks
	$(STEP) $(PYTHON) scripts/check-android.py libs --abi $(1) --api $(ANDROID_API) \
	    --lib $(ANDROID_JNILIBS)/$(1)/libidlelock.so --glue $(ANDROID_JNILIBS)/$(1)/libidlelock_jni.so \
	    --symbols $(ANDROID_DIR)/$(1)/libidlelock.so \
	    --stubs $(call android_stubs,$(1)) --objdump $(ANDROID_OBJDUMP) --link "$(target_link_android-$(1))"
	$(STEP) sh scripts/check-library.sh --self-contained --libc bionic --strip $(android_strip_$(1)) \
	    $(ANDROID_DIR)/$(1)/libidlelock.so $(HEADER)
	$(STEP) $(call android_cc,$(1)) $(android_codegen_$(1)) -std=c99 -Wall -Werror -DLAYOUT_STATIC -Iinclude \
	    -fsyntax-only Tests/abi-baseline/test_layout.c
	$(STEP) $(ANDROID_CC) --target=$(android_swift_$(1)) $(call android_includes,$(1)) $(ANDROID_PREDEFINED) \
	    $(android_codegen_$(1)) -std=c99 -Wall -Werror -DLAYOUT_STATIC -Iinclude -fsyntax-only Tests/abi-baseline/test_layout.c

endef

# The x86_64 build, run here: Tests/c/bionic_shim.c stands in for bionic's
# libc.so on this machine's glibc (only where the two ABIs agree on x86-64;
# the file says which), so the C suites, every trace and the Java tests
# (the Android glue on the JVM, -Xcheck:jni) run against the Android
# build's own code. The test programs are this machine's, linked against
# the Android library; java.mk's test classes (read after this file).
ANDROID_RUN     := $(ANDROID_TESTS)/x86_64
ANDROID_RUN_LIB := $(ANDROID_DIR)/x86_64
ANDROID_RUN_ENV := LD_LIBRARY_PATH=$(abspath $(ANDROID_RUN)/shim):$(abspath $(ANDROID_RUN_LIB))
ANDROID_RUN_LINK = -L$(ANDROID_RUN_LIB) -l:libidlelock.so -Wl,-rpath-link,$(ANDROID_RUN)/shim -lpthread
ANDROID_JAVA_TESTS := $(BUILD)/java/idlelock.jar:$(BUILD)/java/idlelock-tests.jar
ANDROID_RUN_PROGRAMS := $(ANDROID_RUN)/shim/libc.so $(ANDROID_RUN)/test_abi $(ANDROID_RUN)/test_store \
    $(ANDROID_RUN)/test_hygiene $(ANDROID_RUN)/idlelock-replay

$(ANDROID_RUN)/shim/libc.so: Tests/c/bionic_shim.c
	@mkdir -p $(@D)
	@printf 'LIBC {\n  global: *;\n};\n' > $(@D)/libc.map
	$(BUILD_STEP) CC $@ $(CC) -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -Wl,--version-script=$(@D)/libc.map \
	    -Wl,-soname=libc.so -o $@ $< -ldl
$(ANDROID_RUN)/test_abi: $(TEST_ABI_SOURCES) $(TEST_ABI_HEADERS) $(HEADER) $(ANDROID_RUN_LIB)/libidlelock.so $(ANDROID_RUN)/shim/libc.so
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $(TEST_ABI_SOURCES) $(ANDROID_RUN_LINK) -o $@
$(ANDROID_RUN)/test_store: $(TEST_STORE_SOURCES) $(TEST_STORE_HEADERS) $(HEADER) $(ANDROID_RUN_LIB)/libidlelock.so $(ANDROID_RUN)/shim/libc.so
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $(TEST_STORE_SOURCES) $(ANDROID_RUN_LINK) -o $@
$(ANDROID_RUN)/test_hygiene: Tests/c/test_hygiene.c $(HEADER) $(ANDROID_RUN_LIB)/libidlelock.so $(ANDROID_RUN)/shim/libc.so
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -O1 -Iinclude $< $(ANDROID_RUN_LINK) -o $@
$(ANDROID_RUN)/idlelock-replay: tools/replay/idlelock-replay.c tools/replay/fake_keystore.h $(HEADER) $(ANDROID_RUN_LIB)/libidlelock.so \
    $(ANDROID_RUN)/shim/libc.so
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $< $(ANDROID_RUN_LINK) -lsodium -o $@

ifneq ($(filter x86_64,$(ANDROID_ABIS)),)
define android_run_checks
	$(STEP) $(ANDROID_RUN_ENV) $(ANDROID_RUN)/test_abi
	$(STEP) $(ANDROID_RUN_ENV) $(ANDROID_RUN)/test_store $(STORE_PLATFORM_AREAS)
	$(STEP) $(ANDROID_RUN_ENV) $(ANDROID_RUN)/test_hygiene
	$(STEP) $(ANDROID_RUN_ENV) $(ANDROID_RUN)/idlelock-replay --quiet traces/*.trace
	$(STEP) $(ANDROID_RUN_ENV) sh bindings/java/tests/run-jvm.sh $(ANDROID_RUN)/java.log \
	    -Dorg.idlelock.jni.path=$(abspath $(ANDROID_RUN_LIB))/libidlelock_jni.so -cp $(ANDROID_JAVA_TESTS) \
	    -Didlelock.header=$(abspath $(HEADER)) org.idlelock.tests.Main
endef
ANDROID_RUN_DEPS := $(ANDROID_RUN_PROGRAMS) $(BUILD)/java/idlelock-tests.jar
endif

# The vendored AOSP files are the pinned commits' (third_party/aosp/README.md);
# then every ABI; the AAR; last_error.c's two forms, the pthread key's
# under valgrind (each thread's buffer freed at its end).
test-android: test-deps aar $(ANDROID_TESTS)/test_last_error $(ANDROID_TESTS)/last_error-tls.so \
    $(ANDROID_TESTS)/last_error-key.so $(ANDROID_RUN_DEPS)
	@$(STEPS_BEGIN)
	$(STEP) sh -c 'cd $(AOSP) && sha256sum --quiet -c SHA256SUMS'
	$(foreach a,$(ANDROID_ABIS),$(call android_checks,$(a)))
	$(STEP) $(PYTHON) scripts/check-android.py aar --aar $(AAR_FILE) --pom $(AAR_POM) --jnilibs $(ANDROID_JNILIBS) \
	    --glue-source bindings/java/jni/idlelock_jni.c --version $(VERSION) --abis "$(ANDROID_ABIS)" \
	    --proguard proguard
	$(STEP) $(ANDROID_TESTS)/test_last_error $(ANDROID_TESTS)/last_error-tls.so
	$(STEP) valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    $(ANDROID_TESTS)/test_last_error $(ANDROID_TESTS)/last_error-key.so
	$(android_run_checks)
	@$(STEPS_END)

TEST_SUITES += test-android
