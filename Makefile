# SPDX-License-Identifier: MIT
# libidlelock: build, demo and tests.
#
#   make demo   build the library and the replay tool, replay every trace
#   make test   build, run every test suite, end with one table of results
#   make check  the quick tier before every commit (about 3 minutes)
#   make lib    only build/libidlelock.so.1 (Embedded Swift, no Swift runtime)
#   make install   the header, the library, idlelock.pc, the man pages, the
#               HTML manual and LICENSE under PREFIX
#   make docs   the manual from the header: docs/idlelock_manual.html, docs/man/
#   make dist   the source tarball build/dist/libidlelock-<version>.tar.gz
#
# demo, check and test first install what is missing (scripts/install-deps.sh:
# demo only what building the library needs, test everything the suites
# need); lib and install never run a package manager: a missing tool stops
# them with the name of what to install (scripts/check-build-tools.sh), and
# `make deps` installs it.
# A build step prints one line ("  LINK    build/libidlelock.so.1"), its
# tool's output kept in build/logs/ and shown when it fails; `make V=1`
# prints the commands too.
#
# Test suites. `make test` builds the library, then runs each target named
# in TEST_SUITES as `make <suite>` (scripts/run-suites.sh), in order, also
# after one failed; it ends with one table of every suite's last
# "N passed, N failed" line (logs in build/results/) and fails when a suite
# exited non-zero, printed no such line, or counted a failure. A suite is a
# target that
#   - ends with one line "N passed, N failed" (a program that prints it,
#     pytest with -p pytest_counts, Swift through scripts/swift-test.sh, or
#     several commands, each as `$(STEP) command`, between `@$(STEPS_BEGIN)`
#     and `@$(STEPS_END)`, which add their counts: scripts/run-suites.sh),
#   - says nothing else when it passes, and
#   - plugs in with one line in its mk file:  TEST_SUITES += test-<name>
# (`make test-<name>` alone runs it too, and fails when it fails).

SWIFTC  ?= swiftc
CC      ?= cc
CXX     ?= g++
PYTHON  ?= python3
BUILD   := build
SONAME  := libidlelock.so.1
LIB     := $(BUILD)/$(SONAME)

# Sources/IdleLock/<layer>/*.swift (docs/ARCHITECTURE.md).
SWIFT_SOURCES := $(sort $(wildcard Sources/IdleLock/*/*.swift))
HEADER  := include/idlelock.h
# BENCHMARKS.md: the stripped system variant's size goal, on every CPU
# (check-library here, test-cross for the other CPUs).
LIB_SIZE_GOAL := 200000
# The version every artifact's name and metadata carry: the header's.
VERSION := $(shell sed -n 's/^\#define IDLELOCK_VERSION_STRING "\(.*\)"/\1/p' $(HEADER))
# The project's home: what every package's metadata names (the pom's url
# and scm, NuGet's projectUrl and repository, PyPI's project URLs, the
# rockspec's homepage), and where a README read outside this tree links to:
# PROJECT_URL/blob/PROJECT_TAG/<path> (scripts/md-links.py absolute).
PROJECT_URL := https://github.com/libidlelock/libidlelock
PROJECT_TAG := v$(VERSION)
PROJECT_COMMIT := $(shell git rev-parse HEAD 2>/dev/null)
# Every packaged artifact's time stamps, for reproducible builds
# (reproducible-builds.org's SOURCE_DATE_EPOCH, which setuptools, wheel and
# scripts/reproducible.py read): the last commit's time unless set.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export SOURCE_DATE_EPOCH
# A file whose time changes when SOURCE_DATE_EPOCH or the commit does
# (rewritten here only then): every packaged artifact depends on it, so one
# built at another commit is made again, with this commit's time stamps.
RELEASE_STAMP := $(BUILD)/release-stamp
$(shell mkdir -p $(BUILD) && s='$(SOURCE_DATE_EPOCH) $(PROJECT_COMMIT)' && \
    [ "$$(cat $(RELEASE_STAMP) 2>/dev/null)" = "$$s" ] || echo "$$s" > $(RELEASE_STAMP))

CWARN   := -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror
CLINK   := -L$(BUILD) -l:$(SONAME) -Wl,-rpath,$(abspath $(BUILD)) -lpthread

C_PROGRAMS := $(BUILD)/idlelock-replay $(BUILD)/test_abi $(BUILD)/test_store

# A build step that says what it does: `$(BUILD_STEP) LABEL WHAT COMMAND...`
# prints "  LABEL WHAT", keeps COMMAND's output in $(BUILD)/logs/ and shows
# it when COMMAND fails (scripts/build-step.sh). COMMAND is one command (no
# shell operators).
BUILD_STEP = @V=$(V) sh scripts/build-step.sh $(BUILD)/logs

.PHONY: all lib deps c-test-deps test-deps list-suites demo test check-licence test-install-deps test-run-suites test-swift test-sanitizers test-swift-tsan test-swift-asan test-c \
        test-traces test-python check-library check-layers clean

all: lib

# The levels of scripts/install-deps.sh: the library, the C suites, all.
deps:
	@sh scripts/install-deps.sh

c-test-deps:
	@sh scripts/install-deps.sh --c-tests

test-deps:
	@sh scripts/install-deps.sh --test

# The shipped library: Embedded Swift, whole-module, only idlelock_* exported.
# The native build is the host's target of the one compile recipe
# (mk/target.mk), which the other CPUs' builds use too; its objects are in
# build/obj/ (the x86-64 self-contained variant, mk/cross.mk, links these).
include mk/target.mk
NATIVE_OBJ      := $(BUILD)/obj
# The tools `make lib` needs are here (scripts/check-build-tools.sh).
BUILD_TOOLS_OK  := $(BUILD)/build-tools.ok
SUPPORT_OBJECTS := $(NATIVE_OBJ)/last_error.o $(NATIVE_OBJ)/struct_sizes.o \
                   $(NATIVE_OBJ)/scrub_registers.o $(NATIVE_OBJ)/glibc_floor.o
# ILK_GLIBC_FLOOR: glibc_floor.c keeps the glibc floor at 2.17.
SUPPORT_CFLAGS  := -std=c11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror -DILK_GLIBC_FLOOR \
                   -ISources/CIdleLockSupport/include -Iinclude
# -sil-disable-pass=closure-specialize: the optimizer otherwise clones a
# function for every closure literal passed to it (SessionStore.update and
# StoreFiles.locked had 15 and 8 copies, one per durable step): 32 KB of the
# library at 1.2.1 for no speed (the hot calls inline their closures and
# their instruction counts do not move: BENCHMARKS.md, "Other CPUs and the
# self-contained variant").
EMBEDDED_SWIFT_FLAGS := -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
                   -Xllvm -sil-disable-pass=closure-specialize \
                   -warnings-as-errors -module-name IdleLock \
                   -I include -I Sources/CSystem -I Sources/CIdleLockSupport/include

# The host as a target (mk/target.mk lists the variables): swiftc's and the
# C compiler's own defaults. libpthread.so.0 in NEEDED: glibc before 2.34
# has pthread_create there (glibc_floor.c); from 2.34 on it is an empty stub
# every glibc ships.
target_swift_native   := $(TARGET_SWIFT_PIC)
target_cc_native      := $(CC)
target_cflags_native  := $(SUPPORT_CFLAGS)
target_inputs_native  :=
target_order_native   := $(BUILD_TOOLS_OK)
target_link_native    := $(CC)
# lld, the Swift toolchain's own linker (found beside swiftc, as the
# AArch64 build's is: mk/cross.mk): no linker the system may lack (gold,
# which swiftc's driver used until 1.2.1, is deprecated and packaged apart
# from Debian 13 on), and GNU ld's page padding would add 8 KB.
target_ldflags_native := -B$(SWIFT_TOOLCHAIN_BIN) -fuse-ld=lld
NATIVE_LINK           := -lsodium -Wl,--no-as-needed -l:libpthread.so.0
$(eval $(call target_compile_rules,native,$(NATIVE_OBJ)))
$(eval $(call target_library_rule,native,$(LIB),$(SONAME),$(NATIVE_OBJ)/IdleLock.o $(SUPPORT_OBJECTS),$(NATIVE_LINK)))

$(BUILD)/libidlelock.so: $(LIB)
	@ln -sf $(SONAME) $@

# The tools the library needs, or a message naming the package (no
# package manager runs here: `make deps` does that).
# A file, not a phony target: an order-only phony prerequisite makes
# `make -q` call every object out of date.
$(BUILD_TOOLS_OK): scripts/check-build-tools.sh
	@sh scripts/check-build-tools.sh $(SWIFTC) $(CC) $(SWIFT_TOOLCHAIN_BIN)ld.lld $(TARGET_OBJCOPY)
	@mkdir -p $(@D) && touch $@

$(SUPPORT_OBJECTS): | $(BUILD_TOOLS_OK)

lib: $(LIB) $(BUILD)/libidlelock.so

# The C suites: each is one executable built from its own folder
# (Tests/c/<suite>/). The source lists are variables so that other rules
# (the sanitized builds in mk/verify.mk, cross builds) reuse them.
TEST_ABI_SOURCES   := $(sort $(wildcard Tests/c/test_abi/*.c))
TEST_ABI_HEADERS   := $(sort $(wildcard Tests/c/test_abi/*.h)) Tests/c/areas.h
TEST_STORE_SOURCES := $(sort $(wildcard Tests/c/test_store/*.c))
TEST_STORE_HEADERS := $(sort $(wildcard Tests/c/test_store/*.h)) Tests/c/areas.h

$(BUILD)/test_abi: $(TEST_ABI_SOURCES) $(TEST_ABI_HEADERS) $(HEADER) $(LIB)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $(TEST_ABI_SOURCES) $(CLINK) -o $@

# The areas of test_store that depend on the platform under them (the C
# library's file calls and their struct layouts, flock, fork, a full disk),
# not only on the library's rules: what the builds for other CPUs, C
# libraries and the tarball run (test-cross, test-musl, test-android,
# test-dist), while test-c runs every area natively and test-c-sanitized
# under ASan (docs/TESTING.md). test-cross leaves out lock_file_races
# (mk/cross.mk).
STORE_PLATFORM_AREAS := shared_count concurrent cross_process modes faults damage paths rollback lock_file_replaced \
                        lock_file_races

$(BUILD)/test_store: $(TEST_STORE_SOURCES) $(TEST_STORE_HEADERS) $(HEADER) $(LIB)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $(TEST_STORE_SOURCES) $(CLINK) -o $@

$(BUILD)/idlelock-replay: tools/replay/idlelock-replay.c tools/replay/fake_keystore.h $(HEADER) $(LIB)
	$(BUILD_STEP) CC $@ $(CC) $(CWARN) -Iinclude $< $(CLINK) -lsodium -o $@

demo: deps lib $(BUILD)/idlelock-replay
	$(BUILD)/idlelock-replay traces/*.trace

# The suites of this file; each mk/*.mk appends its own (verification
# machinery, benchmarks, bindings).
RESULTS     := $(BUILD)/results
# (The Swift unit tests run once in `make test`, under AddressSanitizer,
# test-swift-asan, and once more under ThreadSanitizer for the races;
# test-swift, the same tests in a plain debug build, is `make check`'s.)
TEST_SUITES := check-layers check-licence test-install-deps test-run-suites test-swift-tsan test-swift-asan test-c test-traces
# The Python package's tests; the source tarball (mk/dist.mk) carries the
# library without the bindings, and so without this suite.
ifneq ($(wildcard bindings/python/tests),)
TEST_SUITES += test-python
endif
-include $(sort $(wildcard mk/*.mk))

# pytest in a suite: a passing test prints nothing (scripts/pytest_counts.py
# drops its progress dot), a failure prints pytest's report.
PYTEST_QUIET = -qq -o console_output_style=classic

# A suite of several commands: `@$(STEPS_BEGIN)`, then `$(STEP) command`
# for each, then `@$(STEPS_END)` (see the header).
STEPS_BEGIN = rm -f $(RESULTS)/$@.steps $(RESULTS)/$@.steps.log
STEP        = @V=$(V) sh scripts/run-suites.sh step $(RESULTS)/$@.steps
STEPS_END   = sh scripts/run-suites.sh end $(RESULTS)/$@.steps

# TEST_JOBS: how many suites run at once (scripts/run-suites.sh): 3 by
# default, for a machine's two cores. Most suites keep one core busy (qemu,
# a JVM, CPython, valgrind) but wait for a part of their time (child
# processes, fsync, timers, a JVM starting): two at a time left a tenth of
# two cores idle, three fill it (a clean make test here: 874 s with 2, 776
# s with 3, every suite passing). The suites' own time limits (test_store's
# alarm, test-cross's per-run limit, the fuzzers' per-input limit) leave
# room for that (docs/TESTING.md); `make test TEST_JOBS=1` runs one at a
# time, each with the machine to itself.
TEST_JOBS ?= 3

# The longest suites start first, so that the suites running at once end together
# (docs/TESTING.md has each suite's time); the table lists the suites in
# the order they ran.
SLOW_SUITES := test-model test-cross test-swift-asan test-swift-tsan test-android test-java test-nuget
# ALONE_SUITES run last, by themselves: test-reproducible deletes and
# rebuilds the packages, assemblies and build/dist/ that other suites read
# (a wheel, a jar, the tarball), so it waits until they have all ended.
ALONE_SUITES := test-reproducible
TEST_ORDER   = $(foreach s,$(SLOW_SUITES),$(filter $(s),$(TEST_SUITES))) \
               $(filter-out $(SLOW_SUITES) $(ALONE_SUITES),$(TEST_SUITES)) $(filter $(ALONE_SUITES),$(TEST_SUITES))

# RESULTS is one folder (a space would split it into a folder and a suite).
$(if $(word 2,$(RESULTS)),$(error RESULTS must be one path without spaces, not "$(RESULTS)"))

test: test-deps lib
	@MAKE="$(MAKE)" TEST_JOBS=$(TEST_JOBS) TEST_ALONE="$(ALONE_SUITES)" sh scripts/run-suites.sh make $(RESULTS) $(TEST_ORDER)

# `make check`: what to run before every commit (docs/TESTING.md, "Before
# you commit"): the layers, the Swift unit tests, the C suites, every
# trace and the Python suite, TEST_JOBS at a time, in about 3 minutes on 2
# cores from a fresh clone (`make test` runs them all again, in full, with
# everything else). The quick forms: test_store's kill test with 20 kills
# instead of 200 (IDLELOCK_TEST_KILLS), the traces without their valgrind
# run (TRACES_VALGRIND=0). It installs only what these need.
CHECK_SUITES := check-layers test-swift test-c test-traces test-python

.PHONY: check
check: c-test-deps lib
	@$(PYTHON) -c "import pytest, hypothesis" 2>/dev/null || sh scripts/install-deps.sh --test-python
	@MAKE="$(MAKE) RESULTS=$(BUILD)/check-results" TEST_LABEL="make check" TEST_JOBS=$(TEST_JOBS) IDLELOCK_TEST_KILLS=20 TRACES_VALGRIND=0 \
	    sh scripts/run-suites.sh make $(BUILD)/check-results $(CHECK_SUITES)

# The suites `make test` runs, one per line.
list-suites:
	@printf '%s\n' $(TEST_SUITES)

# The tests use Swift Testing only: scripts/swift-test.sh passes
# --disable-xctest and keeps swift test's full output in build/swift-test/.
test-swift:
	$(BUILD_STEP) SWIFT-BUILD "the package's tests (debug)" swift build --build-tests -Xswiftc -warnings-as-errors
	@sh scripts/swift-test.sh $(BUILD)/swift-test/debug.log --skip-build $(SWIFT_TEST_ARGS)

# The Swift tests (the stress test among them) under ThreadSanitizer and
# AddressSanitizer, each in its own build folder.
# SWIFT_BACKTRACE=enable=no: a crash reports through the sanitizer and ends
# the run, instead of waiting on the interactive backtracer.
# The ASan run links with the toolchain's lld (-use-ld=lld): the ASan
# runtime of Swift's clang defines its __asan_report_*_asm helpers as local
# symbols, and gold, SwiftPM's default linker here, prints "Cannot export
# local symbol" for each of them (141 warnings) when it links the test
# executable; lld links the same objects without a word. LSAN's
# print_suppressions=0: no table of the suppressions used when it passes.
# SWIFT_TEST_WMO: each module compiled by one frontend (whole module, still
# -Onone), its LLVM work on two threads and its module file written by the
# same job, where SwiftPM's batch mode loads the module in every batch and
# type-checks its declarations again in a job of its own to emit the
# module: about 10 s of CPU less per build in a clean run. It gives up
# incremental builds, so only these two runs use it (a clean build each in
# `make test`); `make check`'s test-swift stays incremental. The driver's
# two notes about it (batch mode ignored, incremental off) are left out by
# swift-test.sh.
SWIFT_TEST_WMO := -Xswiftc -wmo -Xswiftc -num-threads -Xswiftc 2 -Xswiftc -no-emit-module-separately-wmo
# SWIFT_TEST_ARGS: more arguments for swift test in every Swift suite, e.g.
# one test: `make test-swift-asan SWIFT_TEST_ARGS='--filter DelayTests'`.
SWIFT_TEST_ARGS ?=

test-sanitizers: test-swift-tsan test-swift-asan

test-swift-tsan:
	@SWIFT_BACKTRACE=enable=no \
	    sh scripts/swift-test.sh $(BUILD)/swift-test/tsan.log --sanitize=thread --scratch-path .build/sanitize-thread \
	    $(SWIFT_TEST_WMO) $(SWIFT_TEST_ARGS)

test-swift-asan:
	@SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(abspath Tests/lsan.supp):print_suppressions=0 \
	    sh scripts/swift-test.sh $(BUILD)/swift-test/asan.log --sanitize=address --scratch-path .build/sanitize-address \
	    -Xswiftc -use-ld=lld -Xswiftc -warnings-as-errors $(SWIFT_TEST_WMO) $(SWIFT_TEST_ARGS)

# The shipped library's exports, the header as C99 and as C++11, the C
# suites (Tests/c/), and the README's C example.
test-c: c-test-deps lib $(C_PROGRAMS)
	@$(STEPS_BEGIN)
	$(STEP) sh scripts/check-library.sh --size-goal $(LIB_SIZE_GOAL) $(LIB) $(HEADER)
	$(STEP) $(CC) $(CWARN) -Iinclude -fsyntax-only -x c $(HEADER)
	$(STEP) $(CXX) -std=c++11 -Wall -Wextra -pedantic -Werror -Iinclude -fsyntax-only Tests/c/header_cxx_check.cpp
	$(STEP) $(BUILD)/test_abi
	$(STEP) $(BUILD)/test_store
	$(STEP) sh scripts/run-readme-example.sh $(BUILD)
	@$(STEPS_END)

# deny_boot_id.so: the boot id unreadable, as an app's is on Android 8
# (Tests/c/deny_boot_id.c): every trace must hold so too.
$(BUILD)/deny_boot_id.so: Tests/c/deny_boot_id.c
	$(BUILD_STEP) CC $@ $(CC) -std=c11 -O2 -fPIC -shared -Wall -Wextra -Werror -o $@ $< -ldl

# TRACES_VALGRIND=0 (make check) leaves out the valgrind run.
TRACES_VALGRIND ?= 1
test-traces: c-test-deps lib $(BUILD)/idlelock-replay $(BUILD)/deny_boot_id.so
	@$(STEPS_BEGIN)
	$(STEP) $(BUILD)/idlelock-replay --quiet traces/*.trace
ifneq ($(TRACES_VALGRIND),0)
	$(STEP) valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    $(BUILD)/idlelock-replay --quiet traces/*.trace
endif
	$(STEP) LD_PRELOAD=$(abspath $(BUILD)/deny_boot_id.so) $(BUILD)/idlelock-replay --quiet traces/*.trace
	@$(STEPS_END)

test-python: lib $(BUILD)/idlelock-replay
	@IDLELOCK_LIBRARY=$(abspath $(LIB)) IDLELOCK_REPLAY=$(abspath $(BUILD)/idlelock-replay) \
	    PYTHONPATH=bindings/python:scripts $(PYTHON) -m pytest $(PYTEST_QUIET) -p pytest_counts bindings/python/tests

# The dependency rule of docs/ARCHITECTURE.md: each layer of
# Sources/IdleLock imports only what its row allows, only the platform
# layer's table of system calls calls the C library, and the built library
# calls no C library function the check does not list; then the check
# itself, on planted violations.
# The licence: LICENSE and the notices present, and every source file
# names its licence (SPDX), as every artifact built from them must.
check-licence:
	@sh scripts/check-spdx.sh

# scripts/install-deps.sh against a fake apt-get: a stale package index
# (a mirror mid-sync) warns, retries once and goes on to the install.
test-install-deps:
	@sh scripts/test-install-deps.sh

# scripts/run-suites.sh on suites of its own: the table, the exit status,
# and each suite's private TMPDIR, gone after the run (a stopped one too).
test-run-suites:
	@sh scripts/test-run-suites.sh

check-layers: lib
	@$(STEPS_BEGIN)
	$(STEP) sh scripts/check-layers.sh --library $(LIB)
	$(STEP) sh scripts/check-layers.sh --self-test
	@$(STEPS_END)

# The shipped library: exports exactly the header's functions, no Swift
# runtime, the right soname.
check-library: lib
	sh scripts/check-library.sh --size-goal $(LIB_SIZE_GOAL) $(LIB) $(HEADER)

clean:
	rm -rf $(BUILD) .build

# Installs the header, the library (with its soname link and the .so link
# for -lidlelock), a pkg-config file, the manual (man pages in
# $(MANDIR)/man3, the HTML page beside the licence) and the licence under
# $(DESTDIR)$(PREFIX). The system variant bundles nothing (it links the
# system's libsodium), so no third-party notice goes with it.
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
DOCDIR  ?= $(PREFIX)/share/doc/libidlelock
MANDIR  ?= $(PREFIX)/share/man

.PHONY: install
install: lib $(MANUAL_HTML)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man3
	install -m 0644 $(HEADER) $(DESTDIR)$(INCDIR)/idlelock.h
	install -m 0755 $(LIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libidlelock.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' idlelock.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/idlelock.pc
	install -m 0644 $(MANUAL_MAN)/*.3 $(DESTDIR)$(MANDIR)/man3/
	install -m 0644 $(MANUAL_HTML) LICENSE $(DESTDIR)$(DOCDIR)/
