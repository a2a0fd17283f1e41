# libidlelock: build, demo and tests.
#
#   make demo   build the library and the replay tool, replay every trace
#   make test   every test: Swift unit tests, C ABI tests, traces, Python
#   make lib    only build/libidlelock.so.1 (Embedded Swift, no Swift runtime)
#
# Both demo and test first install what is missing (scripts/install-deps.sh).

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

CWARN   := -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -pedantic -Werror
CLINK   := -L$(BUILD) -l:$(SONAME) -Wl,-rpath,$(abspath $(BUILD)) -lpthread

C_PROGRAMS := $(BUILD)/idlelock-replay $(BUILD)/test_abi $(BUILD)/test_store

.PHONY: all lib deps test-deps demo test test-swift test-sanitizers test-c test-traces test-python check-library check-layers clean

all: lib

deps:
	@sh scripts/install-deps.sh

test-deps:
	@sh scripts/install-deps.sh --test

# The shipped library: Embedded Swift, whole-module, only idlelock_* exported.
SUPPORT_OBJECTS := $(BUILD)/support/last_error.o $(BUILD)/support/struct_sizes.o \
                   $(BUILD)/support/scrub_registers.o

$(BUILD)/support/%.o: Sources/CIdleLockSupport/%.c Sources/CIdleLockSupport/include/idlelock_support.h $(HEADER)
	@mkdir -p $(BUILD)/support
	$(CC) -std=c11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
	    -ISources/CIdleLockSupport/include -Iinclude -c $< -o $@

$(LIB): $(SWIFT_SOURCES) $(HEADER) idlelock.map $(SUPPORT_OBJECTS) Sources/CSystem/shim.h
	$(SWIFTC) -enable-experimental-feature Embedded -wmo -parse-as-library -Osize \
	    -warnings-as-errors -module-name IdleLock \
	    -I include -I Sources/CSystem -I Sources/CIdleLockSupport/include -Xcc -fPIC \
	    -emit-library -o $@ $(SWIFT_SOURCES) $(SUPPORT_OBJECTS) \
	    -Xlinker -soname=$(SONAME) -Xlinker --version-script=idlelock.map \
	    -Xlinker -z -Xlinker now -Xlinker -z -Xlinker relro -lsodium
	ln -sf $(SONAME) $(BUILD)/libidlelock.so

lib: deps $(LIB)

# The C suites: each is one executable built from its own folder
# (Tests/c/<suite>/). The source lists are variables so that other rules
# (the sanitized builds in mk/verify.mk, cross builds) reuse them.
TEST_ABI_SOURCES   := $(sort $(wildcard Tests/c/test_abi/*.c))
TEST_ABI_HEADERS   := $(sort $(wildcard Tests/c/test_abi/*.h))
TEST_STORE_SOURCES := $(sort $(wildcard Tests/c/test_store/*.c))
TEST_STORE_HEADERS := $(sort $(wildcard Tests/c/test_store/*.h))

$(BUILD)/test_abi: $(TEST_ABI_SOURCES) $(TEST_ABI_HEADERS) $(HEADER) $(LIB)
	$(CC) $(CWARN) -Iinclude $(TEST_ABI_SOURCES) $(CLINK) -o $@

$(BUILD)/test_store: $(TEST_STORE_SOURCES) $(TEST_STORE_HEADERS) $(HEADER) $(LIB)
	$(CC) $(CWARN) -Iinclude $(TEST_STORE_SOURCES) $(CLINK) -o $@

$(BUILD)/idlelock-replay: bindings/c/idlelock-replay.c bindings/c/fake_keystore.h $(HEADER) $(LIB)
	$(CC) $(CWARN) -Iinclude $< $(CLINK) -o $@

demo: lib $(BUILD)/idlelock-replay
	$(BUILD)/idlelock-replay bindings/c/traces/*.trace

# Each mk/*.mk adds its own targets and appends the ones `make test` runs
# to EXTRA_TESTS (verification machinery, benchmarks).
EXTRA_TESTS :=
-include $(sort $(wildcard mk/*.mk))

test: test-deps lib check-layers test-swift test-sanitizers test-c test-traces test-python $(EXTRA_TESTS)
	@echo "make test: all suites passed"

test-swift:
	swift build --build-tests -Xswiftc -warnings-as-errors
	swift test --skip-build

# The Swift tests (the stress test among them) under ThreadSanitizer and
# AddressSanitizer, each in its own build folder.
# SWIFT_BACKTRACE=enable=no: a crash reports through the sanitizer and ends
# the run, instead of waiting on the interactive backtracer.
test-sanitizers:
	SWIFT_BACKTRACE=enable=no swift test --sanitize=thread --scratch-path .build/sanitize-thread
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(abspath Tests/lsan.supp) \
	    swift test --sanitize=address --scratch-path .build/sanitize-address

test-c: lib $(C_PROGRAMS) check-library
	$(CC) $(CWARN) -Iinclude -fsyntax-only -x c $(HEADER)
	$(CXX) -std=c++11 -Wall -Wextra -pedantic -Werror -Iinclude -fsyntax-only Tests/c/header_cxx_check.cpp
	$(BUILD)/test_abi
	$(BUILD)/test_store
	sh scripts/run-readme-example.sh $(BUILD)

test-traces: lib $(BUILD)/idlelock-replay
	$(BUILD)/idlelock-replay --quiet bindings/c/traces/*.trace
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
	    $(BUILD)/idlelock-replay --quiet bindings/c/traces/*.trace

test-python: lib
	IDLELOCK_LIBRARY=$(abspath $(LIB)) PYTHONPATH=bindings/python \
	    $(PYTHON) -m pytest -q bindings/python/tests

# The dependency rule of docs/ARCHITECTURE.md: each layer of
# Sources/IdleLock imports only what its row allows.
check-layers:
	sh scripts/check-layers.sh

# The shipped library: exports exactly the header's functions, no Swift
# runtime, the right soname.
check-library: lib
	sh scripts/check-library.sh $(LIB) $(HEADER)

clean:
	rm -rf $(BUILD) .build

# Installs the header, the library (with its soname link and the .so link
# for -lidlelock) and a pkg-config file under $(DESTDIR)$(PREFIX).
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
VERSION := $(shell sed -n 's/^\#define IDLELOCK_VERSION_STRING "\(.*\)"/\1/p' $(HEADER))

.PHONY: install
install: lib
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCDIR)
	install -m 0644 $(HEADER) $(DESTDIR)$(INCDIR)/idlelock.h
	install -m 0755 $(LIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libidlelock.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' idlelock.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/idlelock.pc
