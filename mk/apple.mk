# SPDX-License-Identifier: MIT
# mk/apple.mk: the static library for iOS on arm64 (docs/PLATFORMS.md,
# "iOS"). Compiled and link-checked here, never run here.
#
#   make apple        build/apple/IdleLock.xcframework (ios-arm64/libidlelock.a,
#                     Headers/ with idlelock.h and a module map, Info.plist,
#                     LICENSE, THIRD_PARTY_NOTICES.md) and, beside it,
#                     build/apple/libsodium.xcframework (libsodium 1.0.18
#                     for the same target, its own archive: an app that
#                     already links libsodium leaves this one out)
#   make test-apple   every object is Mach-O arm64 for iOS 18.0 (its
#                     LC_BUILD_VERSION), libidlelock.a defines no global
#                     name but the header's idlelock_* functions, and every
#                     name it leaves undefined resolves, with everything
#                     libsodium's members then need, against libsodium.a or
#                     Apple's libSystem (scripts/check-apple.py)
#
# The route: the toolchain ships an Embedded Swift stdlib for
# arm64-apple-ios (none for the simulator, none for macOS; its floor is iOS
# 18), so the Swift core compiles for arm64-apple-ios18.0 in Embedded mode
# (the same flags as the Linux library) into one object. Apple's C headers
# and libSystem's symbol list come from Zig's cross toolchain (PyPI's
# ziglang, installed by this file into its own virtual environment): its
# any-darwin-any headers stand in for an SDK's usr/include (build/apple/sdk),
# and its libSystem.tbd is the list of names libSystem exports. The C
# support files and libsodium compile for the same target with the
# toolchain's clang. Zig's linker joins the Swift object and the C objects
# into one relocatable object (`zig build-obj`, Mach-O's ld -r; the
# stdlib's arc4random_buf binds to arc4random_sodium.c's there), and
# llvm-objcopy turns every global it defines but the header's functions
# into a local symbol: the Embedded runtime (swift_retain, ...), the
# stdlib's specializations and the library's own internals cannot clash
# with an app's Swift runtime or another library.

APPLE_DIR      := $(BUILD)/apple
APPLE_TARGET   := arm64-apple-ios18.0
APPLE_MIN_IOS  := 18.0
APPLE_XCF      := $(APPLE_DIR)/IdleLock.xcframework
APPLE_SODIUM_XCF := $(APPLE_DIR)/libsodium.xcframework
APPLE_LIB      := $(APPLE_XCF)/ios-arm64/libidlelock.a
APPLE_SODIUM   := $(APPLE_SODIUM_XCF)/ios-arm64/libsodium.a
APPLE_OBJ      := $(APPLE_DIR)/obj
# Zig from PyPI, pinned in mk/apple-tools.txt; zig-dir holds where it is.
APPLE_TOOLS    := $(APPLE_DIR)/tools
APPLE_ZIG_DIR  := $(APPLE_TOOLS)/zig-dir
APPLE_SDK      := $(APPLE_DIR)/sdk
# The toolchain's own LLVM tools (they read Mach-O; the host's binutils do not).
SWIFT_BIN      := $(patsubst %/,%,$(dir $(realpath $(shell command -v $(SWIFTC) 2>/dev/null))))
APPLE_CC       := $(SWIFT_BIN)/clang
LLVM_AR        := $(SWIFT_BIN)/llvm-ar
LLVM_OBJCOPY   := $(SWIFT_BIN)/llvm-objcopy
APPLE_SUPPORT  := $(APPLE_OBJ)/last_error.o $(APPLE_OBJ)/struct_sizes.o $(APPLE_OBJ)/scrub_registers.o \
                  $(APPLE_OBJ)/arc4random_sodium.o
APPLE_CFLAGS   := -target $(APPLE_TARGET) -isysroot $(abspath $(APPLE_SDK)) -Wno-unused-command-line-argument
# Swift for the same target: the headers through Clang's sysroot (the host's
# /usr/include stays out; -sdk would want an SDKSettings.json this folder
# does not have).
APPLE_SWIFT_TARGET := -target $(APPLE_TARGET) -Xcc -isysroot -Xcc $(abspath $(APPLE_SDK))

include mk/libsodium.mk
libsodium_cc_apple      = $(APPLE_CC)
libsodium_cflags_apple  = $(APPLE_CFLAGS)
libsodium_ar_apple      = $(LLVM_AR)
# Darwin's C library, as configure finds it on macOS and iOS: memset_s (for
# sodium_memzero), no explicit_bzero, no getrandom (randombytes reads
# /dev/urandom there, as upstream's iOS build does).
LIBSODIUM_DEFINES_apple = -DHAVE_MEMSET_S=1 -DHAVE_TI_MODE=1
$(eval $(call libsodium_rules,apple))

.PHONY: apple apple-tools test-apple

apple: $(APPLE_LIB) $(APPLE_SODIUM) $(APPLE_XCF)/Info.plist $(APPLE_SODIUM_XCF)/Info.plist

apple-tools: $(APPLE_ZIG_DIR)

# The venv sees the system's packages: a ziglang already installed at the
# pinned version is used as it is.
$(APPLE_ZIG_DIR): mk/apple-tools.txt
	$(Q)rm -rf $(APPLE_TOOLS) $(APPLE_SDK)
	$(BUILD_STEP) VENV $(APPLE_TOOLS) $(PYTHON) -m venv --system-site-packages $(APPLE_TOOLS)
	$(BUILD_STEP) PIP $(APPLE_TOOLS) $(APPLE_TOOLS)/bin/python -m pip install --disable-pip-version-check -r $<
	$(Q)$(APPLE_TOOLS)/bin/python -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))' > $@.part
	$(Q)test -f "$$(cat $@.part)/lib/libc/darwin/libSystem.tbd" \
	    || { echo "apple: ziglang has no lib/libc/darwin/libSystem.tbd" >&2; exit 1; }
	$(Q)mkdir -p $(APPLE_SDK)/usr
	$(Q)ln -sfn "$$(cat $@.part)/lib/libc/include/any-darwin-any" $(APPLE_SDK)/usr/include
	$(Q)mv $@.part $@

# The Swift core: Embedded, whole-module, for iOS 18 on arm64.
$(APPLE_OBJ)/IdleLock.o: $(SWIFT_SOURCES) $(HEADER) Sources/CSystem/shim.h $(APPLE_ZIG_DIR) $(LIBSODIUM_READY)
	@mkdir -p $(@D)
	$(BUILD_STEP) SWIFTC $@ $(SWIFTC) $(filter-out -Xcc -fPIC,$(EMBEDDED_SWIFT_FLAGS)) $(APPLE_SWIFT_TARGET) \
	    -Xcc -isystem -Xcc $(LIBSODIUM_INCLUDE) -c -o $@ $(SWIFT_SOURCES)

$(APPLE_OBJ)/%.o: Sources/CIdleLockSupport/%.c Sources/CIdleLockSupport/include/idlelock_support.h $(HEADER) $(APPLE_ZIG_DIR) $(LIBSODIUM_READY)
	@mkdir -p $(@D)
	$(BUILD_STEP) CC $@ $(APPLE_CC) $(APPLE_CFLAGS) $(filter-out -fPIC -DILK_GLIBC_FLOOR,$(SUPPORT_CFLAGS)) -DILK_ARC4RANDOM_SODIUM \
	    -isystem $(LIBSODIUM_INCLUDE) -c $< -o $@

# The header's functions, as Mach-O names them: the only globals kept.
$(APPLE_OBJ)/exports.txt: $(HEADER)
	@mkdir -p $(@D)
	$(Q)grep -oE '\bidlelock_[a-z_]+\(' $< | tr -d '(' | sort -u | sed 's/^/_/' > $@

# One object: the Swift core and the C support joined (Zig's ld -r), then
# every global but the exports made local.
$(APPLE_OBJ)/libidlelock.o: $(APPLE_OBJ)/IdleLock.o $(APPLE_SUPPORT) $(APPLE_OBJ)/exports.txt
	$(BUILD_STEP) LD-r $(APPLE_OBJ)/libidlelock-joined.o $(APPLE_TOOLS)/bin/python -m ziglang build-obj \
	    -target aarch64-ios.$(APPLE_MIN_IOS) --cache-dir $(APPLE_TOOLS)/zig-cache --global-cache-dir $(APPLE_TOOLS)/zig-cache \
	    -femit-bin=$(APPLE_OBJ)/libidlelock-joined.o $(APPLE_OBJ)/IdleLock.o $(APPLE_SUPPORT)
	$(BUILD_STEP) OBJCOPY $@ $(LLVM_OBJCOPY) --keep-global-symbols=$(APPLE_OBJ)/exports.txt $(APPLE_OBJ)/libidlelock-joined.o $@

$(APPLE_LIB): $(APPLE_OBJ)/libidlelock.o
	@mkdir -p $(@D)
	$(Q)rm -f $@
	$(BUILD_STEP) AR $@ $(LLVM_AR) rcs $@ $<

# apple_xcframework DIR LIBRARY: DIR/Info.plist naming ios-arm64/LIBRARY
# and its Headers.
apple_plist = $(PYTHON) scripts/apple-plist.py $(1) $(2) > $(1)/Info.plist

$(APPLE_XCF)/Info.plist: $(APPLE_LIB) $(HEADER) scripts/apple-plist.py LICENSE THIRD_PARTY_NOTICES.md
	@printf '  %-7s %s\n' XCFW $(APPLE_XCF)
	$(Q)rm -rf $(APPLE_XCF)/ios-arm64/Headers
	$(Q)mkdir -p $(APPLE_XCF)/ios-arm64/Headers
	$(Q)cp $(HEADER) $(APPLE_XCF)/ios-arm64/Headers/
	$(Q)printf '%s\n' '// import CIdleLock (Swift) / @import CIdleLock; (Objective-C): include/idlelock.h.' \
	    'module CIdleLock {' '    header "idlelock.h"' '    export *' '}' > $(APPLE_XCF)/ios-arm64/Headers/module.modulemap
	$(Q)cp LICENSE THIRD_PARTY_NOTICES.md $(APPLE_XCF)/
	$(Q)$(call apple_plist,$(APPLE_XCF),libidlelock.a)

# libsodium's archive, its public headers (no module map: an app that
# imports swift-sodium's Clibsodium keeps that module name to itself) and
# its licence.
$(APPLE_SODIUM): $(call libsodium_archive,apple)
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(APPLE_SODIUM_XCF)/Info.plist: $(APPLE_SODIUM) scripts/apple-plist.py
	@printf '  %-7s %s\n' XCFW $(APPLE_SODIUM_XCF)
	$(Q)rm -rf $(APPLE_SODIUM_XCF)/ios-arm64/Headers
	$(Q)mkdir -p $(APPLE_SODIUM_XCF)/ios-arm64/Headers
	$(Q)cp $(LIBSODIUM_INCLUDE)/sodium.h $(APPLE_SODIUM_XCF)/ios-arm64/Headers/
	$(Q)cp -R $(LIBSODIUM_INCLUDE)/sodium $(APPLE_SODIUM_XCF)/ios-arm64/Headers/
	$(Q)rm -rf $(APPLE_SODIUM_XCF)/ios-arm64/Headers/sodium/private $(APPLE_SODIUM_XCF)/ios-arm64/Headers/sodium/version.h.in
	$(Q)cp $(LIBSODIUM_DIR)/libsodium-$(LIBSODIUM_VERSION)/LICENSE $(APPLE_SODIUM_XCF)/LICENSE
	$(Q)$(call apple_plist,$(APPLE_SODIUM_XCF),libsodium.a)

# docs/PLATFORMS.md's Swift example, as printed there, compiled for iOS
# against the XCFramework's headers and module map.
$(APPLE_OBJ)/Example.swift: docs/PLATFORMS.md
	@mkdir -p $(@D)
	$(Q)awk '/^## iOS \(arm64\)/ { ios = 1 } ios && /^```swift/ { block = 1; next } block && /^```/ { exit } block' $< > $@
	$(Q)test -s $@ || { echo "apple: no swift block in docs/PLATFORMS.md's section \"iOS (arm64)\"" >&2; exit 1; }

test-apple: apple $(APPLE_OBJ)/Example.swift
	@$(STEPS_BEGIN)
	$(STEP) $(PYTHON) scripts/check-apple.py --llvm $(SWIFT_BIN) --tbd "$$(cat $(APPLE_ZIG_DIR))/lib/libc/darwin/libSystem.tbd" \
	    --min-ios $(APPLE_MIN_IOS) --header $(HEADER) --joined $(APPLE_OBJ)/libidlelock-joined.o \
	    --parts $(APPLE_OBJ)/IdleLock.o $(APPLE_SUPPORT) -- $(APPLE_XCF) $(APPLE_SODIUM_XCF)
	$(STEP) $(SWIFTC) -enable-experimental-feature Embedded -parse-as-library -warnings-as-errors $(APPLE_SWIFT_TARGET) \
	    -I $(APPLE_XCF)/ios-arm64/Headers -typecheck $(APPLE_OBJ)/Example.swift
	@$(STEPS_END)

TEST_SUITES += test-apple
