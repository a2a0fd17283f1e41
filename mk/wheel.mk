# SPDX-License-Identifier: MIT
# mk/wheel.mk: the Python platform wheel (bindings/python/README.md,
# docs/PLATFORMS.md).
#
#   make wheel        build/wheel/dist/idlelock-<version>-py3-none-
#                     manylinux_2_17_<cpu>.manylinux2014_<cpu>.whl for
#                     x86_64 and aarch64: the package, the CPU's
#                     self-contained libidlelock.so (libsodium linked in,
#                     its symbols hidden, as PyNaCl carries its own),
#                     stripped, and the licence files (LICENSE,
#                     THIRD_PARTY_NOTICES.md) in .dist-info/licenses/; checked
#                     against manylinux2014 and tagged by auditwheel repair
#   make test-wheel   what each wheel carries, then the x86-64 wheel
#                     installed into a fresh virtual environment outside the
#                     checkout and bindings/python/tests run against that copy
#
# The tools (setuptools, wheel, auditwheel) come from PyPI at the versions
# in bindings/python/wheel-tools.txt, into their own virtual environment.
# One line per step; each tool's output goes to a log under build/wheel/
# that is shown when the step fails (the self-contained libraries of
# `make cross` come first: Embedded Swift for each CPU, minutes of it).

WHEEL_CPUS   := x86_64 aarch64
WHEEL_DIR    := $(BUILD)/wheel
WHEEL_TOOLS  := $(WHEEL_DIR)/tools
# auditwheel tags each wheel with the oldest policy its library meets
# (--plat auto); test-wheel checks that this is glibc 2.17, GLIBC_FLOOR
# (mk/cross.mk): manylinux_2_17, alias manylinux2014.
WHEEL_SOURCES := $(wildcard bindings/python/idlelock/*.py) bindings/python/idlelock/py.typed \
    bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md \
    LICENSE THIRD_PARTY_NOTICES.md
WHEEL_LIBS := $(foreach c,$(WHEEL_CPUS),$(BUILD)/$(c)/self-contained/libidlelock.so)
# wheel_logged LOG COMMAND: COMMAND's output in LOG, shown when it fails.
wheel_logged = ( $(2) ) > $(1) 2>&1 || { cat $(1); echo "failed: see $(1)" >&2; exit 1; }

.PHONY: wheel test-wheel wheel-libs

$(WHEEL_TOOLS)/ready: bindings/python/wheel-tools.txt
	@echo "  VENV     $(WHEEL_TOOLS) (wheel-tools.txt from PyPI)"
	$(Q)rm -rf $(WHEEL_TOOLS) && mkdir -p $(WHEEL_DIR)
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/tools.log,$(PYTHON) -m venv $(WHEEL_TOOLS) && \
	    $(WHEEL_TOOLS)/bin/python -m pip install --disable-pip-version-check -r $<)
	$(Q)touch $@

wheel-libs: cross-deps
	$(call build_self_contained,$(WHEEL_LIBS),$(WHEEL_DIR))

# wheel_rules CPU: stage the package, the licence files and the CPU's
# library (stripped), set the header's version, build the
# py3-none-linux_<cpu> wheel there, repair it into $(WHEEL_DIR)/dist.
define wheel_rules
$(WHEEL_DIR)/$(1)/ready: $(BUILD)/$(1)/self-contained/libidlelock.so $(WHEEL_SOURCES) $(WHEEL_TOOLS)/ready $(HEADER)
	@echo "  STAGE    $(WHEEL_DIR)/$(1)/src (version $(VERSION))"
	$(Q)rm -rf $(WHEEL_DIR)/$(1) $(WHEEL_DIR)/dist/idlelock-*_$(1).whl
	$(Q)mkdir -p $(WHEEL_DIR)/$(1)/src/idlelock $(WHEEL_DIR)/dist
	$(Q)cp bindings/python/idlelock/*.py bindings/python/idlelock/py.typed $(WHEEL_DIR)/$(1)/src/idlelock/
	$(Q)cp bindings/python/setup.py bindings/python/README.md LICENSE THIRD_PARTY_NOTICES.md $(WHEEL_DIR)/$(1)/src/
	$(Q)sed 's/^version = ".*"$$$$/version = "$(VERSION)"/' bindings/python/pyproject.toml > $(WHEEL_DIR)/$(1)/src/pyproject.toml
	@echo "  STRIP    $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so"
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/$(1)/strip.log,$(call cross_strip,$(1)) \
	    -o $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so $(BUILD)/$(1)/self-contained/libidlelock.so)
	@echo "  WHEEL    $(WHEEL_DIR)/$(1)/raw (pip wheel, py3-none-linux_$(1))"
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/$(1)/wheel.log,cd $(WHEEL_DIR)/$(1)/src && \
	    IDLELOCK_WHEEL_PLATFORM=linux_$(1) $(abspath $(WHEEL_TOOLS))/bin/python -m pip wheel \
	    --disable-pip-version-check --no-deps --no-build-isolation -w ../raw .)
	@echo "  REPAIR   $(WHEEL_DIR)/dist (auditwheel, manylinux tag)"
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/$(1)/auditwheel.log,PATH=$(abspath $(WHEEL_TOOLS))/bin:$$$$PATH \
	    auditwheel repair --plat auto -w $(WHEEL_DIR)/dist $(WHEEL_DIR)/$(1)/raw/*.whl)
	$(Q)touch $$@
endef
$(foreach c,$(WHEEL_CPUS),$(eval $(call wheel_rules,$(c))))

wheel: wheel-libs
	@$(MAKE) -s --no-print-directory $(foreach c,$(WHEEL_CPUS),$(WHEEL_DIR)/$(c)/ready)
	@ls $(WHEEL_DIR)/dist/*.whl | sed 's/^/  DONE     /'

test-wheel: wheel $(BUILD)/idlelock-replay
	@IDLELOCK_REPLAY=$(abspath $(BUILD)/idlelock-replay) sh scripts/test-wheel.sh $(PYTHON) $(WHEEL_DIR) "$(WHEEL_CPUS)" $(VERSION)

TEST_SUITES += test-wheel
