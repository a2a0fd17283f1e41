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
#                     and the musllinux_1_2_x86_64 wheel of the musl build
#                     (make musl: auditwheel tags musl wheels only on a
#                     musl system, so `wheel tags` does, after the checks
#                     auditwheel would make: NEEDED only musl's libc.so, no
#                     versioned symbol); each made reproducible and copied to
#                     build/dist/
#   make test-wheel   what each wheel carries, then the x86-64 wheel
#                     installed into a fresh virtual environment outside the
#                     checkout and the tests of what the wheel adds run
#                     against that copy (test-python runs the whole suite)
#   make sdist        build/dist/idlelock-<version>.tar.gz: the package and the
#                     library's source (libidlelock/: what `make lib` needs);
#                     pip builds the library from it where the Swift toolchain
#                     is, and says what it needs where it is not (setup.py)
#   make test-sdist   its contents; a wheel built from it (the library built
#                     from source) installed in a fresh environment and used;
#                     without swiftc the build stops naming what is missing;
#                     IDLELOCK_INSTALL=system builds the pure package
#
# Every wheel's and the sdist's long description is bindings/python/README.md
# with its relative links made absolute (scripts/md-links.py absolute): it is
# read on the package's page, outside this tree.
#
# The tools (setuptools, wheel, auditwheel) come from PyPI at the versions
# in bindings/python/wheel-tools.txt, into their own virtual environment.
# One line per step; each tool's output goes to a log under build/wheel/
# that is shown when the step fails (the self-contained libraries of
# `make cross` come first: Embedded Swift for each CPU, minutes of it).

WHEEL_CPUS   := x86_64 aarch64
WHEEL_DIR    := $(BUILD)/wheel
WHEEL_DIST   := $(BUILD)/dist
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
	@echo "  VENV    $(WHEEL_TOOLS) (wheel-tools.txt from PyPI)"
	$(Q)rm -rf $(WHEEL_TOOLS) && mkdir -p $(WHEEL_DIR)
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/tools.log,$(PYTHON) -m venv $(WHEEL_TOOLS) && \
	    $(WHEEL_TOOLS)/bin/python -m pip install --disable-pip-version-check -r $<)
	$(Q)touch $@

# The libraries as prerequisites of this make, not of a make of its own: two
# makes (the wheel's and the rock's, under make test's build) compiled the
# same objects at once.
wheel-libs: cross-deps musl-deps $(WHEEL_LIBS)

# wheel_stage DIR: the package, the licence files, the README with absolute
# links and pyproject.toml at the header's version, in DIR.
define wheel_stage
	$(Q)mkdir -p $(1)/idlelock
	$(Q)cp bindings/python/idlelock/*.py bindings/python/idlelock/py.typed $(1)/idlelock/
	$(Q)cp bindings/python/setup.py LICENSE THIRD_PARTY_NOTICES.md $(1)/
	$(Q)$(PYTHON) scripts/md-links.py absolute --url $(PROJECT_URL) --tag $(PROJECT_TAG) \
	    --path bindings/python/README.md bindings/python/README.md $(1)/README.md
	$(Q)sed 's/^version = ".*"/version = "$(VERSION)"/' bindings/python/pyproject.toml > $(1)/pyproject.toml
endef
# The wheels' kinds: the glibc CPUs, and musl (x86-64).
wheel_lib_x86_64     := $(BUILD)/x86_64/self-contained/libidlelock.so
wheel_lib_aarch64    := $(BUILD)/aarch64/self-contained/libidlelock.so
wheel_lib_musl       := $(BUILD)/musl/libidlelock.so
wheel_platform_x86_64  := linux_x86_64
wheel_platform_aarch64 := linux_aarch64
wheel_platform_musl    := linux_x86_64
wheel_strip = $(if $(filter musl,$(1)),strip,$(call cross_strip,$(1)))
# wheel_tag KIND: give the raw wheel its platform tag, into $(WHEEL_DIR)/<kind>/tagged.
wheel_tag = $(if $(filter musl,$(1)),$(wheel_tag_musl),$(wheel_tag_glibc))
wheel_tag_glibc = @echo "  REPAIR  $(WHEEL_DIR)/$(1)/tagged (auditwheel, manylinux tag)"; \
	$(call wheel_logged,$(WHEEL_DIR)/$(1)/auditwheel.log,PATH=$(abspath $(WHEEL_TOOLS))/bin:$$$$PATH \
	    auditwheel repair --plat auto -w $(WHEEL_DIR)/$(1)/tagged $(WHEEL_DIR)/$(1)/raw/*.whl)
wheel_tag_musl = @echo "  TAG     $(WHEEL_DIR)/$(1)/tagged (wheel tags, musllinux_1_2_x86_64)"; \
	$(call wheel_logged,$(WHEEL_DIR)/$(1)/tags.log,sh scripts/check-library.sh --self-contained --libc musl \
	    $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so $(HEADER) && \
	    $(abspath $(WHEEL_TOOLS))/bin/wheel tags --remove --platform-tag musllinux_1_2_x86_64 $(WHEEL_DIR)/$(1)/raw/*.whl && \
	    mkdir -p $(WHEEL_DIR)/$(1)/tagged && mv $(WHEEL_DIR)/$(1)/raw/*.whl $(WHEEL_DIR)/$(1)/tagged/)

# wheel_rules KIND: stage the package and the kind's library (stripped),
# build the py3-none-linux_<cpu> wheel there, tag it, make it reproducible
# (scripts/reproducible.py: the .dist-info last, RECORD at the end) and
# copy it to $(WHEEL_DIST); $(WHEEL_DIR)/dist keeps the glibc wheels
# test-wheel installs.
define wheel_rules
$(WHEEL_DIR)/$(1)/ready: $(wheel_lib_$(1)) $(WHEEL_SOURCES) $(WHEEL_TOOLS)/ready $(HEADER) scripts/reproducible.py scripts/md-links.py \
        $(RELEASE_STAMP)
	@echo "  STAGE   $(WHEEL_DIR)/$(1)/src (version $(VERSION))"
	$(Q)rm -rf $(WHEEL_DIR)/$(1) $(if $(filter musl,$(1)),$(WHEEL_DIST)/idlelock-*-musllinux_*.whl,$(WHEEL_DIR)/dist/idlelock-*-manylinux*_$(1).whl $(WHEEL_DIST)/idlelock-*-manylinux*_$(1).whl)
	$(Q)mkdir -p $(WHEEL_DIR)/dist $(WHEEL_DIST)
	$(call wheel_stage,$(WHEEL_DIR)/$(1)/src)
	@echo "  STRIP   $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so"
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/$(1)/strip.log,$(call wheel_strip,$(1)) \
	    -o $(WHEEL_DIR)/$(1)/src/idlelock/libidlelock.so $(wheel_lib_$(1)))
	@echo "  WHEEL   $(WHEEL_DIR)/$(1)/raw (pip wheel, py3-none-$(wheel_platform_$(1)))"
	$(Q)$(call wheel_logged,$(WHEEL_DIR)/$(1)/wheel.log,cd $(WHEEL_DIR)/$(1)/src && \
	    IDLELOCK_WHEEL_PLATFORM=$(wheel_platform_$(1)) $(abspath $(WHEEL_TOOLS))/bin/python -m pip wheel \
	    --disable-pip-version-check --no-deps --no-build-isolation -w ../raw .)
	$(Q)$(call wheel_tag,$(1))
	$(Q)for w in $(WHEEL_DIR)/$(1)/tagged/*.whl; do \
	    $(PYTHON) scripts/reproducible.py zip "$$$$w" --last-dir idlelock-$(VERSION).dist-info/ && \
	    cp "$$$$w" $(WHEEL_DIST)/ && $(if $(filter musl,$(1)),true,cp "$$$$w" $(WHEEL_DIR)/dist/) || exit 1; done
	$(Q)touch $$@
endef
$(foreach c,$(WHEEL_CPUS) musl,$(eval $(call wheel_rules,$(c))))

WHEEL_READY := $(foreach c,$(WHEEL_CPUS) musl,$(WHEEL_DIR)/$(c)/ready)
wheel: wheel-libs
	@$(MAKE) -s --no-print-directory $(WHEEL_READY)
	@ls $(WHEEL_DIST)/*.whl | sed 's/^/  DONE     /'

# -- the source distribution ---------------------------------------------------

SDIST      := $(WHEEL_DIST)/idlelock-$(VERSION).tar.gz
SDIST_DIR  := $(BUILD)/sdist
# What `make build/libidlelock.so.1` needs (the Makefile's $(LIB) rule),
# as git tracks it.
SDIST_LIBRARY := Makefile idlelock.map include Sources/IdleLock Sources/CSystem Sources/CIdleLockSupport \
                 mk/target.mk scripts/build-step.sh scripts/check-build-tools.sh LICENSE

$(SDIST): $(WHEEL_SOURCES) $(WHEEL_TOOLS)/ready $(HEADER) $(SWIFT_SOURCES) Makefile idlelock.map \
          scripts/reproducible.py scripts/md-links.py $(filter scripts/%,$(SDIST_LIBRARY)) mk/wheel.mk $(RELEASE_STAMP)
	@echo "  STAGE   $(SDIST_DIR)/src (version $(VERSION), the library's source in libidlelock/)"
	$(Q)rm -rf $(SDIST_DIR) && mkdir -p $(SDIST_DIR)/src/libidlelock $(WHEEL_DIST)
	$(call wheel_stage,$(SDIST_DIR)/src)
	$(Q)git ls-files -z -- $(SDIST_LIBRARY) | tar --create --null --files-from=- | tar --extract --directory=$(SDIST_DIR)/src/libidlelock
	$(Q)printf 'graft libidlelock\nglobal-exclude *.py[cod]\n' > $(SDIST_DIR)/src/MANIFEST.in
	@echo "  SDIST   $@ (python -m build --sdist)"
	$(Q)$(call wheel_logged,$(SDIST_DIR)/sdist.log,cd $(SDIST_DIR)/src && \
	    $(abspath $(WHEEL_TOOLS))/bin/python -m build --sdist --no-isolation --outdir ../out .)
	$(Q)$(PYTHON) scripts/reproducible.py tar.gz $(SDIST_DIR)/out/idlelock-$(VERSION).tar.gz
	$(Q)cp $(SDIST_DIR)/out/idlelock-$(VERSION).tar.gz $@

.PHONY: sdist test-sdist
sdist: $(SDIST)

test-sdist: sdist
	@PROJECT_URL=$(PROJECT_URL) PROJECT_TAG=$(PROJECT_TAG) sh scripts/test-sdist.sh $(abspath $(WHEEL_TOOLS)) $(SDIST) $(VERSION)

TEST_SUITES += test-sdist

# The wheels as `make wheel` builds them, its output kept (a suite that
# passes prints only its count).
test-wheel: wheel-libs $(BUILD)/idlelock-replay
	@$(MAKE) -s --no-print-directory $(WHEEL_READY) > $(WHEEL_DIR)/build.log 2>&1 \
	    || { cat $(WHEEL_DIR)/build.log; echo "test-wheel: the wheels did not build (log: $(WHEEL_DIR)/build.log)"; exit 1; }
	@$(STEPS_BEGIN)
	$(STEP) IDLELOCK_REPLAY=$(abspath $(BUILD)/idlelock-replay) PROJECT_URL=$(PROJECT_URL) PROJECT_TAG=$(PROJECT_TAG) \
	    sh scripts/test-wheel.sh $(PYTHON) $(WHEEL_DIR) "$(WHEEL_CPUS)" $(VERSION)
	@$(STEPS_END)

TEST_SUITES += test-wheel
