# SPDX-License-Identifier: MIT
# The Java binding over JNI (bindings/java): a plain Java library and the C
# glue libidlelock_jni.so, built with javac, jar and cc (no network build
# tool), and its tests on the JVM.
#
#   make java         build/java/idlelock.jar and build/java/libidlelock_jni.so
#                     (the development build, over build/libidlelock.so.1)
#   make test-java    the tests (bindings/java/tests) on the JVM, with -Xcheck:jni
#   make jar          build/dist/idlelock-<version>.jar: the classes, the pom,
#                     LICENSE and THIRD_PARTY_NOTICES.md, and per CPU (linux
#                     x86-64, aarch64, armv7) the glue and the self-contained
#                     libidlelock.so of `make cross`, which the binding loads
#                     itself (bindings/java/README.md, "Install"); beside it
#                     what Maven Central takes with a jar: idlelock-<version>.pom,
#                     -sources.jar and -javadoc.jar (javadoc with every check
#                     of doclint, a warning failing the build); all reproducible
#   make test-jar     the jar's contents, a fresh JVM with only the jar on its
#                     class path runs the README's example, the Maven files
#                     against Central's rules, and the README's install into a
#                     local Maven repository and use from a Maven project
#   make bench-java   touch through the binding vs a JNI no-op (BENCHMARKS.md)

JAVAC   ?= javac
JAR     ?= jar
JAVA    ?= java
# The JDK that javac belongs to (for jni.h), unless JAVA_HOME is set.
JAVA_HOME ?= $(shell p=$$(readlink -f "$$(command -v $(JAVAC))" 2>/dev/null) && dirname "$$(dirname "$$p")")

JAVA_DIR       := $(BUILD)/java
JAVA_JAR       := $(JAVA_DIR)/idlelock.jar
JAVA_JNI       := $(JAVA_DIR)/libidlelock_jni.so
JAVA_SRC       := $(sort $(wildcard bindings/java/src/org/idlelock/*.java))
JAVA_TEST_SRC  := $(sort $(wildcard bindings/java/tests/org/idlelock/tests/*.java))
JAVA_TEST_JAR  := $(JAVA_DIR)/idlelock-tests.jar
# The binding: --release 8, the closest check available here of the
# java.* surface Android 7 (API 24) offers (bindings/java/README.md,
# "Android"). The tests and the benchmark may use Java 11.
JAVAC_FLAGS    := --release 8 -Xlint:all,-options -Werror -encoding UTF-8
JAVAC_TEST_FLAGS := --release 11 -Xlint:all -Werror -encoding UTF-8
# The glue: C11, warnings as errors, only JNI_OnLoad exported (the natives
# are registered from it), RUNPATH $ORIGIN: it finds the library beside it
# (libidlelock.so.1 here, the self-contained libidlelock.so in the jar).
JNI_CFLAGS      = -std=c11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
                  -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux -Iinclude

comma := ,

.PHONY: java test-java jar test-jar bench-java bench-java-smoke

# logged STEP-NAME TARGET LOG COMMAND...: one line for the step; the tool's
# output goes to LOG, shown when it fails.
logged = @printf '  %-7s %s\n' '$(strip $(1))' '$(2)'; mkdir -p $(dir $(3)); $(4) > $(3) 2>&1 || { cat $(3); exit 1; }

$(JAVA_JAR): $(JAVA_SRC)
	@rm -rf $(JAVA_DIR)/classes && mkdir -p $(JAVA_DIR)/classes
	$(call logged,JAVAC ,$(JAVA_DIR)/classes,$(JAVA_DIR)/logs/javac.log,$(JAVAC) $(JAVAC_FLAGS) -d $(JAVA_DIR)/classes $(JAVA_SRC))
	$(call logged,JAR   ,$@,$(JAVA_DIR)/logs/jar.log,$(JAR) cf $@ -C $(JAVA_DIR)/classes .)

$(JAVA_JNI): bindings/java/jni/idlelock_jni.c bindings/java/jni/idlelock_jni_generated.h $(HEADER) $(LIB)
	@mkdir -p $(JAVA_DIR)
	$(call logged,CC    ,$@,$(JAVA_DIR)/logs/cc.log,$(CC) $(JNI_CFLAGS) -shared $< -L$(BUILD) -l:$(SONAME) -Wl$(comma)-rpath$(comma)'$$ORIGIN' -lpthread -o $@)

$(JAVA_TEST_JAR): $(JAVA_TEST_SRC) $(JAVA_JAR)
	@rm -rf $(JAVA_DIR)/test-classes && mkdir -p $(JAVA_DIR)/test-classes
	$(call logged,JAVAC ,$(JAVA_DIR)/test-classes,$(JAVA_DIR)/logs/javac-tests.log,$(JAVAC) $(JAVAC_TEST_FLAGS) -cp $(JAVA_JAR) -d $(JAVA_DIR)/test-classes $(JAVA_TEST_SRC))
	$(call logged,JAR   ,$@,$(JAVA_DIR)/logs/jar-tests.log,$(JAR) cf $@ -C $(JAVA_DIR)/test-classes .)

java: lib $(JAVA_JAR) $(JAVA_JNI)

# The glue needs nothing beyond the Android NDK's libc: its undefined
# symbols are checked against bindings/java/jni/bionic-symbols.txt, and the
# classes' uses of the JDK against what Android 7 lacks
# (check-android-api.sh; its --self-test plants each way a class can use
# one and checks that it is found). The tests run with -Xcheck:jni (any
# JNI warning fails them); the traces go through the Java API and must print what the C replay tool prints; the
# README shows its example files verbatim, and the example runs.
JAVA_TEST_CP := $(JAVA_JAR):$(JAVA_TEST_JAR)
test-java: test-deps java $(JAVA_TEST_JAR) $(BUILD)/idlelock-replay
	@$(STEPS_BEGIN)
	$(STEP) sh bindings/java/jni/check-symbols.sh $(JAVA_JNI) bindings/java/jni/bionic-symbols.txt
	$(STEP) sh bindings/java/tests/check-android-api.sh $(JAVA_DIR)/classes bindings/java/android-api-24-denied.txt
	$(STEP) sh bindings/java/tests/check-android-api.sh --self-test bindings/java/android-api-24-denied.txt
	$(STEP) LD_LIBRARY_PATH=$(abspath $(BUILD)) sh bindings/java/tests/run-jvm.sh $(JAVA_DIR)/test.log \
	    -Djava.library.path=$(abspath $(JAVA_DIR)) -cp $(JAVA_TEST_CP) \
	    org.idlelock.tests.Main
	$(STEP) sh bindings/java/tests/compare-replay.sh $(BUILD)/idlelock-replay \
	    "env LD_LIBRARY_PATH=$(abspath $(BUILD)) java -Xcheck:jni -Djava.library.path=$(abspath $(JAVA_DIR)) -cp $(JAVA_TEST_CP) org.idlelock.tests.Replay" \
	    traces/*.trace
	$(STEP) sh bindings/java/tests/check-readme.sh bindings/java/README.md
	$(STEP) sh bindings/java/tests/compile-android-examples.sh $(JAVA_JAR) $(JAVA_DIR)/android-examples
	$(STEP) LD_LIBRARY_PATH=$(abspath $(BUILD)) sh bindings/java/tests/run-jvm.sh $(JAVA_DIR)/example.log \
	    -Djava.library.path=$(abspath $(JAVA_DIR)) -cp $(JAVA_JAR) bindings/java/examples/Example.java
	@$(STEPS_END)

TEST_SUITES += test-java

# -- benchmark (mk/bindings-bench.mk) ----------------------------------------

JAVA_BENCH_JAR := $(JAVA_DIR)/idlelock-bench.jar
JAVA_BENCH_RUN  = LD_LIBRARY_PATH=$(abspath $(BUILD)) $(JAVA) \
                  -Djava.library.path=$(abspath $(JAVA_DIR)):$(abspath $(BB_DIR)) \
                  -cp $(JAVA_JAR):$(JAVA_BENCH_JAR) org.idlelock.bench.Bench

$(JAVA_BENCH_JAR): bench/bindings/Bench.java $(JAVA_JAR)
	@rm -rf $(JAVA_DIR)/bench-classes && mkdir -p $(JAVA_DIR)/bench-classes
	$(JAVAC) $(JAVAC_TEST_FLAGS) -cp $(JAVA_JAR) -d $(JAVA_DIR)/bench-classes $<
	$(JAR) cf $@ -C $(JAVA_DIR)/bench-classes .

bench-java: java $(JAVA_BENCH_JAR) $(BB_NOOP)
	$(JAVA_BENCH_RUN)

bench-java-smoke: java $(JAVA_BENCH_JAR) $(BB_NOOP)
	$(JAVA_BENCH_RUN) --rounds 3 --iters 2000 > /dev/null

# -- the jar (docs/PLATFORMS.md, bindings/java/README.md "Install") ----------

JAR_CPUS    := x86_64 aarch64 armv7
JAR_FILE    := $(BUILD)/dist/idlelock-$(VERSION).jar
JAR_INPUTS  := bindings/java/make-jar.sh bindings/java/jni/idlelock_jni.c bindings/java/jni/idlelock_jni_generated.h bindings/java/pom.xml.in \
               $(HEADER) LICENSE THIRD_PARTY_NOTICES.md \
               $(foreach c,$(JAR_CPUS),$(BUILD)/$(c)/self-contained/libidlelock.so)

JAR_POM     := $(BUILD)/dist/idlelock-$(VERSION).pom
JAR_SOURCES := $(BUILD)/dist/idlelock-$(VERSION)-sources.jar
JAR_JAVADOC := $(BUILD)/dist/idlelock-$(VERSION)-javadoc.jar

# java_pom PACKAGING: the sed that fills bindings/java/pom.xml.in (the AAR
# fills it with aar).
java_pom = sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PROJECT_URL@|$(PROJECT_URL)|g' \
               -e 's|@PROJECT_TAG@|$(PROJECT_TAG)|g' -e 's|@PACKAGING@|$(1)|g' bindings/java/pom.xml.in

$(JAR_POM): bindings/java/pom.xml.in $(HEADER)
	@mkdir -p $(@D)
	@echo "  POM     $@"
	@$(call java_pom,jar) > $@.tmp && mv $@.tmp $@

$(JAR_FILE): $(JAR_INPUTS) $(JAVA_JAR) $(JAR_POM) scripts/reproducible.py $(RELEASE_STAMP)
	@$(foreach c,$(JAR_CPUS),CC_$(c)='$(call cross_cc,$(c))' CODEGEN_$(c)='$(cross_codegen_$(c))' \
	    STRIP_$(c)='$(call cross_strip,$(c))') JNI_CFLAGS='$(JNI_CFLAGS)' JAR='$(JAR)' POM=$(JAR_POM) \
	    sh bindings/java/make-jar.sh $(VERSION) $(BUILD) $(JAVA_DIR)/classes $@ $(JAR_CPUS)

# The sources as an IDE attaches them (Android Studio, IntelliJ, Eclipse:
# the Javadoc and the code behind each class), with the licence.
$(JAR_SOURCES): $(JAVA_SRC) LICENSE scripts/reproducible.py $(RELEASE_STAMP)
	@rm -rf $(JAVA_DIR)/sources && mkdir -p $(JAVA_DIR)/sources/org/idlelock $(JAVA_DIR)/sources/META-INF $(@D)
	@cp $(JAVA_SRC) $(JAVA_DIR)/sources/org/idlelock/ && cp LICENSE $(JAVA_DIR)/sources/META-INF/
	$(call logged,JAR   ,$@,$(JAVA_DIR)/logs/sources.log,rm -f $@ && $(JAR) --create --file $@ --no-manifest -C $(JAVA_DIR)/sources . \
	    && $(PYTHON) scripts/reproducible.py zip $@)

# The API reference, Java 8's surface; doclint's every check (missing
# comments and tags included), a warning failing the build; no time stamp
# in the pages.
JAVADOC       ?= javadoc
JAVADOC_FLAGS := --release 8 -encoding UTF-8 -docencoding UTF-8 -charset UTF-8 -Xdoclint:all -Werror -quiet \
                 -notimestamp -windowtitle "libidlelock $(VERSION) for Java" -doctitle "libidlelock $(VERSION) for Java"
$(JAR_JAVADOC): $(JAVA_SRC) LICENSE scripts/reproducible.py $(RELEASE_STAMP)
	@rm -rf $(JAVA_DIR)/javadoc && mkdir -p $(JAVA_DIR)/javadoc/META-INF $(@D)
	$(call logged,JAVADOC,$(JAVA_DIR)/javadoc,$(JAVA_DIR)/logs/javadoc.log,$(JAVADOC) $(JAVADOC_FLAGS) -d $(JAVA_DIR)/javadoc $(JAVA_SRC))
	@cp LICENSE $(JAVA_DIR)/javadoc/META-INF/
	$(call logged,JAR   ,$@,$(JAVA_DIR)/logs/javadoc-jar.log,rm -f $@ && $(JAR) --create --file $@ --no-manifest -C $(JAVA_DIR)/javadoc . \
	    && $(PYTHON) scripts/reproducible.py zip $@)

# The self-contained libraries come from `make cross` (mk/cross.mk).
jar: cross-deps java $(JAR_FILE) $(JAR_POM) $(JAR_SOURCES) $(JAR_JAVADOC)

JAR_TEST_DIR := $(BUILD)/jar/test

# What the jar carries (each CPU's natives: ELF machine, NEEDED, RUNPATH,
# the glibc floor); each CPU's natives loaded on that CPU (qemu-user for
# ARM) and working; then a fresh JVM with only the jar on its class path
# (no java.library.path, no LD_LIBRARY_PATH) compiles and runs the README's
# example, the loader's private folder is checked, and the README's run
# command runs as written.
test-jar: test-deps jar
	@$(STEPS_BEGIN)
	$(STEP) sh bindings/java/tests/check-jar.sh $(JAR_FILE) $(VERSION) $(GLIBC_FLOOR) $(JAR_TEST_DIR)/contents
	$(STEP) $(foreach c,$(JAR_CPUS),CC_$(c)='$(call cross_cc,$(c))' CODEGEN_$(c)='$(cross_codegen_$(c))' \
	    RUN_$(c)='$(cross_run_$(c))') sh bindings/java/tests/run-natives.sh $(JAR_TEST_DIR)/contents $(BUILD) $(JAR_CPUS)
	$(STEP) sh bindings/java/tests/run-jar.sh $(JAR_FILE) $(JAR_TEST_DIR)/run
	$(STEP) sh bindings/java/tests/run-readme-command.sh bindings/java/README.md
	$(STEP) PROJECT_URL=$(PROJECT_URL) sh bindings/java/tests/check-maven.sh $(VERSION) $(BUILD)/dist $(JAR_TEST_DIR)/maven bindings/java/README.md
	@$(STEPS_END)

TEST_SUITES += test-jar
