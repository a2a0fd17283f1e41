# Line coverage of Sources/ by the Swift tests (normal-mode build; the
# tests use Swift Testing only, so XCTest's empty runner is off):
#
#   make coverage    prints llvm-cov's report per file and the total
#
# The C and Python suites exercise the same code through the shipped
# Embedded library, which is not instrumented; docs/TESTING.md states the
# figure and the reasons for the lines no test reaches.

COVERAGE_BUILD := .build/coverage
COVERAGE_DIR    = $(COVERAGE_BUILD)/x86_64-unknown-linux-gnu/debug

.PHONY: coverage
coverage:
	swift test --disable-xctest --enable-code-coverage --scratch-path $(COVERAGE_BUILD)
	llvm-cov report $(COVERAGE_DIR)/idlelockPackageTests.xctest \
	    -instr-profile=$(COVERAGE_DIR)/codecov/default.profdata $(SWIFT_SOURCES)
