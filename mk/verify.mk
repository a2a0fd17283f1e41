# SPDX-License-Identifier: MIT
# mk/verify.mk: verification machinery (included by the top Makefile).
#
#   make fuzz-smoke          each libFuzzer harness for FUZZ_SMOKE_SECONDS (15)
#                            at once; fails on any crash, leak, timeout or
#                            broken oracle. The committed corpus is replayed
#                            whole however long that takes (libFuzzer runs
#                            every seed before it looks at the clock), then
#                            each harness fuzzes for what is left
#   make fuzz FUZZ_SECONDS=N each harness for N seconds (default 600)
#   make fuzz-seeds          remake the seed corpus (Tests/fuzz/corpus/)
#   make test-c-sanitized    the C tests and the replay tool under ASan+UBSan
#                            (the replay tool under Valgrind: make
#                            test-traces)
#   make test-hygiene        no passcode or secret left in process memory
#   make test-abi            exported symbols and struct layout vs the baseline
#   make abi-baseline        rewrite the symbol baseline (a deliberate change)
#
# Tools: a clang that links libFuzzer with ASan and UBSan is looked for first
# (the Swift toolchain ships one, with the sanitizer runtimes of swiftc's own
# LLVM); only when none is found does Tests/fuzz/find-clang.sh install
# Debian's clang and libclang-rt-14-dev. The fuzzers and the sanitized C tests
# (build/asan/) link against one instrumented copy of the library built
# here (build/fuzz/: swiftc -sanitize=address,fuzzer; libFuzzer's coverage
# hooks have no-op defaults in the ASan runtime, so a program without
# libFuzzer loads it too); the shipped $(LIB) is never changed. See
# Tests/fuzz/build-lib.sh for the fallback when Swift cannot be
# instrumented.

FUZZ_DIR         := $(BUILD)/fuzz
ASAN_DIR         := $(BUILD)/asan
VERIFY_TOOLCHAIN := $(BUILD)/verify-toolchain.sh
FUZZ_SECONDS     ?= 600
FUZZ_SMOKE_SECONDS ?= 15
# A single input taking longer than this is a hang (the store lock waits at
# most 2 s; Argon2id at the floor takes tens of ms).
FUZZ_TIMEOUT     ?= 20
SUPPORT_C        := $(sort $(wildcard Sources/CIdleLockSupport/*.c))
FUZZERS          := $(FUZZ_DIR)/fuzz_api $(FUZZ_DIR)/fuzz_store
SANITIZED_C      := $(ASAN_DIR)/test_abi $(ASAN_DIR)/test_store $(ASAN_DIR)/idlelock-replay
SAN_ENV          := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1 \
                    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-seeds test-c-sanitized test-hygiene test-abi abi-baseline verify-toolchain

verify-toolchain: $(VERIFY_TOOLCHAIN)

$(VERIFY_TOOLCHAIN): Tests/fuzz/find-clang.sh
	@mkdir -p $(BUILD)
	$(BUILD_STEP) GEN $@ sh Tests/fuzz/find-clang.sh $@.tmp $(SWIFTC)
	@mv $@.tmp $@

# The instrumented copy of the library (never the shipped one), for the
# fuzzers and the sanitized C tests.
FUZZ_LIB := $(FUZZ_DIR)/$(SONAME)
$(FUZZ_LIB): $(SWIFT_SOURCES) $(HEADER) idlelock.map $(SUPPORT_C) Tests/fuzz/build-lib.sh $(LIB) $(VERIFY_TOOLCHAIN)
	$(BUILD_STEP) SWIFTC $@ sh Tests/fuzz/build-lib.sh $(FUZZ_DIR) $(VERIFY_TOOLCHAIN) $(LIB) $(SWIFTC) $(SONAME) $(SWIFT_SOURCES)

# ---------------------------------------------------------------- fuzzing

FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Werror -Iinclude \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

# The harnesses' sources: fuzz_api is a folder (one file per area of the
# API), fuzz_store one file; both share the headers of Tests/fuzz/.
FUZZ_API_SOURCES   := $(sort $(wildcard Tests/fuzz/fuzz_api/*.c))
FUZZ_API_HEADERS   := $(sort $(wildcard Tests/fuzz/fuzz_api/*.h))
FUZZ_STORE_SOURCES := Tests/fuzz/fuzz_store.c
FUZZ_HEADERS       := Tests/fuzz/fuzz_common.h Tests/fuzz/fuzz_mark.h Tests/fuzz/fuzz_store_seed.h

# Compiles and links every .c among the prerequisites.
FUZZ_LINK = $(BUILD_STEP) CC $@ sh -c '. ./$(VERIFY_TOOLCHAIN) && "$$FUZZ_CC" $(FUZZ_CFLAGS) $$FUZZ_LDFLAGS -ITests/fuzz $(filter %.c,$^) \
	    -L$(FUZZ_DIR) -l:$(SONAME) -Wl,-rpath,$(abspath $(FUZZ_DIR)) -lsodium -lpthread -o $@'

$(FUZZ_DIR)/fuzz_api: $(FUZZ_API_SOURCES) $(FUZZ_API_HEADERS) $(FUZZ_HEADERS) $(HEADER) $(FUZZ_LIB) $(VERIFY_TOOLCHAIN)
	$(FUZZ_LINK)

$(FUZZ_DIR)/fuzz_store: $(FUZZ_STORE_SOURCES) $(FUZZ_HEADERS) $(HEADER) $(FUZZ_LIB) $(VERIFY_TOOLCHAIN)
	$(FUZZ_LINK)

fuzz-build: lib $(FUZZERS)

# run_fuzzers SECONDS: both harnesses at once (one core each), each over
# its own working corpus (build/fuzz/corpus-*, grown by the run) and the
# committed seeds (read only); a crash input lands in build/fuzz/artifacts/.
define run_fuzzers
	@mkdir -p $(FUZZ_DIR)/artifacts $(FUZZ_DIR)/corpus-api $(FUZZ_DIR)/corpus-store
	@cat $(FUZZ_DIR)/MODE.txt | sed 's/^/fuzz: library /'
	@start=$$(date +%s); status=0; failures=0; \
	scratch=$$(mktemp -d $$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/idlelock-fuzz-run.XXXXXX); \
	for t in api store; do \
	    IDLELOCK_FUZZ_DIR=$$scratch $(SAN_ENV) $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(1) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=4096 \
	        -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/artifacts/$$t- \
	        $(FUZZ_DIR)/corpus-$$t Tests/fuzz/corpus/$$t > $(FUZZ_DIR)/fuzz_$$t.log 2>&1 & \
	    eval "pid_$$t=$$!"; \
	done; \
	for t in api store; do \
	    eval "pid=\$$pid_$$t"; \
	    if wait $$pid; then \
	        echo "fuzz_$$t: ok: $$(grep -E '^stat::number_of_executed_units' $(FUZZ_DIR)/fuzz_$$t.log | awk '{print $$2}') runs, $$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE|INITED)' $(FUZZ_DIR)/fuzz_$$t.log | tail -n 1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+')"; \
	    else \
	        status=1; failures=$$((failures + 1)); echo "fuzz_$$t: FAILED (log: $(FUZZ_DIR)/fuzz_$$t.log)"; \
	        grep -E -A40 'ERROR: |FUZZ ORACLE|runtime error|Test unit written|deadly signal|==[0-9]+==' $(FUZZ_DIR)/fuzz_$$t.log | head -n 80; \
	    fi; \
	done; \
	rm -rf "$$scratch"; \
	echo "fuzz: $$(( $$(date +%s) - start )) s"; \
	echo "$$(( 2 - failures )) passed, $$failures failed"; \
	exit $$status
endef

fuzz-smoke: fuzz-build
	@$(STEPS_BEGIN)
	$(STEP) $(MAKE) -s --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)
	@$(STEPS_END)

fuzz: fuzz-build
	$(call run_fuzzers,$(FUZZ_SECONDS))

# Remakes the committed seeds with the shipped library (review the diff).
$(BUILD)/make_seeds: Tests/fuzz/make_seeds.c Tests/fuzz/fuzz_store_seed.h $(HEADER) $(LIB)
	$(CC) $(CWARN) -Iinclude $< $(CLINK) -o $@

# Hand-kept seeds survive: regression-* (inputs that once found a bug) and
# v1-* (store files in format 1, made by the 1.1 library).
fuzz-seeds: lib $(BUILD)/make_seeds
	mkdir -p Tests/fuzz/corpus/api Tests/fuzz/corpus/store
	find Tests/fuzz/corpus/api Tests/fuzz/corpus/store -type f ! -name 'regression-*' ! -name 'v1-*' -delete
	$(BUILD)/make_seeds Tests/fuzz/corpus/api Tests/fuzz/corpus/store

# ------------------------------------------- sanitized C tests, Valgrind

SAN_CFLAGS := $(CWARN) -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

# Compiles and links every .c among the prerequisites, then LIBS:
# $(call san_link,LIBS).
san_link = $(BUILD_STEP) CC $@ sh -c 'mkdir -p $(@D) && . ./$(VERIFY_TOOLCHAIN) && "$$FUZZ_CC" $(SAN_CFLAGS) $$FUZZ_LDFLAGS -Iinclude $(filter %.c,$^) \
	    -L$(FUZZ_DIR) -l:$(SONAME) -Wl,-rpath,$(abspath $(FUZZ_DIR)) -lpthread -o $@ $(1)'

$(ASAN_DIR)/test_abi: $(TEST_ABI_SOURCES) $(TEST_ABI_HEADERS) $(HEADER) $(FUZZ_LIB) $(VERIFY_TOOLCHAIN)
	$(call san_link)

$(ASAN_DIR)/test_store: $(TEST_STORE_SOURCES) $(TEST_STORE_HEADERS) $(HEADER) $(FUZZ_LIB) $(VERIFY_TOOLCHAIN)
	$(call san_link)

$(ASAN_DIR)/idlelock-replay: tools/replay/idlelock-replay.c tools/replay/fake_keystore.h $(HEADER) $(FUZZ_LIB) $(VERIFY_TOOLCHAIN)
	$(call san_link,-lsodium)

test-c-sanitized: c-test-deps lib $(SANITIZED_C)
	@[ "$(V)" != 1 ] || sed 's/^/test-c-sanitized: library /' $(FUZZ_DIR)/MODE.txt
	@$(STEPS_BEGIN)
	$(STEP) $(SAN_ENV) $(ASAN_DIR)/test_abi
	$(STEP) $(SAN_ENV) IDLELOCK_TEST_KILLS=50 $(ASAN_DIR)/test_store
	$(STEP) $(SAN_ENV) $(ASAN_DIR)/idlelock-replay --quiet traces/*.trace
	@$(STEPS_END)

# --------------------------------------------------------- memory hygiene

$(BUILD)/test_hygiene: Tests/c/test_hygiene.c $(HEADER) $(LIB)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -O1 -Iinclude $< $(CLINK) -o $@

test-hygiene: lib $(BUILD)/test_hygiene
	@$(STEPS_BEGIN)
	$(STEP) $(BUILD)/test_hygiene
	@$(STEPS_END)

# ------------------------------------------------------------ ABI baseline

$(BUILD)/test_layout: Tests/abi-baseline/test_layout.c $(HEADER) $(LIB)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $< $(CLINK) -o $@

test-abi: lib $(BUILD)/test_layout
	@$(STEPS_BEGIN)
	$(STEP) $(BUILD)/test_layout
	$(STEP) sh Tests/abi-baseline/check-abi.sh $(LIB) $(HEADER) Tests/abi-baseline
	@$(STEPS_END)

# Only for a deliberate ABI change: rewrites Tests/abi-baseline/exported-symbols.txt
# (and libidlelock.abi when abidw is installed); the layout tables in
# Tests/abi-baseline/test_layout.c are edited by hand.
abi-baseline: lib
	sh Tests/abi-baseline/make-baseline.sh $(LIB) $(HEADER) Tests/abi-baseline

TEST_SUITES += test-abi test-hygiene test-c-sanitized fuzz-smoke
