#!/bin/sh
# SPDX-License-Identifier: MIT
# check-maven.sh VERSION DIST WORK README: the Java binding's Maven files
# (make jar) as Maven Central takes them, and as README
# (bindings/java/README.md) installs and uses them (PROJECT_URL in the
# environment).
#
#   1. Central's rules for a release (central.sonatype.org, "Requirements"):
#      DIST holds idlelock-VERSION.jar, .pom, -sources.jar and -javadoc.jar
#      (artifactId-version[-classifier]); the pom has the coordinates,
#      packaging, name, description, url, a licence with name and url, a
#      developer with a name, and scm with connection, developerConnection
#      and url, all filled (no @PLACEHOLDER@ left), and it is the pom inside
#      the jar; -sources.jar holds the source of every class the jar has
#      (nested and anonymous classes aside), -javadoc.jar an index.html and
#      a page per public class. Not checked here: the signatures (.asc) and
#      checksums Central also wants, made at upload with the publisher's key.
#   2. The README's install command (the block after "<!-- maven-install
#      -->"), as written, from DIST, into a fresh local repository, offline
#      (Maven's only repository is Debian's maven-repo, a file: URL, for its
#      own plugins), which then holds the four files.
#   3. A Maven project that declares the README's dependency (the block
#      after "<!-- maven-dependency -->") compiles
#      (`mvn compile`, offline) against that local repository, and the
#      README's example, compiled so, runs with the jar Maven resolved.
# Ends with "N passed, N failed"; prints only failures besides.
set -u
version=$1 dist=$(cd "$2" && pwd) work=$3 readme=$4
root=$(pwd)
block() { awk -v m="<!-- $1 -->" '$0 == m {want = 1; next} want && /^```/ && !on {on = 1; next} on && /^```$/ {exit} on {print}' "$readme"; }
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "check-maven: FAIL: $*"; failed=$((failed + 1)); }
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
name=idlelock-$version

for f in "$name.jar" "$name.pom" "$name-sources.jar" "$name-javadoc.jar"; do
    if [ -s "$dist/$f" ]; then ok; else fail "$dist/$f is missing"; fi
done

if python3 - "$dist" "$name" "$PROJECT_URL" > "$work/central.log" 2>&1 <<'EOF'
import re, sys, zipfile
import xml.etree.ElementTree as ET
dist, name, url = sys.argv[1:4]
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
pom_bytes = open("%s/%s.pom" % (dist, name), "rb").read()
assert b"@" not in re.sub(rb"<!--.*?-->", b"", pom_bytes, flags=re.S), "a placeholder is left in the pom"
pom = ET.fromstring(pom_bytes)
def text(path):
    e = pom.find(path, ns)
    assert e is not None and (e.text or "").strip(), "the pom has no %s" % path
    return e.text.strip()
assert text("m:groupId") == "org.idlelock" and text("m:artifactId") == "idlelock"
assert text("m:version") == name.split("-", 1)[1], text("m:version")
assert text("m:packaging") == "jar"
for path in ("m:name", "m:description", "m:licenses/m:license/m:name", "m:licenses/m:license/m:url",
             "m:developers/m:developer/m:name", "m:scm/m:connection", "m:scm/m:developerConnection"):
    text(path)
assert text("m:url") == url and text("m:scm/m:url") == url, (text("m:url"), url)
jar = zipfile.ZipFile("%s/%s.jar" % (dist, name))
inner = jar.read("META-INF/maven/org.idlelock/idlelock/pom.xml")
assert inner == pom_bytes, "the pom in the jar differs from %s.pom" % name
classes = {n[:-len(".class")] for n in jar.namelist()
           if n.startswith("org/idlelock/") and n.endswith(".class") and "$" not in n}
sources = {n[:-len(".java")] for n in zipfile.ZipFile("%s/%s-sources.jar" % (dist, name)).namelist()
           if n.endswith(".java")}
assert classes and classes <= sources, "no source for %s" % sorted(classes - sources)
javadoc = set(zipfile.ZipFile("%s/%s-javadoc.jar" % (dist, name)).namelist())
assert "index.html" in javadoc, "no index.html in the javadoc jar"
public = [c for c in sorted(sources) if re.search(r"^public (final |abstract )*(class|interface|enum) ",
          zipfile.ZipFile("%s/%s-sources.jar" % (dist, name)).read(c + ".java").decode(), re.M)]
missing = [c for c in public if c + ".html" not in javadoc]
assert public and not missing, "no javadoc page for %s" % missing
EOF
then ok; else fail "Maven Central's rules:"; cat "$work/central.log"; fi

# 2. The install, offline: Maven fetches its own plugins from Debian's
# maven-repo only.
cat > "$work/settings.xml" <<EOF
<settings>
  <mirrors>
    <mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror>
  </mirrors>
</settings>
EOF
repo=$work/repository
mvn() { command mvn -B -q -s "$work/settings.xml" -Dmaven.repo.local="$repo" "$@"; }
install=$(block maven-install)
case $install in
    "mvn install:install-file"*"$name.jar"*) ok ;;
    *) fail "$readme: no <!-- maven-install --> block installing $name.jar (found: $install)" ;;
esac
if (cd "$dist" && eval "$install") > "$work/install.log" 2>&1; then
    ok
else
    fail "the README's mvn install:install-file"; tail -n 30 "$work/install.log"
fi
installed=$repo/org/idlelock/idlelock/$version
for f in "$name.jar" "$name.pom" "$name-sources.jar" "$name-javadoc.jar"; do
    if cmp -s "$installed/$f" "$dist/$f"; then ok; else fail "the local repository does not hold $f as built"; fi
done

# 3. A Maven project using it. Its plugins are pinned to the versions
# Debian packages (a project elsewhere takes Maven's defaults).
mkdir -p "$work/app/src/main/java"
cp "$root/bindings/java/examples/Example.java" "$work/app/src/main/java/"
cat > "$work/app/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
$(block maven-dependency)
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
    </plugins>
  </build>
</project>
EOF
if (cd "$work/app" && mvn compile) > "$work/compile.log" 2>&1; then
    ok
    out=$(cd "$work" && env -u LD_LIBRARY_PATH timeout 120 java -cp "$work/app/target/classes:$installed/$name.jar" Example 2>&1)
    if [ "$(printf '%s\n' "$out" | tail -n 1)" = "UNLOCKED, token session-token" ]; then
        ok
    else
        fail "the example built by Maven printed:"; printf '%s\n' "$out"
    fi
else
    fail "mvn compile of a project that depends on org.idlelock:idlelock:$version"; tail -n 30 "$work/compile.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
