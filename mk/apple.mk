# SPDX-License-Identifier: MIT
# mk/apple.mk: the static library for iOS and macOS apps, one XCFramework
# (docs/PLATFORMS.md, "Apple"). Compiled and link-checked here, never run
# here: no Mac, device or simulator is reachable.
#
#   make apple        build/apple/IdleLock.xcframework, with three slices:
#                       ios-arm64            iOS 15.0 and later, devices
#                       ios-arm64-simulator  iOS 15.0, the Simulator on
#                                            Apple silicon
#                       macos-arm64          macOS 12.0, Apple silicon
#                     each <slice>/libidlelock.a (one Mach-O object:
#                     libidlelock with libsodium 1.0.18 inside, only the
#                     header's idlelock_* functions global) and
#                     <slice>/Headers (idlelock.h, CIdleLock/module.modulemap);
#                     Info.plist, LICENSE, THIRD_PARTY_NOTICES.md; then
#                     build/apple/IdleLock.xcframework.zip (reproducible) and
#                     its SHA-256, and, with bindings/swift, the Swift
#                     package to publish (build/apple/package/: Package.swift
#                     with .binaryTarget(name: "IdleLock", url:, checksum:),
#                     the Swift API, the privacy manifest)
#   make test-apple   scripts/check-apple.py on all of it (its header lists
#                     the checks), each check shown to fail on a broken copy;
#                     the build order under make -j; the Swift example of
#                     docs/PLATFORMS.md type-checked against every slice's
#                     headers
#
# The route. The toolchain ships an Embedded Swift stdlib for arm64-apple-ios
# only (marked iOS 18), so the Swift core is compiled once, for the device,
# at the real floor: -target arm64-apple-ios15.0 with the frontend's
# -disable-target-os-checking (the Darwin platform layer uses nothing newer
# than iOS 10; compiled at 15.0 it also gets the floor's CPU, the A7
# baseline). The simulator and macOS slices take that object re-stamped
# (scripts/apple-restamp.py: its LC_BUILD_VERSION says iossimulator 15.0 /
# macos 12.0, as `vtool -set-build-version` would write): the same arm64
# code and Darwin ABI, and every Darwin branch of Sources/ is the same for
# all three. The C support files and libsodium are compiled per slice by the
# toolchain's clang, against Apple's C headers from Zig's cross toolchain
# (PyPI's ziglang, pinned in mk/apple-tools.txt, installed into
# build/apple/tools; its any-darwin-any headers stand in for an SDK's
# usr/include, build/apple/sdk). Zig's Mach-O linker joins each slice's
# objects and the needed members of its libsodium.a into one relocatable
# object (`zig build-obj`, Mach-O's ld -r; it refuses an object stamped for
# another platform, as ld64 does), and llvm-objcopy turns every global but
# the header's functions into a local symbol: the Embedded runtime
# (swift_retain, ...), the stdlib's specializations, libsodium (sodium_*,
# crypto_*) and the library's internals cannot clash with an app's own.

Q ?= @
APPLE_DIR       := $(BUILD)/apple
APPLE_XCF       := $(APPLE_DIR)/IdleLock.xcframework
APPLE_ZIP       := $(APPLE_DIR)/IdleLock.xcframework.zip
APPLE_OBJ       := $(APPLE_DIR)/obj
APPLE_SLICES    := ios-arm64 ios-arm64-simulator macos-arm64
APPLE_IOS_MIN   := 15.0
APPLE_MACOS_MIN := 12.0
# Where the zip is published: the distribution Package.swift's url. Set it
# to the release's download address (`make apple APPLE_RELEASE_URL=...`);
# the checksum does not depend on it.
APPLE_RELEASE_URL ?= https://github.com/libidlelock/libidlelock/releases/download/v$(VERSION)
# Zig from PyPI, pinned in mk/apple-tools.txt; zig-dir holds where it is.
APPLE_TOOLS     := $(APPLE_DIR)/tools
APPLE_ZIG_DIR   := $(APPLE_TOOLS)/zig-dir
APPLE_ZIG       := $(APPLE_TOOLS)/bin/python -m ziglang
APPLE_SDK       := $(APPLE_DIR)/sdk
# The toolchain's own LLVM tools (they read Mach-O; the host's binutils do not).
SWIFT_BIN       := $(patsubst %/,%,$(SWIFT_TOOLCHAIN_BIN))
APPLE_CC        := $(SWIFT_BIN)/clang
LLVM_AR         := $(SWIFT_BIN)/llvm-ar
LLVM_OBJCOPY    := $(TARGET_OBJCOPY)
APPLE_SUPPORT_NAMES := last_error struct_sizes scrub_registers arc4random_sodium

# Per slice: clang's target, Zig's, the LC_BUILD_VERSION platform and minimum.
apple_triple_ios-arm64             := arm64-apple-ios$(APPLE_IOS_MIN)
apple_triple_ios-arm64-simulator   := arm64-apple-ios$(APPLE_IOS_MIN)-simulator
apple_triple_macos-arm64           := arm64-apple-macos$(APPLE_MACOS_MIN)
apple_zig_ios-arm64                := aarch64-ios.$(APPLE_IOS_MIN)
apple_zig_ios-arm64-simulator      := aarch64-ios.$(APPLE_IOS_MIN)-simulator
apple_zig_macos-arm64              := aarch64-macos.$(APPLE_MACOS_MIN)
apple_platform_ios-arm64           := ios
apple_platform_ios-arm64-simulator := iossimulator
apple_platform_macos-arm64         := macos
apple_minos_ios-arm64              := $(APPLE_IOS_MIN)
apple_minos_ios-arm64-simulator    := $(APPLE_IOS_MIN)
apple_minos_macos-arm64            := $(APPLE_MACOS_MIN)
# The Swift object of a slice: the device's as compiled, the others re-stamped.
apple_swift_ios-arm64              := $(APPLE_OBJ)/IdleLock.o
apple_swift_ios-arm64-simulator    := $(APPLE_DIR)/ios-arm64-simulator/IdleLock.o
apple_swift_macos-arm64            := $(APPLE_DIR)/macos-arm64/IdleLock.o

apple_cflags = -target $(apple_triple_$(1)) -isysroot $(abspath $(APPLE_SDK)) -Wno-unused-command-line-argument
apple_support = $(foreach f,$(APPLE_SUPPORT_NAMES),$(APPLE_DIR)/$(1)/obj/$(f).o)
apple_lib = $(APPLE_XCF)/$(1)/libidlelock.a
apple_headers = $(APPLE_XCF)/$(1)/Headers/idlelock.h $(APPLE_XCF)/$(1)/Headers/CIdleLock/module.modulemap
APPLE_LIBS    := $(foreach s,$(APPLE_SLICES),$(call apple_lib,$(s)))
APPLE_HEADERS := $(foreach s,$(APPLE_SLICES),$(call apple_headers,$(s)))
APPLE_NOTICES := $(APPLE_XCF)/LICENSE $(APPLE_XCF)/THIRD_PARTY_NOTICES.md

# The Swift core for the device and each slice's C support objects: targets
# of the one compile recipe (mk/target.mk). Swift: Embedded, whole-module,
# the Linux library's flags but -fPIC (arm64 Mach-O code is always
# position-independent). The headers come through Clang's sysroot (the
# host's /usr/include stays out; -sdk would want an SDKSettings.json this
# folder does not have).
include mk/target.mk
target_swift_apple  := -target $(apple_triple_ios-arm64) -Xfrontend -disable-target-os-checking \
    -Xcc -isysroot -Xcc $(abspath $(APPLE_SDK)) -Xcc -isystem -Xcc $(LIBSODIUM_INCLUDE)
target_inputs_apple := mk/apple.mk $(APPLE_ZIG_DIR) $(LIBSODIUM_READY)
target_order_apple  :=
define apple_support_target
target_cc_apple-$(1)     = $$(APPLE_CC)
target_cflags_apple-$(1) = $$(call apple_cflags,$(1)) $$(filter-out -fPIC -DILK_GLIBC_FLOOR,$$(SUPPORT_CFLAGS)) \
    -DILK_ARC4RANDOM_SODIUM -isystem $$(LIBSODIUM_INCLUDE)
target_inputs_apple-$(1) = $$(APPLE_ZIG_DIR) $$(LIBSODIUM_READY)
target_order_apple-$(1)  =
endef

# libsodium per slice (mk/libsodium.mk), with Darwin's C library as
# configure finds it on macOS and iOS: memset_s (for sodium_memzero), no
# explicit_bzero, no getrandom (randombytes reads /dev/urandom there, as
# upstream's iOS build does).
include mk/libsodium.mk
define apple_sodium
libsodium_cc_$(1)      = $$(APPLE_CC)
libsodium_cflags_$(1)  = $$(call apple_cflags,$(1))
libsodium_ar_$(1)      = $$(LLVM_AR)
LIBSODIUM_DEFINES_$(1) = -DHAVE_MEMSET_S=1 -DHAVE_TI_MODE=1
$$(eval $$(call libsodium_rules,$(1)))
# Compiled against the SDK folder, which the tools' rule makes: without
# this, make -j compiled them before it ('stdlib.h' file not found).
$$(call libsodium_objects,$(1),$$(call libsodium_all_sources,$(1))): | $$(APPLE_ZIG_DIR)
endef
$(foreach s,$(APPLE_SLICES),$(eval $(call apple_sodium,$(s))))

.PHONY: apple apple-tools test-apple

APPLE_PACKAGE :=
apple: $(APPLE_LIBS) $(APPLE_HEADERS) $(APPLE_NOTICES) $(APPLE_XCF)/Info.plist $(APPLE_ZIP).sha256

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

# The Swift core, once, for the device, without the section
# __LLVM,__swift_modhash (mk/target.mk: a hash that changes with the folder
# the build runs in), so the same sources give the same library, and the
# same zip, anywhere.
target_modhash_apple := __LLVM,__swift_modhash
$(eval $(call target_swift_rule,apple,$(APPLE_OBJ)/IdleLock.o))

# The header's functions, as Mach-O names them: the only globals kept.
$(APPLE_OBJ)/exports.txt: $(HEADER)
	@mkdir -p $(@D)
	$(Q)grep -oE '\bidlelock_[a-z_]+\(' $< | tr -d '(' | sort -u | sed 's/^/_/' > $@

# apple_slice SLICE: its Swift object, the joined object, its archive and
# its headers (its C support objects: target_c_rules, below).
define apple_slice
ifneq ($(1),ios-arm64)
$$(apple_swift_$(1)): $$(APPLE_OBJ)/IdleLock.o scripts/apple-restamp.py
	@mkdir -p $$(@D)
	$$(BUILD_STEP) RESTAMP $$@ $$(PYTHON) scripts/apple-restamp.py $$< $$@ $$(apple_platform_$(1)) $$(apple_minos_$(1))
endif

# Zig's ld -r (the stdlib's arc4random_buf binds to arc4random_sodium.c's
# there; only the libsodium members the library needs come in), then every
# global but the exports made local.
$$(APPLE_DIR)/$(1)/joined.o: $$(apple_swift_$(1)) $$(call apple_support,$(1)) $$(call libsodium_archive,$(1))
	$$(BUILD_STEP) LD-r $$@ $$(APPLE_ZIG) build-obj -target $$(apple_zig_$(1)) \
	    --cache-dir $$(APPLE_TOOLS)/zig-cache --global-cache-dir $$(APPLE_TOOLS)/zig-cache -femit-bin=$$@ $$^

$$(APPLE_DIR)/$(1)/libidlelock.o: $$(APPLE_DIR)/$(1)/joined.o $$(APPLE_OBJ)/exports.txt
	$$(BUILD_STEP) OBJCOPY $$@ $$(LLVM_OBJCOPY) --keep-global-symbols=$$(APPLE_OBJ)/exports.txt $$< $$@

$$(call apple_lib,$(1)): $$(APPLE_DIR)/$(1)/libidlelock.o
	@mkdir -p $$(@D)
	$$(Q)rm -f $$@
	$$(BUILD_STEP) AR $$@ $$(LLVM_AR) rcs $$@ $$<

$$(APPLE_XCF)/$(1)/Headers/idlelock.h: $$(HEADER)
	@mkdir -p $$(@D)
	$$(Q)cp $$< $$@

# In a folder of its own, named after the module: a module map at the root
# of Headers would clash with another static XCFramework's in the app's
# include folder, where Xcode copies every library's headers.
$$(APPLE_XCF)/$(1)/Headers/CIdleLock/module.modulemap: mk/apple.mk
	@mkdir -p $$(@D)
	$$(Q)printf '%s\n' '// import CIdleLock (Swift) / @import CIdleLock; (Objective-C): idlelock.h, the C interface.' \
	    'module CIdleLock {' '    header "../idlelock.h"' '    export *' '}' > $$@
endef
$(foreach s,$(APPLE_SLICES),$(eval $(call apple_slice,$(s))))
$(foreach s,$(APPLE_SLICES),$(eval $(call apple_support_target,$(s))) $(eval $(call target_c_rules,apple-$(s),$(APPLE_DIR)/$(s)/obj)))

$(APPLE_XCF)/LICENSE: LICENSE
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(APPLE_XCF)/THIRD_PARTY_NOTICES.md: THIRD_PARTY_NOTICES.md
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(APPLE_XCF)/Info.plist: scripts/apple-package.py mk/apple.mk
	@mkdir -p $(@D)
	$(BUILD_STEP) PLIST $@ $(PYTHON) scripts/apple-package.py plist $@ libidlelock.a $(APPLE_SLICES)

# The zip SwiftPM downloads (the folder at its root), reproducible: the same
# bytes from the same files (sorted, fixed times and modes), so its
# SHA-256, the checksum the package pins, is the files' own.
$(APPLE_ZIP).sha256: $(APPLE_LIBS) $(APPLE_HEADERS) $(APPLE_NOTICES) $(APPLE_XCF)/Info.plist scripts/apple-package.py
	$(BUILD_STEP) ZIP $(APPLE_ZIP) $(PYTHON) scripts/apple-package.py zip $(APPLE_ZIP) $(APPLE_XCF)

# The Swift package an app adds (bindings/swift/README.md): the binary
# target pinned to the zip, the Swift API, the privacy manifest. The
# source tarball has no bindings, and builds the XCFramework only.
ifneq ($(wildcard bindings/swift/dist/Package.swift.in),)
APPLE_PACKAGE := $(APPLE_DIR)/package/Package.swift
APPLE_PACKAGE_SOURCES := $(sort $(wildcard bindings/swift/Sources/IdleLockKit/*.swift bindings/swift/Sources/IdleLockKit/*/*.swift \
    bindings/swift/Sources/IdleLockPrivacy/*))
apple: $(APPLE_PACKAGE)
$(APPLE_PACKAGE): bindings/swift/dist/Package.swift.in $(APPLE_ZIP).sha256 $(APPLE_PACKAGE_SOURCES) \
        bindings/swift/README.md LICENSE THIRD_PARTY_NOTICES.md scripts/apple-package.py $(APPLE_DIR)/release-url
	$(BUILD_STEP) PACKAGE $(@D) $(PYTHON) scripts/apple-package.py package $(@D) $< $(APPLE_RELEASE_URL)/IdleLock.xcframework.zip \
	    $(APPLE_ZIP).sha256 bindings/swift

# APPLE_RELEASE_URL as a file that changes only when the URL does, so that
# a new URL remakes Package.swift.
.PHONY: apple-release-url
$(APPLE_DIR)/release-url: apple-release-url
	@mkdir -p $(@D)
	$(Q)echo '$(APPLE_RELEASE_URL)' | cmp -s - $@ || echo '$(APPLE_RELEASE_URL)' > $@
endif

# docs/PLATFORMS.md's Swift example, as printed there.
$(APPLE_OBJ)/Example.swift: docs/PLATFORMS.md
	@mkdir -p $(@D)
	$(Q)awk '/^## Apple/ { apple = 1 } apple && /^```swift/ { block = 1; next } block && /^```/ { exit } block' $< > $@
	$(Q)test -s $@ || { echo "apple: no swift block in docs/PLATFORMS.md's section \"Apple\"" >&2; exit 1; }

# make itself, for the check of the build order; not $(MAKE) in the recipe,
# which would make `make -n test-apple` run it.
APPLE_MAKE := $(MAKE)

test-apple: apple $(APPLE_OBJ)/Example.swift
	@$(PYTHON) scripts/check-apple.py --llvm $(SWIFT_BIN) --tbd "$$(cat $(APPLE_ZIG_DIR))/lib/libc/darwin/libSystem.tbd" \
	    --header $(HEADER) --ios-min $(APPLE_IOS_MIN) --macos-min $(APPLE_MACOS_MIN) \
	    --swift-object $(APPLE_OBJ)/IdleLock.o --swift-undefined scripts/apple-swift-undefined.txt \
	    --zip $(APPLE_ZIP) --sdk $(APPLE_SDK) --example $(APPLE_OBJ)/Example.swift \
	    $(if $(APPLE_PACKAGE),--package $(dir $(APPLE_PACKAGE)) --swift $(SWIFT_BIN)/swift) --make "$(APPLE_MAKE)" $(APPLE_XCF)

TEST_SUITES += test-apple
