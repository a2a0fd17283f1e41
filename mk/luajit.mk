# SPDX-License-Identifier: MIT
# The LuaJIT binding (bindings/luajit): one idlelock.lua module, the
# template idlelock.in.lua with idlelock_generated.lua (its ffi.cdef,
# constants and message names, generated from include/idlelock.h by
# scripts/gen-bindings.py) in place of its --@@GENERATED@@ line; its tests
# on LuaJIT, and the LÖVE demo run headless (under Xvfb).
#
#   make luajit         build/luajit/idlelock.lua
#   make test-luajit    the tests on luajit, the traces, and the LÖVE demo's script
#   make bench-luajit   touch through the binding vs an ffi no-op (BENCHMARKS.md)

LUAJIT ?= luajit
LOVE   ?= love

LUA_DIR      := $(BUILD)/luajit
LUA_MODULE   := $(LUA_DIR)/idlelock.lua
LUA_ENV       = IDLELOCK_LIBRARY=$(abspath $(LIB)) LUA_PATH="$(abspath $(LUA_DIR))/?.lua;;"
LOVE_DEMO    := bindings/luajit/examples/love

.PHONY: luajit test-luajit test-love bench-luajit bench-luajit-smoke

# The same command builds the module in the source rockspec (rock/).
$(LUA_MODULE): bindings/luajit/idlelock.in.lua bindings/luajit/idlelock_generated.lua
	@mkdir -p $(LUA_DIR)
	@echo "  SED     $(LUA_MODULE)"
	$(Q)sed -e '/^--@@GENERATED@@$$/r bindings/luajit/idlelock_generated.lua' -e '/^--@@GENERATED@@$$/d' \
	    bindings/luajit/idlelock.in.lua > $@.tmp && mv $@.tmp $@

luajit: lib $(LUA_MODULE)

# Three steps (their counts add up in make test's table): the tests, every
# shipped trace through the module against the C replay tool, the demo.
test-luajit: test-deps luajit $(BUILD)/idlelock-replay $(GEN_C_VIEW)
	@$(STEPS_BEGIN)
	$(STEP) sh -c 'cd bindings/luajit/tests && $(LUA_ENV) $(LUAJIT) test_idlelock.lua $(abspath $(GEN_C_VIEW)) $(abspath $(HEADER))'
	$(STEP) sh -c 'cd bindings/luajit/tests && $(LUA_ENV) $(LUAJIT) test_traces.lua $(abspath $(BUILD)/idlelock-replay) ../../../traces'
	$(STEP) $(MAKE) --no-print-directory test-love
	@$(STEPS_END)

# The demo under a virtual X server (LÖVE needs a window for its graphics),
# driven by its scripted input mode; the script checks what it sees.
test-love: luajit
	$(LUA_ENV) IDLELOCK_DEMO_SCRIPT=$(abspath bindings/luajit/tests/demo.script) \
	    sh bindings/luajit/tests/run-love-demo.sh $(LOVE) $(LOVE_DEMO)

TEST_SUITES += test-luajit

# -- benchmark (mk/bindings-bench.mk) ----------------------------------------

LUA_BENCH_RUN = $(LUA_ENV) $(LUAJIT) bench/bindings/bench.lua $(abspath $(BB_NOOP))

bench-luajit: luajit $(BB_NOOP)
	$(LUA_BENCH_RUN)

bench-luajit-smoke: luajit $(BB_NOOP)
	$(LUA_BENCH_RUN) --rounds 3 --iters 2000 > /dev/null

# -- the rocks (PACKAGING: make rock, test-rock) -----------------------------
#
#   make rock        build/dist/idlelock-<version>-1.rockspec, the source
#                    rockspec a rock server takes: it builds from the source
#                    tarball (the library from source, libsodium an external
#                    dependency as luasodium states it), packed with that
#                    tarball as build/dist/idlelock-<version>-1.src.rock; and
#                    one binary rock per CPU, build/dist/idlelock-<version>-1.
#                    linux-{x86_64,aarch64,arm}.rock: the generated
#                    idlelock.lua, the CPU's self-contained libidlelock.so of
#                    `make cross` (stripped) and doc/ with LICENSE,
#                    THIRD_PARTY_NOTICES.md and the README; `luarocks make`
#                    then `luarocks pack` in a staging folder, offline (no
#                    rock server configured); every rock reproducible
#   make test-rock   `luarocks lint` of the rockspecs; what each rock carries,
#                    then this CPU's rock installed with `luarocks install
#                    --tree` into a fresh folder and the README example run
#                    from LuaJIT on that tree, with no IDLELOCK_LIBRARY and no
#                    LD_LIBRARY_PATH; the source rock installed the same way,
#                    offline, building the library from source
#                    (scripts/test-rock.sh)
#
# One line per step; each tool's output goes to a log under build/rock/ that
# is shown when the step fails. luarocks names a binary rock after its
# `arch`, which the staging config sets per CPU (32-bit ARM is "linux-arm",
# as luarocks calls it there).

LUAROCKS  ?= luarocks
ROCK_CPUS := x86_64 aarch64 armv7
rock_arch_x86_64  := linux-x86_64
rock_arch_aarch64 := linux-aarch64
rock_arch_armv7   := linux-arm
ROCK_DIR  := $(BUILD)/rock
ROCK_DIST  := $(BUILD)/dist
ROCK_NAME := idlelock-$(VERSION)-1
# The source rockspec (what a rock server takes) and the one inside the
# binary rocks (its metadata the same).
ROCKSPEC  := $(ROCK_DIST)/$(ROCK_NAME).rockspec
ROCKSPEC_BINARY := $(ROCK_DIR)/$(ROCK_NAME).rockspec
SRC_ROCK  := $(ROCK_DIST)/$(ROCK_NAME).src.rock
ROCKS     := $(foreach c,$(ROCK_CPUS),$(ROCK_DIST)/$(ROCK_NAME).$(rock_arch_$(c)).rock)
rock_fill = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PROJECT_URL@|$(PROJECT_URL)|g' -e 's|@PROJECT_TAG@|$(PROJECT_TAG)|g'
# rock_logged LOG COMMAND: run COMMAND with its output in LOG, shown on failure.
rock_logged = ( $(2) ) > $(1) 2>&1 || { cat $(1); echo "failed: see $(1)" >&2; exit 1; }

.PHONY: rock rock-libs test-rock

$(ROCKSPEC): bindings/luajit/rock/idlelock-source.rockspec.in $(HEADER)
	@mkdir -p $(@D)
	@echo "  ROCKSPEC $@"
	$(Q)$(rock_fill) $< > $@.tmp && mv $@.tmp $@

$(ROCKSPEC_BINARY): bindings/luajit/rock/idlelock.rockspec.in $(HEADER)
	@mkdir -p $(@D)
	$(Q)$(rock_fill) $< > $@.tmp && mv $@.tmp $@

# The source rock: the rockspec and the source tarball it names (a rock
# server's .src.rock; `luarocks install` builds it offline).
$(SRC_ROCK): $(ROCKSPEC) $(DIST_TARBALL) scripts/reproducible.py
	@echo "  PACK    $@"
	$(Q)rm -rf $(ROCK_DIR)/src && mkdir -p $(ROCK_DIR)/src && cp $(ROCKSPEC) $(DIST_TARBALL) $(ROCK_DIR)/src/
	$(Q)rm -f $@ && cd $(ROCK_DIR)/src && $(PYTHON) -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED); [z.write(f) for f in sys.argv[2:]]; z.close()' \
	    $(abspath $@) $(notdir $(ROCKSPEC)) $(notdir $(DIST_TARBALL))
	$(Q)$(PYTHON) scripts/reproducible.py zip $@

# rock_rules CPU: stage, `luarocks make` into the CPU's tree, `luarocks pack`.
define rock_rules
$(ROCK_DIST)/$(ROCK_NAME).$(rock_arch_$(1)).rock: $(ROCKSPEC_BINARY) $(LUA_MODULE) $(BUILD)/$(1)/self-contained/libidlelock.so \
        LICENSE THIRD_PARTY_NOTICES.md bindings/luajit/README.md scripts/reproducible.py $(RELEASE_STAMP)
	@echo "  STAGE   $(ROCK_DIR)/$(1)/stage"
	$(Q)rm -rf $(ROCK_DIR)/$(1) && mkdir -p $(ROCK_DIR)/$(1)/stage/doc
	$(Q)cp $(LUA_MODULE) $(ROCK_DIR)/$(1)/stage/idlelock.lua
	$(Q)cp $(ROCKSPEC_BINARY) $(ROCK_DIR)/$(1)/stage/
	$(Q)cp LICENSE THIRD_PARTY_NOTICES.md $(ROCK_DIR)/$(1)/stage/doc/
	$(Q)$(PYTHON) scripts/md-links.py absolute --url $(PROJECT_URL) --tag $(PROJECT_TAG) \
	    --path bindings/luajit/README.md bindings/luajit/README.md $(ROCK_DIR)/$(1)/stage/doc/README.md
	$(Q)printf 'rocks_servers = {}\narch = "%s"\n' $(rock_arch_$(1)) > $(ROCK_DIR)/$(1)/luarocks-config.lua
	@echo "  STRIP   $(ROCK_DIR)/$(1)/stage/libidlelock.so"
	$(Q)$(call rock_logged,$(ROCK_DIR)/$(1)/strip.log,$(call cross_strip,$(1)) -o $(ROCK_DIR)/$(1)/stage/libidlelock.so \
	    $(BUILD)/$(1)/self-contained/libidlelock.so)
	@echo "  LUAROCKS $(ROCK_DIR)/$(1)/tree (luarocks make)"
	$(Q)$(call rock_logged,$(ROCK_DIR)/$(1)/make.log,cd $(ROCK_DIR)/$(1)/stage && \
	    LUAROCKS_CONFIG=../luarocks-config.lua $(LUAROCKS) make --tree ../tree $(ROCK_NAME).rockspec)
	@echo "  PACK    $$@"
	$(Q)rm -f $$@
	$(Q)$(call rock_logged,$(ROCK_DIR)/$(1)/pack.log,cd $(ROCK_DIST) && \
	    LUAROCKS_CONFIG=$(abspath $(ROCK_DIR)/$(1)/luarocks-config.lua) $(LUAROCKS) pack idlelock $(VERSION)-1 \
	    --tree $(abspath $(ROCK_DIR)/$(1)/tree))
	$(Q)test -f $$@ || { echo "luarocks pack made no $$@ (see $(ROCK_DIR)/$(1)/pack.log)" >&2; exit 1; }
	$(Q)$(PYTHON) scripts/reproducible.py zip $$@
endef
$(foreach c,$(ROCK_CPUS),$(eval $(call rock_rules,$(c))))

ROCK_LIBS := $(foreach c,$(ROCK_CPUS),$(BUILD)/$(c)/self-contained/libidlelock.so)

rock-libs: cross-deps $(ROCK_LIBS)

rock: test-deps rock-libs
	@$(MAKE) -s --no-print-directory $(ROCKS) $(ROCKSPEC) $(SRC_ROCK)

test-rock: rock
	@$(STEPS_BEGIN)
	$(STEP) PROJECT_URL=$(PROJECT_URL) PROJECT_TAG=$(PROJECT_TAG) sh scripts/test-rock.sh "$(LUAJIT)" "$(LUAROCKS)" $(VERSION) $(ROCK_DIST) "$(foreach c,$(ROCK_CPUS),$(c):$(rock_arch_$(c)):$(call cross_strip,$(c)))" \
	    $(abspath $(ROCKSPEC_BINARY))
	@$(STEPS_END)

TEST_SUITES += test-rock
