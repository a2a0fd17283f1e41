#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What can be proven of the Android libraries without a device (mk/android.mk).

    check-android.py libs --abi ABI --lib LIB --glue GLUE --stubs DIR
                          [--objdump TOOL] [--link CMD]
    check-android.py aar --aar FILE --pom FILE --jnilibs DIR --glue-source FILE
                         --version V --abis "A B ..." [--proguard TOOL]

`libs`, for one ABI's libidlelock.so (LIB) and libidlelock_jni.so (GLUE):
every symbol they import resolves, with its version, against the API-24
stub libc.so/libm.so/libdl.so in DIR (what a device of API 24 has), and a
symbol introduced after API 24 fails to link against them (--link: the
compiler driver with its target; a probe that calls getrandom, API 28,
must fail, and the same probe calling open must link); every PT_LOAD is
aligned to 16 KiB or more; no PT_TLS (Android's ELF TLS begins at API 29);
NEEDED is only bionic's libraries (the glue: and libidlelock.so); the glue
exports only JNI_OnLoad and Java_* names; on arm64-v8a no instruction uses
x18 (Android reserves it), read by disassembly (--objdump); on armeabi-v7a
the EABI attributes say soft-float calling (no Tag_ABI_VFP_args) with a
VFP, ARMv7; on x86 every function of the library (--symbols: the
unstripped file) that calls another keeps the stack 16-byte aligned at
its calls, as the i386 ABI requires (read from each prologue: the return
address, the registers pushed and the frame it subtracts).

`aar`: the AAR's entries are exactly what the Android Gradle Plugin reads
(classes.jar, AndroidManifest.xml, proguard.txt, R.txt, jni/<abi>/ with
both libraries for every ABI, the licence and notices); its manifest's
package and minSdkVersion; classes.jar holds Java 8 class files and the
licence; its natives are the build's; the .pom names it; and, with
--proguard, the consumer rules keep, under shrinking and renaming, every
class and method the glue finds by name (read from its source: the
RegisterNatives table, FindClass, GetStaticMethodID).

Prints one line per check and "N passed, N failed".
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

RESULTS = [0, 0]


def check(ok, what):
    RESULTS[0 if ok else 1] += 1
    print(("ok   " if ok else "FAIL ") + what)
    return ok


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def dynamic_symbols(path, defined):
    """{name: version or ''} of the defined or undefined dynamic symbols."""
    out = run("nm", "-D", "--defined-only" if defined else "--undefined-only", path)
    symbols = {}
    for line in out.splitlines():
        name = line.split()[-1]
        base, _, version = name.partition("@")
        symbols[base] = version.lstrip("@")
    return symbols


def program_headers(path):
    return [line.split() for line in run("readelf", "-lW", path).splitlines()
            if line.strip().startswith(("LOAD", "TLS", "GNU_STACK"))]


def needed(path):
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", run("readelf", "-dW", path))


BIONIC = {"libc.so", "libm.so", "libdl.so"}


def check_libs(a):
    absent = [p for p in (a.lib, a.glue) if not os.path.isfile(p)]
    if absent:
        check(False, f"{a.abi}: not built: {' '.join(absent)} (make android)")
        return
    stubs = {}
    for lib in sorted(BIONIC):
        for name, version in dynamic_symbols(os.path.join(a.stubs, lib), True).items():
            stubs.setdefault(name, set()).add(version)
    exports = set(dynamic_symbols(a.lib, True))
    for path, extra in ((a.lib, set()), (a.glue, exports)):
        name = os.path.basename(path)
        missing = [f"{s}@{v}" if v else s for s, v in dynamic_symbols(path, False).items()
                   if not (s in extra or v in stubs.get(s, ()))]
        check(not missing, f"{a.abi} {name}: every import resolves against API {a.api}'s libc/libm/libdl"
              + (f"; not there: {' '.join(sorted(missing))}" if missing else ""))
        headers = program_headers(path)
        small = [h[-1] for h in headers if h[0] == "LOAD" and int(h[-1], 16) < 0x4000]
        check(not small and any(h[0] == "LOAD" for h in headers),
              f"{a.abi} {name}: every PT_LOAD aligned to 16 KiB" + (f"; found {small}" if small else ""))
        check(not any(h[0] == "TLS" for h in headers), f"{a.abi} {name}: no PT_TLS segment")
        allowed = BIONIC | ({"libidlelock.so"} if extra else set())
        got = needed(path)
        check(set(got) <= allowed and "libc.so" in got, f"{a.abi} {name}: NEEDED {' '.join(got)}"
              + ("" if set(got) <= allowed else f" (allowed: {' '.join(sorted(allowed))})"))
        if a.abi == "arm64-v8a":
            text = run(a.objdump, "-d", "--no-show-raw-insn", path)
            uses = [line.strip() for line in text.splitlines() if re.search(r"\b[xw]18\b", line)]
            check(not uses, f"{a.abi} {name}: no instruction uses x18 (Android's shadow call stack register)"
                  + (f"; {len(uses)} do, e.g. {uses[0]}" if uses else ""))
        if a.abi == "armeabi-v7a":
            attrs = run("readelf", "-A", path)
            hard = "Tag_ABI_VFP_args" in attrs
            check(not hard and "Tag_CPU_arch: v7" in attrs and "Tag_FP_arch: VFPv3" in attrs,
                  f"{a.abi} {name}: ARMv7 with a VFP, soft-float calling convention (no Tag_ABI_VFP_args)"
                  + ("; found Tag_ABI_VFP_args (hard-float calling)" if hard else ""))
    if a.abi == "x86" and a.symbols:
        bad, judged = misaligned_frames(run(a.objdump, "-d", "--no-show-raw-insn", a.symbols))
        check(judged > 100 and not bad, f"{a.abi} libidlelock.so: the {judged} functions with a frame that call"
              " keep the stack 16-byte aligned" + (f"; {len(bad)} do not, e.g. {bad[0]}" if bad else ""))
    glue_exports = sorted(dynamic_symbols(a.glue, True))
    bad = [s for s in glue_exports if s != "JNI_OnLoad" and not s.startswith("Java_")]
    check("JNI_OnLoad" in glue_exports and not bad,
          f"{a.abi} libidlelock_jni.so: exports JNI_OnLoad and Java_* only" + (f"; also {bad}" if bad else ""))
    if a.link:
        with tempfile.TemporaryDirectory() as tmp:
            def links(call):
                src = os.path.join(tmp, "probe.c")
                with open(src, "w") as f:
                    f.write(f"int {call}(void *, unsigned long, unsigned);\n"
                            f"int probe(void) {{ return {call}(0, 0, 0); }}\n")
                cmd = a.link.split() + ["-shared", "-fPIC", "-Wl,--no-undefined", "-o", os.path.join(tmp, "p.so"),
                                        src, os.path.join(a.stubs, "libc.so")]
                r = subprocess.run(cmd, capture_output=True, text=True)
                return r.returncode == 0, r.stderr
            old_ok, _ = links("open")
            new_ok, err = links("getrandom")
            check(old_ok and not new_ok and "getrandom" in err,
                  f"{a.abi}: linking enforces API {a.api}: open (API 1) links, getrandom (API 28) does not")


def misaligned_frames(disassembly):
    """Functions of i386 code whose calls find the stack not 16-byte aligned.
    At entry the stack is 4 past a multiple of 16 (the return address); a
    function that begins with the usual prologue (`pushl %ebp`, `movl %esp,
    %ebp`, the registers it saves, `subl $N, %esp`) and makes calls must
    bring it back to a multiple of 16. Functions without that prologue
    (leaves, tail calls, frames set up later) are not judged. Returns the
    misaligned ones and how many were judged."""
    bad, judged = [], 0
    for body in re.split(r"\n(?=[0-9a-f]+ <)", disassembly):
        lines = [l.split("\t", 1)[-1].strip() for l in body.splitlines()[1:] if "\t" in l]
        head = re.match(r"[0-9a-f]+ <(.*)>:", body)
        if not head or len(lines) < 3 or lines[0] != "pushl\t%ebp" or lines[1] != "movl\t%esp, %ebp":
            continue
        if not any(l.startswith("call") for l in lines):
            continue
        pushes = 1
        rest = lines[2:]
        while rest and re.match(r"pushl\t%e[a-z]{2}$", rest[0]):
            pushes += 1
            rest = rest[1:]
        m = re.match(r"subl\t\$0x([0-9a-f]+), %esp$", rest[0]) if rest else None
        if m:
            judged += 1
            if (4 + 4 * pushes + int(m.group(1), 16)) % 16:
                bad.append(head.group(1))
    return bad, judged


def glue_names(source):
    """(natives: [(name, descriptor)], callbacks: [(class, name, descriptor)]) the glue uses by name."""
    text = open(source, encoding="utf-8").read()
    natives = re.findall(r'\{"(\w+)", "([^"]+)", \(void \*\)n_\w+\}', text)
    classes = dict(re.findall(r'jclass (\w+) = \(\*env\)->FindClass\(env, "([\w/]+)"\)', text))
    callbacks = [(classes[var], name, desc) for var, name, desc in
                 re.findall(r'GetStaticMethodID\(env, (\w+), "(\w+)", "([^"]+)"\)', text)]
    registered = re.findall(r'RegisterNatives\(env, (\w+),', text)
    return natives, [classes[v] for v in registered], callbacks


def javap_members(jar, cls):
    out = subprocess.run(["javap", "-p", "-s", "-cp", jar, cls.replace("/", ".")],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    members, last = set(), None
    for line in out.stdout.splitlines():
        line = line.strip()
        if line.startswith("descriptor:") and last:
            members.add((last, line.split(None, 1)[1]))
        m = re.search(r"(\w+)\(", line)
        last = m.group(1) if m and not line.startswith("descriptor:") else None
    return members


def check_aar(a):
    abis = a.abis.split()
    if not check(os.path.isfile(a.aar) and os.path.isfile(a.pom), f"the AAR and its .pom are built ({a.aar})"):
        return
    want = {"classes.jar", "AndroidManifest.xml", "proguard.txt", "R.txt", "LICENSE", "THIRD_PARTY_NOTICES.md"}
    want |= {f"jni/{abi}/{lib}" for abi in abis for lib in ("libidlelock.so", "libidlelock_jni.so")}
    with zipfile.ZipFile(a.aar) as z:
        names = {n for n in z.namelist() if not n.endswith("/")}
        check(names == want, "the AAR holds exactly classes.jar, AndroidManifest.xml, proguard.txt, R.txt, "
              f"LICENSE, THIRD_PARTY_NOTICES.md and jni/<abi>/ for {' '.join(abis)}"
              + (f"; extra {sorted(names - want)}, missing {sorted(want - names)}" if names != want else ""))
        manifest = ET.fromstring(z.read("AndroidManifest.xml")) if "AndroidManifest.xml" in names else None
        ns = "{http://schemas.android.com/apk/res/android}"
        sdk = manifest.find("uses-sdk") if manifest is not None else None
        check(manifest is not None and manifest.get("package") == "org.idlelock" and sdk is not None
              and sdk.get(ns + "minSdkVersion") == "24",
              "AndroidManifest.xml: package org.idlelock, minSdkVersion 24")
        same = all(z.read(f"jni/{abi}/{lib}") == open(os.path.join(a.jnilibs, abi, lib), "rb").read()
                   for abi in abis for lib in ("libidlelock.so", "libidlelock_jni.so")
                   if f"jni/{abi}/{lib}" in names)
        check(same, "jni/<abi>/ are the libraries of make android")
        check(z.read("LICENSE") == open("LICENSE", "rb").read()
              and z.read("THIRD_PARTY_NOTICES.md") == open("THIRD_PARTY_NOTICES.md", "rb").read(),
              "LICENSE and THIRD_PARTY_NOTICES.md are the repository's")
        with tempfile.TemporaryDirectory() as tmp:
            jar = os.path.join(tmp, "classes.jar")
            with open(jar, "wb") as f:
                f.write(z.read("classes.jar"))
            with zipfile.ZipFile(jar) as cj:
                classes = [n for n in cj.namelist() if n.endswith(".class")]
                majors = {int.from_bytes(cj.read(n)[6:8], "big") for n in classes}
                check("org/idlelock/IdleLock.class" in classes and majors == {52},
                      f"classes.jar: {len(classes)} classes, all Java 8 (class file major {sorted(majors)})")
                check("META-INF/idlelock/LICENSE" in cj.namelist()
                      and "META-INF/idlelock/THIRD_PARTY_NOTICES.md" in cj.namelist(),
                      "classes.jar carries the licence and notices (META-INF/idlelock/): they reach the APK")
            if a.proguard:
                check_rules(a, z.read("proguard.txt").decode(), jar, tmp)
    pom = ET.parse(a.pom).getroot()
    m = "{http://maven.apache.org/POM/4.0.0}"
    fields = {k: (pom.findtext(m + k) or "") for k in ("groupId", "artifactId", "version", "packaging")}
    lic = pom.findtext(f"{m}licenses/{m}license/{m}name") or ""
    check(fields == {"groupId": "org.idlelock", "artifactId": "idlelock-android", "version": a.version,
                     "packaging": "aar"} and lic == "MIT"
          and os.path.basename(a.aar) == f"idlelock-android-{a.version}.aar"
          and os.path.dirname(a.aar) == os.path.dirname(a.pom)
          and a.aar.endswith(f"org/idlelock/idlelock-android/{a.version}/idlelock-android-{a.version}.aar"),
          f"the .pom: org.idlelock:idlelock-android:{a.version}, packaging aar, licence MIT, "
          "beside the AAR in a Maven repository layout" + ("" if lic == "MIT" else f" (licence {lic!r})"))


def check_rules(a, rules, jar, tmp):
    """Shrink and rename classes.jar as an app's release build would, keeping
    only the public API and the consumer rules; then look for what the glue
    finds by name."""
    natives, registered, callbacks = glue_names(a.glue_source)
    check(len(natives) > 20 and registered and len(callbacks) >= 6,
          f"read from {a.glue_source}: {len(natives)} natives of {', '.join(registered)}, "
          f"{len(callbacks)} methods called back")
    rules_file = os.path.join(tmp, "rules.pro")
    out = os.path.join(tmp, "shrunk.jar")
    with open(rules_file, "w") as f:
        f.write(rules + "\n-keep public class org.idlelock.IdleLock { public *; }\n"
                "-dontoptimize\n-dontnote\n-dontwarn\n-ignorewarnings\n")
    # No library jars: this ProGuard (6.2) reads class files up to Java 13,
    # not the JDK's own; the check needs only the program's classes.
    r = subprocess.run([a.proguard, "-injars", jar, "-outjars", out, "-include", rules_file],
                       capture_output=True, text=True)
    if not check(r.returncode == 0, "ProGuard shrinks and renames classes.jar with the consumer rules"):
        print(r.stdout[-2000:] + r.stderr[-2000:])
        return
    wanted = [(registered[0], n, d) for n, d in natives] + callbacks
    members = {}
    lost = []
    for cls, name, desc in wanted:
        if cls not in members:
            members[cls] = javap_members(out, cls)
        if members[cls] is None or (name, desc) not in members[cls]:
            lost.append(f"{cls.split('/')[-1]}.{name}{desc}")
    check(not lost, f"after shrinking: the {len(wanted)} methods the glue finds by name keep their names"
          + (f"; lost: {' '.join(lost[:8])}{' ...' if len(lost) > 8 else ''}" if lost else ""))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    libs = sub.add_parser("libs")
    libs.add_argument("--abi", required=True)
    libs.add_argument("--api", default="24")
    libs.add_argument("--lib", required=True)
    libs.add_argument("--glue", required=True)
    libs.add_argument("--stubs", required=True)
    libs.add_argument("--objdump", default="llvm-objdump")
    libs.add_argument("--symbols")
    libs.add_argument("--link")
    aar = sub.add_parser("aar")
    for opt in ("--aar", "--pom", "--jnilibs", "--glue-source", "--version", "--abis"):
        aar.add_argument(opt, required=True)
    aar.add_argument("--proguard")
    a = p.parse_args()
    (check_libs if a.what == "libs" else check_aar)(a)
    print(f"{RESULTS[0]} passed, {RESULTS[1]} failed")
    sys.exit(1 if RESULTS[1] else 0)


if __name__ == "__main__":
    main()
