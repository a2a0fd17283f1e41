# SPDX-License-Identifier: MIT
# mk/target.mk: the one compile recipe of the library's builds: the native
# one (Makefile), Linux on other CPUs (mk/cross.mk), musl (mk/musl.mk),
# Android's ABIs (mk/android.mk) and Apple's (mk/apple.mk: its Swift
# object, and each slice's C objects). A target T is a set of variables;
# the rules below turn them into its Swift object, its C support objects
# and its libraries, with the flags every build shares
# (EMBEDDED_SWIFT_FLAGS, SUPPORT_CFLAGS' files, the version script,
# TARGET_LDFLAGS). The instrumented library of the fuzzers and the
# sanitized C tests is the one build outside it (Tests/fuzz/build-lib.sh:
# sanitizer flags, swiftc's own link, and a fallback to a copy of the
# shipped library where the toolchain cannot instrument).
#
#   target_swift_T    swiftc flags after EMBEDDED_SWIFT_FLAGS:
#                     TARGET_SWIFT_PIC for an ELF shared library, -target,
#                     the C library's headers and libsodium's, code
#                     generation (a bare-metal triple's defaults are not the
#                     Linux ABI: give the float ABI, as mk/cross.mk's
#                     cross_codegen_armv7 does)
#   target_cc_T       the C compiler, with its target
#   target_cflags_T   the C support files' flags (SUPPORT_CFLAGS and the
#                     target's code generation)
#   target_inputs_T   files the compiles read that the build makes
#   target_order_T    what the compiles and the link need done first, order
#                     only: a deps target (cross-deps, $(BUILD_TOOLS_OK), a
#                     sysroot folder); each rule makes its own output folder
#   target_link_T     the compiler driver that links
#   target_ldflags_T  linker flags after TARGET_LDFLAGS
#
#   $(eval $(call target_compile_rules,T,OBJDIR))
#       OBJDIR/IdleLock.o (the Swift core: Embedded Swift, whole module,
#       without the compiler's .swift_modhash section)
#       and OBJDIR/<name>.o for Sources/CIdleLockSupport/<name>.c; the two
#       halves alone: $(eval $(call target_swift_rule,T,OBJECT)) and
#       $(eval $(call target_c_rules,T,OBJDIR))
#   $(eval $(call target_library_rule,T,LIB,SONAME,OBJECTS,LIBS))
#       LIB linked from OBJECTS with soname SONAME, then LIBS (libsodium,
#       the C library; its words that are not options are files LIB is
#       made from too): the same version script and hardening as the
#       native build (Makefile)

ifndef TARGET_MK
TARGET_MK := 1

# The Swift toolchain's own tools (lld, llvm-objcopy, clang, ...) are in
# swiftc's folder: swift.org's toolchains ship them there.
SWIFT_TOOLCHAIN_BIN := $(dir $(realpath $(shell command -v $(SWIFTC) 2>/dev/null)))

# The Swift code of an ELF shared library is position-independent (Mach-O
# code on arm64 always is: Apple's target leaves it out).
TARGET_SWIFT_PIC := -Xcc -fPIC

# swiftc writes a section of 16 bytes, .swift_modhash (Mach-O:
# __LLVM,__swift_modhash, target_modhash_T), a hash of its module for its
# own incremental builds that nothing reads at link or run time and that
# changes with the folder the build runs in: the same sources built in two
# checkouts differed in it (and in the build id computed over it). The
# recipe compiles to OBJECT's -modhash.o and removes it with the
# toolchain's llvm-objcopy (it reads every target's objects), so the same
# commit gives the same libraries anywhere; scripts/check-library.sh fails
# on a library that has it.
TARGET_OBJCOPY := $(SWIFT_TOOLCHAIN_BIN)llvm-objcopy

# Every library: only the header's functions exported (idlelock.map), bound
# at load, RELRO, no executable stack.
TARGET_LDFLAGS := -Wl,--version-script=idlelock.map -Wl,-z,now -Wl,-z,relro -Wl,-z,noexecstack

define target_swift_rule
$(2): $(SWIFT_SOURCES) $(HEADER) Sources/CSystem/shim.h $(target_inputs_$(1)) | $(target_order_$(1))
	@mkdir -p $$(@D)
	$(BUILD_STEP) SWIFTC $$@ $(SWIFTC) $(EMBEDDED_SWIFT_FLAGS) $(target_swift_$(1)) -c -o $(basename $(2))-modhash.o $(SWIFT_SOURCES)
	$(BUILD_STEP) OBJCOPY $$@ $(TARGET_OBJCOPY) --remove-section=$(or $(target_modhash_$(1)),.swift_modhash) $(basename $(2))-modhash.o $$@
endef

define target_c_rules
$(2)/%.o: Sources/CIdleLockSupport/%.c Sources/CIdleLockSupport/include/idlelock_support.h $(HEADER) $(target_inputs_$(1)) | $(target_order_$(1))
	@mkdir -p $$(@D)
	$(BUILD_STEP) CC $$@ $(target_cc_$(1)) $(target_cflags_$(1)) -c $$< -o $$@
endef

define target_compile_rules
$(call target_swift_rule,$(1),$(2)/IdleLock.o)
$(call target_c_rules,$(1),$(2))
endef

define target_library_rule
$(2): $(4) $(filter-out -%,$(5)) idlelock.map | $(target_order_$(1))
	@mkdir -p $$(@D)
	$(BUILD_STEP) LINK $$@ $(target_link_$(1)) -shared -o $$@ $(4) -Wl,-soname=$(3) $(TARGET_LDFLAGS) $(target_ldflags_$(1)) $(5)
endef

endif
