# mk/wheel.mk: the Python platform wheel (bindings/python/README.md,
# docs/PLATFORMS.md).
#
#   make wheel        build/wheel/dist/idlelock-<version>-py3-none-
#                     manylinux_2_17_<cpu>.manylinux2014_<cpu>.whl for
#                     x86_64 and aarch64: the package and the CPU's
#                     self-contained libidlelock.so (libsodium linked in,
#                     its symbols hidden, as PyNaCl carries its own), checked
#                     against manylinux2014 and tagged by auditwheel repair
#   make test-wheel   what each wheel carries, then the x86-64 wheel
#                     installed into a fresh virtual environment outside the
#                     checkout and bindings/python/tests run against that copy
#
# The tools (setuptools, wheel, auditwheel) come from PyPI at the versions
# in bindings/python/wheel-tools.txt, into their own virtual environment.

WHEEL_CPUS   := x86_64 aarch64
WHEEL_DIR    := $(BUILD)/wheel
WHEEL_TOOLS  := $(WHEEL_DIR)/tools
# auditwheel tags each wheel with the oldest policy its library meets
# (--plat auto); test-wheel checks that this is glibc 2.17, GLIBC_FLOOR
# (mk/cross.mk): manylinux_2_17, alias manylinux2014.
WHEEL_SOURCES := $(wildcard bindings/python/idlelock/*.py) bindings/python/idlelock/py.typed \
    bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md

.PHONY: wheel test-wheel

$(WHEEL_TOOLS)/ready: bindings/python/wheel-tools.txt
	$(Q)rm -rf $(WHEEL_TOOLS)
	$(Q)$(PYTHON) -m venv $(WHEEL_TOOLS)
	$(Q)$(WHEEL_TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check -r $<
	$(Q)touch $@

# wheel_rules CPU: stage the package with the CPU's library, build the
# py3-none-linux_<cpu> wheel there, repair it into $(WHEEL_DIR)/dist.
define wheel_rules
$(WHEEL_DIR)/$(1)/ready: $(BUILD)/$(1)/self-contained/libidlelock.so $(WHEEL_SOURCES) $(WHEEL_TOOLS)/ready
	$(Q)rm -rf $(WHEEL_DIR)/$(1) $(WHEEL_DIR)/dist/idlelock-*_$(1).whl
	$(Q)mkdir -p $(WHEEL_DIR)/$(1)/src/idlelock $(WHEEL_DIR)/dist
	$(Q)cp bindings/python/idlelock/*.py bindings/python/idlelock/py.typed $(WHEEL_DIR)/$(1)/src/idlelock/
	$(Q)cp bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md $(WHEEL_DIR)/$(1)/src/
	$(Q)cp $(BUILD)/$(1)/self-contained/libidlelock.so $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so
	$(Q)cd $(WHEEL_DIR)/$(1)/src && IDLELOCK_WHEEL_PLATFORM=linux_$(1) $(abspath $(WHEEL_TOOLS))/bin/python -m pip \
	    wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation -w ../raw .
	$(Q)PATH=$(abspath $(WHEEL_TOOLS))/bin:$$$$PATH auditwheel repair --plat auto \
	    -w $(WHEEL_DIR)/dist $(WHEEL_DIR)/$(1)/raw/*.whl > $(WHEEL_DIR)/$(1)/auditwheel.log 2>&1 \
	    || { cat $(WHEEL_DIR)/$(1)/auditwheel.log; exit 1; }
	$(Q)touch $$@
endef
$(foreach c,$(WHEEL_CPUS),$(eval $(call wheel_rules,$(c))))

wheel: cross-deps $(foreach c,$(WHEEL_CPUS),$(WHEEL_DIR)/$(c)/ready)

test-wheel: wheel
	@sh scripts/test-wheel.sh $(PYTHON) $(WHEEL_DIR) "$(WHEEL_CPUS)"

TEST_SUITES += test-wheel
