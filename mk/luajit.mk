# The LuaJIT binding (bindings/luajit): one idlelock.lua module generated
# from this template and include/idlelock.h (its ffi.cdef and constants),
# its tests on LuaJIT, and the LÖVE demo run headless (under Xvfb).
#
#   make luajit         build/luajit/idlelock.lua
#   make test-luajit    the tests on luajit, the constants against the C
#                       compiler's view, and the LÖVE demo's script
#   make bench-luajit   touch through the binding vs an ffi no-op (BENCHMARKS.md)

LUAJIT ?= luajit
LOVE   ?= love

LUA_DIR      := $(BUILD)/luajit
LUA_MODULE   := $(LUA_DIR)/idlelock.lua
LUA_CHECK_C  := $(LUA_DIR)/check_constants.c
LUA_CHECK    := $(LUA_DIR)/check_constants
LUA_ENV       = IDLELOCK_LIBRARY=$(abspath $(LIB)) LUA_PATH="$(abspath $(LUA_DIR))/?.lua;;"
LOVE_DEMO    := bindings/luajit/examples/love

.PHONY: luajit test-luajit test-love bench-luajit bench-luajit-smoke

$(LUA_MODULE) $(LUA_CHECK_C) &: bindings/luajit/gen_cdef.lua bindings/luajit/idlelock.in.lua $(HEADER)
	@mkdir -p $(LUA_DIR)
	$(LUAJIT) bindings/luajit/gen_cdef.lua $(HEADER) bindings/luajit/idlelock.in.lua $(LUA_MODULE) $(LUA_CHECK_C)

$(LUA_CHECK): $(LUA_CHECK_C) $(HEADER)
	$(CC) $(CWARN) -Iinclude $< -o $@

luajit: lib $(LUA_MODULE)

# Three steps (their counts add up in make test's table): the tests, every
# shipped trace through the module against the C replay tool, the demo.
test-luajit: test-deps luajit $(LUA_CHECK) $(BUILD)/idlelock-replay
	@$(LUA_CHECK) > $(LUA_DIR)/constants.txt
	@$(STEPS_BEGIN)
	$(STEP) sh -c 'cd bindings/luajit/tests && $(LUA_ENV) $(LUAJIT) test_idlelock.lua $(abspath $(LUA_DIR))/constants.txt $(abspath $(HEADER))'
	$(STEP) sh -c 'cd bindings/luajit/tests && $(LUA_ENV) $(LUAJIT) test_traces.lua $(abspath $(BUILD)/idlelock-replay) ../../c/traces'
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
