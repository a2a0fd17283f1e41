# SPDX-License-Identifier: MIT
# Line coverage of Sources/ by the Swift tests (normal-mode build; the
# tests use Swift Testing only, so XCTest's empty runner is off):
#
#   make coverage    prints llvm-cov's report per file and the total
#
# The C and Python suites exercise the same code through the shipped
# Embedded library, which is not instrumented; docs/TESTING.md states the
# figure and the reasons for the lines no test reaches.

COVERAGE_BUILD := .build/coverage
# The Swift toolchain's own llvm-cov: it reads the profile format of the
# toolchain's LLVM; another LLVM's llvm-cov earlier in PATH (Debian's, for
# one) refuses it ("unsupported instrumentation profile format version").
LLVM_COV ?= $(firstword $(wildcard $(dir $(realpath $(shell command -v swift)))llvm-cov) llvm-cov)
COVERAGE_DIR    = $(COVERAGE_BUILD)/x86_64-unknown-linux-gnu/debug

.PHONY: coverage
coverage:
	swift test --disable-xctest --enable-code-coverage --scratch-path $(COVERAGE_BUILD)
	$(LLVM_COV) report $(COVERAGE_DIR)/idlelockPackageTests.xctest \
	    -instr-profile=$(COVERAGE_DIR)/codecov/default.profdata $(SWIFT_SOURCES)
