# SPDX-License-Identifier: MIT
# One description of the C interface for every binding (docs/ARCHITECTURE.md,
# "One description of the C interface"): scripts/gen-bindings.py reads
# include/idlelock.h, the core's lifecycle table and bindings/names.txt, and
# writes each binding's generated files (committed).
#
#   make gen-bindings     regenerate them: run it after a header change (or an
#                         edit of bindings/names.txt) and commit what changed
#   make check-bindings   the suite: regenerating changes no committed file,
#                         and the generator's constants and struct layouts
#                         are what the C compiler makes of the header
#
# The generator stops, naming the line, at a declaration, a preprocessor line,
# a type or a constant expression it does not understand, and at a row of
# bindings/names.txt that names nothing in the header.

GEN_BINDINGS_INPUTS := scripts/gen-bindings.py $(HEADER) bindings/names.txt Sources/IdleLock/Rules/LifecycleNames.swift
GEN_CHECK_DIR       := $(BUILD)/gen-bindings
# What the C compiler says of the constants and layouts (the LuaJIT tests
# read it too).
GEN_C_VIEW          := $(GEN_CHECK_DIR)/c-view.txt

.PHONY: gen-bindings check-bindings

gen-bindings:
	@$(PYTHON) scripts/gen-bindings.py

$(GEN_CHECK_DIR)/check.c $(GEN_CHECK_DIR)/expected.txt &: $(GEN_BINDINGS_INPUTS)
	@mkdir -p $(GEN_CHECK_DIR)
	$(BUILD_STEP) GEN $(GEN_CHECK_DIR)/check.c $(PYTHON) scripts/gen-bindings.py --c-check $(GEN_CHECK_DIR)

$(GEN_CHECK_DIR)/check: $(GEN_CHECK_DIR)/check.c $(HEADER)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $< -o $@

$(GEN_C_VIEW): $(GEN_CHECK_DIR)/check
	@$< > $@.tmp && mv $@.tmp $@

check-bindings: $(GEN_C_VIEW) $(GEN_CHECK_DIR)/expected.txt
	@$(STEPS_BEGIN)
	$(STEP) $(PYTHON) scripts/gen-bindings.py --check
	$(STEP) diff -u $(GEN_CHECK_DIR)/expected.txt $(GEN_C_VIEW)
	@$(STEPS_END)

TEST_SUITES += check-bindings
