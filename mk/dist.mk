# SPDX-License-Identifier: MIT
# mk/dist.mk: the source tarball (docs/BUILDING.md, "From the source
# tarball").
#
#   make dist        build/dist/libidlelock-$(VERSION).tar.gz: the files a
#                    user needs to build, test and install the library, under
#                    one top folder libidlelock-$(VERSION)/, with LICENSE and
#                    THIRD_PARTY_NOTICES.md; reproducible (sorted, owner 0,
#                    the last commit's time, gzip without a name or time)
#   make test-dist   the tarball's contents; then, unpacked in a fresh
#                    folder: its suites' rules name only files it holds, the
#                    library builds and passes test-c and test-traces there,
#                    `make install` and pkg-config give a working program
#
# What goes in: the paths of DIST_PATHS that git tracks, as they are in the
# working tree (a file not yet `git add`ed is left out, as `git archive`
# would; a change not yet committed is in, and `make dist` says so). The
# tarball is the library, as libsodium's is: its sources, its Swift and C
# tests, the trace replay tool, its docs and build files. The bindings ship
# as their own packages (docs/PLATFORMS.md), so they and the suites that
# need them (the Python binding's and the model's, the benchmarks, the
# bindings' packages) stay out, but for the two files the LuaJIT source
# rockspec builds its module from (idlelock.in.lua and idlelock_generated.lua:
# the rockspec builds from this tarball); the Makefile's suites follow what is there
# (an mk file left out takes its suites with it). `make dist` needs a git
# checkout: the tarball's own Makefile has no test-dist and a `make dist`
# there says why it cannot.

DIST_NAME    := libidlelock-$(VERSION)
DIST_DIR     := $(BUILD)/dist
DIST_TARBALL := $(DIST_DIR)/$(DIST_NAME).tar.gz
DIST_PATHS   := LICENSE THIRD_PARTY_NOTICES.md README.md CHANGELOG.md BENCHMARKS.md \
                Makefile Package.swift idlelock.map idlelock.pc.in include Sources \
                Tests/IdleLockTests Tests/c Tests/abi-baseline Tests/fuzz Tests/lsan.supp \
                traces tools bindings/luajit/idlelock.in.lua bindings/luajit/idlelock_generated.lua docs scripts mk/cross.mk mk/verify.mk mk/coverage.mk mk/dist.mk mk/docs.mk \
                mk/libsodium.mk mk/musl.mk mk/apple.mk mk/apple-tools.txt mk/target.mk
# Files under DIST_PATHS that only what is left out uses: the wheel's,
# the sdist's and the rock's tests, the Python suites' counter, the
# benchmarks' callgrind script, the by-hand old-glibc run (it needs the
# wheel), the packages' reproducibility (mk/release.mk), the Android
# build's scripts and tests (mk/android.mk: a package, like the bindings'),
# and the bindings' generator (mk/bindings-gen.mk).
DIST_LEFT_OUT := scripts/test-wheel.sh scripts/test-rock.sh scripts/test-sdist.sh scripts/pytest_counts.py \
                 scripts/callgrind-hot.sh scripts/check-old-glibc.sh scripts/reproducible.py scripts/test-reproducible.sh \
                 scripts/android-stubs.py scripts/check-android.py scripts/vendor-aosp.sh \
                 Tests/c/test_last_error.c Tests/c/bionic_shim.c scripts/gen-bindings.py

.PHONY: dist test-dist FORCE

# Packed afresh whenever it is asked for, as `git archive` would (a second
# or so), and put in place only when its bytes changed (scripts/make-dist.sh):
# what is made from it (the source rock) is remade only then, and a pack
# that changed nothing prints nothing.
dist: $(DIST_TARBALL)
$(DIST_TARBALL): FORCE
	@PROJECT_URL=$(PROJECT_URL) PROJECT_TAG=$(PROJECT_TAG) sh scripts/make-dist.sh $(DIST_TARBALL) $(DIST_NAME) $(DIST_PATHS) $(foreach f,$(DIST_LEFT_OUT),':(exclude)$(f)')

test-dist: c-test-deps dist
	@$(STEPS_BEGIN)
	$(STEP) sh scripts/test-dist.sh $(DIST_TARBALL) $(DIST_NAME) $(BUILD)/test-dist
	@$(STEPS_END)

ifneq ($(wildcard .git),)
TEST_SUITES += test-dist
endif
