# SPDX-License-Identifier: MIT
# mk/swift.mk: the Swift binding, IdleLockKit (bindings/swift/, its
# README), tested on Linux against the library `make lib` builds.
#
#   make test-swift-api       swift test of the package: the API's
#                                 errors, the @Observable model following
#                                 the listeners, the biometric pair and its
#                                 cancellation, secrets in wiped buffers, the
#                                 prompt shield, and every shared trace
#                                 (traces) replayed through the
#                                 Swift API and compared with the C replay
#                                 tool's output, byte for byte; then the
#                                 README's example type-checked against the
#                                 built module
#   make test-swift-api-tsan  the same tests under ThreadSanitizer, and
#                                 the README's example type-checked: what
#                                 `make test` runs (the tests once, with
#                                 the races checked)
#
# The Apple-only files (Sources/IdleLockKit/Apple/: the Keychain and
# LocalAuthentication adapter, the SwiftUI modifiers) do not compile here;
# what they do is small and their logic lives in the tested files.

SWIFT_BINDING       := bindings/swift
# The package links -lidlelock (Sources/CIdleLock/module.modulemap):
# build/libidlelock.so, found at run time through the rpath.
SWIFT_BINDING_LINK  := --package-path $(SWIFT_BINDING) -Xlinker -L$(abspath $(BUILD)) \
                       -Xlinker -rpath -Xlinker $(abspath $(BUILD)) -Xswiftc -warnings-as-errors
SWIFT_BINDING_ENV   := IDLELOCK_REPLAY=$(abspath $(BUILD)/idlelock-replay) SWIFT_BACKTRACE=enable=no

.PHONY: test-swift-api test-swift-api-tsan

test-swift-api: lib $(BUILD)/idlelock-replay
	@$(STEPS_BEGIN)
	$(STEP) $(SWIFT_BINDING_ENV) sh scripts/swift-test.sh $(BUILD)/swift-test/api.log $(SWIFT_BINDING_LINK) \
	    --scratch-path $(BUILD)/swift-api $(SWIFT_TEST_ARGS)
	$(STEP) sh $(SWIFT_BINDING)/Tests/typecheck-readme.sh $(SWIFTC) $(BUILD)/swift-api $(SWIFT_BINDING)/README.md
	@$(STEPS_END)

test-swift-api-tsan: lib $(BUILD)/idlelock-replay
	@$(STEPS_BEGIN)
	$(STEP) $(SWIFT_BINDING_ENV) sh scripts/swift-test.sh $(BUILD)/swift-test/api-tsan.log $(SWIFT_BINDING_LINK) \
	    --sanitize=thread --scratch-path $(BUILD)/swift-api-tsan $(SWIFT_TEST_ARGS)
	$(STEP) sh $(SWIFT_BINDING)/Tests/typecheck-readme.sh $(SWIFTC) $(BUILD)/swift-api-tsan $(SWIFT_BINDING)/README.md
	@$(STEPS_END)

TEST_SUITES += test-swift-api-tsan
