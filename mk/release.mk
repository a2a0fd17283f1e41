# SPDX-License-Identifier: MIT
# mk/release.mk: every artifact of a release in build/dist/, their
# checksums, and the proof that they are reproducible (docs/PLATFORMS.md,
# "Which package for which host").
#
#   make release             the source tarball (make dist), the manual
#                            (make docs), the jar with its pom, sources and
#                            Javadoc (make jar), the NuGet package (make
#                            nuget), the wheels and the sdist (make wheel,
#                            make sdist), the rocks and the rockspec (make
#                            rock), the AAR and its pom in a Maven
#                            repository folder (make aar: maven/...), then
#                            build/dist/SHA256SUMS listing every file in
#                            build/dist (sha256sum -c checks them),
#                            after removing the artifacts of another version
#   make test-reproducible   builds the packaging steps twice from the same
#                            commit and compares every artifact byte for
#                            byte (the first build reuses what is built at
#                            this commit: an artifact depends on
#                            $(RELEASE_STAMP), the Makefile): the second
#                            time with another umask and
#                            time zone, a second later, and the managed code
#                            (the C# assemblies, the Java classes) compiled
#                            again; the native libraries are reused (they
#                            come from the compilers as the suites tested
#                            them); then SHA256SUMS holds every artifact and
#                            no other file, and the registries' own checks
#                            (twine check --strict) pass
#
# Every archive takes its time stamps from SOURCE_DATE_EPOCH (the last
# commit's time, the Makefile), its order and modes from
# scripts/reproducible.py.

RELEASE_DIST := $(BUILD)/dist
RELEASE_SUMS := $(RELEASE_DIST)/SHA256SUMS

.PHONY: release release-sums test-reproducible

release: dist docs jar nuget wheel sdist rock aar
	@$(MAKE) -s --no-print-directory release-sums

# An artifact of another version (built before the header's version
# moved) is no part of this release: it leaves build/dist, said so.
release-sums:
	@cd $(RELEASE_DIST) && for f in $$(find . -maxdepth 1 -type f ! -name 'SHA256SUMS*' ! -name '*[-.]$(VERSION)[-.]*' \
	    -printf '%f\n' | LC_ALL=C sort); do echo "  REMOVE  $(RELEASE_DIST)/$$f (not $(VERSION))"; rm -f "$$f"; done
	@echo "  SUMS    $(RELEASE_SUMS)"
	@rm -f $(RELEASE_SUMS)
	@cd $(RELEASE_DIST) && find . -type f ! -name 'SHA256SUMS*' -printf '%P\n' | LC_ALL=C sort \
	    | xargs sha256sum > SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS

# make test runs it last, by itself (ALONE_SUITES in the Makefile), so its
# builds take TEST_JOBS jobs.
test-reproducible: test-deps
	@MAKE="$(MAKE) -j$(TEST_JOBS)" PYTHON=$(PYTHON) TOOLS=$(abspath $(WHEEL_TOOLS)) sh scripts/test-reproducible.sh \
	    $(VERSION) $(RELEASE_DIST) $(BUILD)/reproducible \
	    "$(JAVA_JAR) $(CS_DLL) $(CS_NS_DLL) $(LUA_MODULE)" \
	    "$(foreach c,x86_64 aarch64 musl,$(WHEEL_DIR)/$(c)/ready) $(CS_NUGET_DIR) $(ROCK_DIR) $(SDIST_DIR) $(BUILD)/jar/stage"

TEST_SUITES += test-reproducible
