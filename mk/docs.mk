# SPDX-License-Identifier: MIT
# mk/docs.mk: the reference made from the header, and the checks of what
# the docs say (docs/BUILDING.md, "The manual").
#
#   make docs        docs/idlelock_manual.html (one page, an anchor per
#                    function, type and constant) and docs/man/man3/: the
#                    man pages idlelock(3) and one per function and type,
#                    made from include/idlelock.h alone
#                    (scripts/gen-manual.py); committed, shipped in the
#                    source tarball, installed by `make install`
#   make test-docs   the header's documentation comments as clang and
#                    Swift read them (scripts/check-doc-comments.py), the
#                    manual up to date with the header, complete against
#                    the library's exports and well formed
#                    (scripts/check-manual.py), and every relative link of
#                    every Markdown file resolving (scripts/md-links.py);
#                    the source tarball runs the same suite on its own
#                    files (test-dist)
#
# After an edit of the header, `make docs` and commit what it changes:
# test-docs fails until the committed manual is the header's.

MANUAL_HTML := docs/idlelock_manual.html
MANUAL_MAN  := docs/man/man3
DOCS_DIR    := $(BUILD)/docs
# The clang that reads the header's comments: the Swift toolchain's own
# (beside swiftc), else one on PATH (scripts/install-deps.sh --docs
# installs Debian's when there is neither); Swift's view of the C module
# comes from the toolchain's swift-synthesize-interface.
DOCS_TOOLCHAIN_BIN := $(dir $(realpath $(shell command -v $(SWIFTC))))
DOC_CLANG   ?= $(firstword $(wildcard $(DOCS_TOOLCHAIN_BIN)clang) $(shell command -v clang 2>/dev/null) clang)
SWIFT_SYNTHESIZE_INTERFACE ?= $(DOCS_TOOLCHAIN_BIN)swift-synthesize-interface

.PHONY: docs docs-deps test-docs

# One rule writes every page (it also removes the page of a function the
# header no longer declares); the HTML page stands for them all.
$(MANUAL_HTML): $(HEADER) scripts/gen-manual.py
	@echo "  GEN     $(MANUAL_HTML) $(MANUAL_MAN)/*.3"
	@$(PYTHON) scripts/gen-manual.py $(HEADER) docs

docs: $(MANUAL_HTML)

docs-deps:
	@sh scripts/install-deps.sh --docs

$(DOCS_DIR)/CIdleLock.swift: $(HEADER) include/module.modulemap
	@mkdir -p $(DOCS_DIR)
	$(BUILD_STEP) SYNTH $@ $(SWIFT_SYNTHESIZE_INTERFACE) -module-name CIdleLock -I include \
	    -module-cache-path $(DOCS_DIR)/module-cache -o $@

test-docs: docs-deps lib $(DOCS_DIR)/CIdleLock.swift
	@$(STEPS_BEGIN)
	$(STEP) $(PYTHON) scripts/check-doc-comments.py $(DOC_CLANG) $(HEADER) $(DOCS_DIR)/CIdleLock.swift
	$(STEP) $(PYTHON) scripts/check-manual.py $(HEADER) $(LIB) docs $(DOCS_DIR)/fresh
	$(STEP) $(PYTHON) scripts/md-links.py check .
	@$(STEPS_END)

TEST_SUITES += test-docs
