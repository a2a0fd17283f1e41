#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Packs the AAR of `make aar` (mk/android.mk), or makes its .pom.

    make-aar.py VERSION JAR JNILIBS AAR ABI...
    make-aar.py --pom < JAR-POM > AAR-POM

JAR is the Java binding's classes (java.mk's build/java/idlelock.jar,
javac --release 8); JNILIBS holds <abi>/libidlelock.so and
<abi>/libidlelock_jni.so (make android). The AAR holds what the Android
Gradle Plugin reads: classes.jar (the classes, and the licence and notices
under META-INF/idlelock/, which go into the app's APK with them),
AndroidManifest.xml, proguard.txt (the consumer rules), R.txt (empty: no
resources), jni/<abi>/, and LICENSE and THIRD_PARTY_NOTICES.md at its top.
Reproducible: entries sorted, one fixed time stamp (SOURCE_DATE_EPOCH, or
1980-01-01), fixed permissions.

--pom: the AAR's .pom from the Java binding's (bindings/java/pom.xml.in,
filled in with packaging aar: mk/java.mk's java_pom), with the AAR's own
artifactId, idlelock-android (a Maven coordinate has one packaging: the
jar keeps org.idlelock:idlelock), name and description.
"""
import re
import io
import os
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def stamp():
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return time.gmtime(int(epoch))[:6] if epoch else (1980, 1, 1, 0, 0, 0)


def write_zip(path, entries):
    """entries: {name: bytes}; written sorted, deflated, with one time stamp."""
    with zipfile.ZipFile(path, "w") as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=stamp())
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[name])


def read(path):
    with open(path, "rb") as f:
        return f.read()


def pom():
    text = sys.stdin.read()
    for pattern, replacement in (
            (r"<artifactId>idlelock</artifactId>", "<artifactId>idlelock-android</artifactId>"),
            (r"<name>[^<]*</name>", "<name>libidlelock for Android</name>"),
            (r"<description>[^<]*</description>",
             "<description>An idle lock for signed-in sessions: the Java binding of libidlelock over JNI, with its"
             " natives for arm64-v8a, armeabi-v7a, x86_64 and x86 inside (minSdk 24; libsodium linked in; see"
             " THIRD_PARTY_NOTICES.md).</description>")):
        text, n = re.subn(pattern, replacement, text, count=1)
        if n != 1:
            sys.exit(f"make-aar.py --pom: no {pattern} in the Java binding's pom")
    sys.stdout.write(text)


def main():
    if sys.argv[1:] == ["--pom"]:
        pom()
        return
    version, jar, jnilibs, aar = sys.argv[1:5]
    abis = sys.argv[5:]
    with zipfile.ZipFile(jar) as z:
        classes = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    classes["META-INF/idlelock/LICENSE"] = read("LICENSE")
    classes["META-INF/idlelock/THIRD_PARTY_NOTICES.md"] = read("THIRD_PARTY_NOTICES.md")
    buf = io.BytesIO()
    write_zip(buf, classes)
    entries = {
        "classes.jar": buf.getvalue(),
        "AndroidManifest.xml": read(os.path.join(HERE, "AndroidManifest.xml")),
        "proguard.txt": read(os.path.join(HERE, "proguard.txt")),
        "R.txt": b"",
        "LICENSE": read("LICENSE"),
        "THIRD_PARTY_NOTICES.md": read("THIRD_PARTY_NOTICES.md"),
    }
    for abi in abis:
        for lib in ("libidlelock.so", "libidlelock_jni.so"):
            entries[f"jni/{abi}/{lib}"] = read(os.path.join(jnilibs, abi, lib))
    os.makedirs(os.path.dirname(aar), exist_ok=True)
    write_zip(aar + ".part", entries)
    os.replace(aar + ".part", aar)


if __name__ == "__main__":
    main()
