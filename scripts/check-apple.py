#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks what `make apple` builds (mk/apple.mk) the way Xcode, SwiftPM and
an app's linker will meet it, without a Mac:

  1. Mach-O: every object of each slice's libidlelock.a is an MH_OBJECT for
     arm64 (not arm64e) whose one LC_BUILD_VERSION names the slice's
     platform and minimum (ios 15.0, iossimulator 15.0, macos 12.0), and
     holds nothing that depends on the build's folder (no
     __LLVM,__swift_modhash, no absolute path of the tree or the build);
  2. names: each libidlelock.a defines exactly the header's idlelock_*
     functions as global names (libsodium's sodium_* and crypto_*, the
     Embedded Swift runtime and the library's internals are local);
  3. link: every name each libidlelock.a leaves undefined is exported by
     libSystem for that slice's platform, as Zig's libSystem.tbd (Apple's
     text stubs) lists it: its macos targets for macos-arm64; for the two iOS
     slices its maccatalyst targets (the iOS API surface on the Mac: Zig
     ships no iOS list, so a name present on the Mac and missing on iOS
     would pass);
  4. the Swift object's undefined names equal the committed list
     (scripts/apple-swift-undefined.txt): the floor flag is unsupported, so
     a toolchain that starts emitting back-deployment helpers or a newer call
     fails here;
  5. CPU: the device slice holds no instruction past ARMv8.0 (LSE atomics,
     RCPC, pointer authentication, CRC32, RDM, FP16, dot product, JavaScript
     conversion) and carries the floor's tuning (LLVM's apple-a7 zeroes a
     vector register with movi.16b, later Apple CPUs with movi.2d);
  6. the XCFramework: Info.plist is exactly the keys Xcode reads, the slice
     folders are named as xcodebuild names them, each holds libidlelock.a,
     Headers/idlelock.h (the repository's header) and
     Headers/CIdleLock/module.modulemap (module CIdleLock, no module map at
     the root of Headers), LICENSE and THIRD_PARTY_NOTICES.md at the root, and
     nothing else;
  7. the zip: the XCFramework's files at its root, byte for byte, with fixed
     times and modes; made again from the folder it is the same bytes; its
     SHA-256 is the .sha256 file's;
  8. the Swift package (--package): `swift package dump-package` reads its
     manifest; the binary target is named IdleLock (the folder's name), its
     url is https and ends in IdleLock.xcframework.zip, its checksum is the
     zip's, as `swift package compute-checksum` prints it; the privacy
     target carries PrivacyInfo.xcprivacy;
  9. the privacy manifest parses, declares no tracking and no collected
     data, and every "required reason" API category any slice calls, with
     reasons from Apple's list (fstat: File timestamp, C617.1; the boot
     clock: System boot time, 35F9.1);
 10. make -j: building a slice's libsodium object from a clean tree first
     makes the SDK folder it compiles against (the bug that broke
     `make -j2 apple`);
 11. docs/PLATFORMS.md's Swift example type-checks against each slice's
     Headers (import CIdleLock found as Xcode finds it).

Each check is then run on a deliberately broken input and must fail there
(a check that cannot fail counts as a failure): the device object not
re-stamped, the Swift object with its module hash, the object before its
names were made local, the Swift object without libsodium, a toolchain
emitting one more name, code built for a newer CPU, a plist without the
simulator variant and a module map at the root of Headers, a changed file
in the zip and a wrong checksum, a manifest without File timestamp and a
cut-short one, the Makefile without the SDK ordering, Headers without the
module map. -v shows what each check found on its broken input.

  check-apple.py --llvm DIR --tbd LIBSYSTEM.tbd --header H --ios-min 15.0 --macos-min 12.0
                 --swift-object O --swift-undefined LIST --zip ZIP --sdk SDK --example SWIFT
                 [--package DIR --swift SWIFT-DRIVER] --make MAKE [-v] IDLELOCK.xcframework

Prints what failed, then "N passed, N failed"; exits 1 on a failure.
"""
import argparse
import hashlib
import json
import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

SLICES = ("ios-arm64", "ios-arm64-simulator", "macos-arm64")
LIBRARY = "libidlelock.a"
passed = 0
failed = 0
VERBOSE = False


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


def report(problems, what):
    """A check on the real build: passes with no problem."""
    for p in problems:
        check(False, "%s: %s" % (what, p))
    if not problems:
        check(True, what)


def must_fail(problems, what):
    """A check on a broken input: passes only when it found a problem
    (-v shows what it found)."""
    if VERBOSE:
        for p in problems:
            print("  broken %s -> %s" % (what, p[:300]))
    check(len(problems) > 0, "the %s check cannot fail: it found nothing wrong with %s" % (what.split(":")[0], what))


def run(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


# --------------------------------------------------------------------------
# Mach-O
# --------------------------------------------------------------------------

def macho_headers(llvm, path):
    """{member: {"type", "cpu", "subtype", "versions": [(platform, minos)]}}."""
    out = run(os.path.join(llvm, "llvm-objdump"), "--macho", "--private-headers", path)
    members = {}
    member = os.path.basename(path)
    platform = None
    for line in out.splitlines():
        m = re.match(r"^.*\(([^()]+\.o)\):$", line)
        if m:
            member = m.group(1)
            continue
        m = re.match(r"^\s*(?:MH_MAGIC_64|0x[0-9a-f]+)\s+(\S+)\s+(\S+)\s+\S+\s+(\S+)\b", line)
        if m:
            members[member] = {"cpu": m.group(1), "subtype": m.group(2), "type": m.group(3), "versions": []}
            continue
        m = re.match(r"^\s*platform\s+(\S+)", line)
        if m:
            platform = m.group(1)
            continue
        m = re.match(r"^\s*minos\s+(\S+)", line)
        if m and member in members:
            members[member]["versions"].append((platform, m.group(1)))
    return members


def check_macho(llvm, path, platform, minos):
    members = macho_headers(llvm, path)
    if not members:
        return ["%s holds no Mach-O object" % path]
    problems = []
    for name, h in sorted(members.items()):
        if (h["type"], h["cpu"], h["subtype"]) != ("OBJECT", "ARM64", "ALL"):
            problems.append("%s: %s %s %s, expected an arm64 OBJECT (cpusubtype ALL)" % (name, h["type"], h["cpu"], h["subtype"]))
        if h["versions"] != [(platform, minos)]:
            problems.append("%s: LC_BUILD_VERSION %r, expected one (%s, %s)" % (name, h["versions"], platform, minos))
    return problems


def symbols(llvm, path):
    """(defined external names, undefined names) of an object or archive."""
    out = run(os.path.join(llvm, "llvm-nm"), "-m", path)
    defined, undefined = set(), set()
    for line in out.splitlines():
        if not line.strip() or line.endswith(":"):
            continue
        name = line.split()[-1]
        if "(undefined)" in line:
            undefined.add(name)
        elif " external " in line and "non-external" not in line:
            defined.add(name)
    return defined, undefined - defined


def check_names(defined, exports):
    problems = []
    if defined != exports:
        problems.append("the global definitions are not exactly the header's %d functions: extra %s, missing %s"
                        % (len(exports), sorted(defined - exports)[:12], sorted(exports - defined)))
    return problems


def tbd_names(path, platform):
    """The names a .tbd exports for an arm64 or arm64e target of `platform`
    (macos, maccatalyst), over all of its documents (libSystem and the
    libraries it re-exports)."""
    names = set()
    section = key = None
    targets = []
    buffer = ""
    for raw in open(path).read().splitlines():
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("'") else raw.rstrip()
        top = re.match(r"^([a-z-]+):", line)
        if top:
            section = top.group(1)
        if buffer:
            buffer += " " + line.strip()
        else:
            m = re.match(r"^\s*-?\s*([a-z-]+):\s*(\[.*)$", line)
            if not m:
                continue
            key, buffer = m.group(1), m.group(2)
        if "]" not in buffer:
            continue
        items = [i.strip().strip("'\"") for i in buffer.strip()[1:buffer.rindex("]")].split(",") if i.strip()]
        buffer = ""
        if key == "targets":
            targets = items
        elif section in ("exports", "reexports") and key in ("symbols", "weak-symbols", "thread-local-symbols"):
            if any(re.fullmatch(r"arm64e?(\.[a-z0-9]+)?-" + platform, t) for t in targets):
                names.update(items)
    return names


def check_resolved(undefined, system):
    missing = sorted(undefined - system)
    return ["names libSystem does not export: %s" % missing] if missing else []


def listed_names(path):
    return {line.split("#", 1)[0].strip() for line in open(path) if line.split("#", 1)[0].strip()}


def check_swift_undefined(undefined, listed):
    problems = []
    if undefined - listed:
        problems.append("undefined names the committed list lacks (review their availability at the floor, then add "
                        "them): %s" % sorted(undefined - listed))
    if listed - undefined:
        problems.append("listed names the object no longer needs (remove them): %s" % sorted(listed - undefined))
    return problems


def check_reproducible(llvm, path, folders):
    """Nothing in the object that depends on where it was built: no
    __swift_modhash section (a hash of the compiler's module that changes
    with the build folder), no absolute path of the tree or the build."""
    problems = []
    headers = run(os.path.join(llvm, "llvm-objdump"), "--section-headers", path)
    if "__swift_modhash" in headers:
        problems.append("a __swift_modhash section (it differs from one build folder to another)")
    data = open(path, "rb").read()
    for folder in folders:
        if os.path.abspath(folder).encode() in data:
            problems.append("the build's path %s" % os.path.abspath(folder))
    return problems


# ARMv8.1 and later: what no iOS 15 device before the A11 runs (the floor is
# the A9, ARMv8.0).
BEYOND_V80 = re.compile(r"\t(cas[a-z]*|ldadd[a-z]*|ldclr[a-z]*|ldeor[a-z]*|ldset[a-z]*|ld[su]m(ax|in)[a-z]*|swp[a-z]*|"
                        r"st(add|clr|eor|set|[su]m(ax|in))[a-z]*|ldapr[a-z]*|ldapur[a-z]*|stlur[a-z]*|crc32[a-z]*|"
                        r"sqrdml[as]h|[su]dot|fjcvtzs|fcmla|fcadd|pac[a-z0-9]*|aut[a-z0-9]*|xpac[a-z]*|"
                        r"reta[ab]|bra[ab]z?|blra[ab]z?|eretaa|eretab)(\t|$)", re.M)
NEWER_ZEROING = re.compile(r"\tmovi\.2d\tv[0-9]+, #0+$", re.M)
FLOOR_ZEROING = re.compile(r"\tmovi\.16b\tv[0-9]+, #0x0$", re.M)


def check_cpu(llvm, path):
    out = run(os.path.join(llvm, "llvm-objdump"), "-d", "--no-show-raw-insn", path)
    problems = []
    beyond = sorted({m.group(1) for m in BEYOND_V80.finditer(out)})
    if beyond:
        problems.append("instructions past ARMv8.0: %s" % beyond)
    newer = len(NEWER_ZEROING.findall(out))
    floor = len(FLOOR_ZEROING.findall(out))
    if newer or not floor:
        problems.append("tuned for a CPU newer than the floor's A7: %d vector zeroings by movi.2d, %d by movi.16b"
                        % (newer, floor))
    return problems


# --------------------------------------------------------------------------
# The XCFramework, the zip, the package, the privacy manifest
# --------------------------------------------------------------------------

def expected_plist():
    libraries = []
    for s in SLICES:
        parts = s.split("-")
        entry = {"BinaryPath": LIBRARY, "HeadersPath": "Headers", "LibraryIdentifier": s, "LibraryPath": LIBRARY,
                 "SupportedArchitectures": ["arm64"], "SupportedPlatform": parts[0]}
        if parts[-1] == "simulator":
            entry["SupportedPlatformVariant"] = "simulator"
        libraries.append(entry)
    return {"AvailableLibraries": libraries, "CFBundlePackageType": "XFWK", "XCFrameworkFormatVersion": "1.0"}


def xcframework_files(xcf):
    """Every file under xcf, relative, sorted."""
    found = []
    for dirpath, _, filenames in os.walk(xcf):
        for name in filenames:
            found.append(os.path.relpath(os.path.join(dirpath, name), xcf).replace(os.sep, "/"))
    return sorted(found)


def check_xcframework(xcf, header):
    problems = []
    if os.path.basename(os.path.normpath(xcf)) != "IdleLock.xcframework":
        problems.append("the folder is %s, not IdleLock.xcframework (the binary target's name)" % xcf)
    try:
        with open(os.path.join(xcf, "Info.plist"), "rb") as f:
            plist = plistlib.load(f)
    except Exception as e:  # plistlib raises what its XML parser raised
        return problems + ["Info.plist unreadable: %s" % e]
    if plist != expected_plist():
        problems.append("Info.plist is %r, expected %r" % (plist, expected_plist()))
    wanted = ["Info.plist", "LICENSE", "THIRD_PARTY_NOTICES.md"]
    for s in SLICES:
        wanted += ["%s/%s" % (s, LIBRARY), "%s/Headers/idlelock.h" % s, "%s/Headers/CIdleLock/module.modulemap" % s]
    found = xcframework_files(xcf)
    if found != sorted(wanted):
        problems.append("files: extra %s, missing %s" % (sorted(set(found) - set(wanted)), sorted(set(wanted) - set(found))))
    for s in SLICES:
        h = os.path.join(xcf, s, "Headers", "idlelock.h")
        if os.path.isfile(h) and open(h, "rb").read() != open(header, "rb").read():
            problems.append("%s/Headers/idlelock.h is not the repository's header" % s)
        m = os.path.join(xcf, s, "Headers", "CIdleLock", "module.modulemap")
        if os.path.isfile(m) and not re.search(r'module\s+CIdleLock\s*\{[^}]*header\s+"\.\./idlelock\.h"', open(m).read()):
            problems.append("%s/Headers/CIdleLock/module.modulemap does not declare module CIdleLock with ../idlelock.h" % s)
    return problems


def check_zip(zip_path, xcf, packager):
    problems = []
    try:
        z = zipfile.ZipFile(zip_path)
    except (OSError, zipfile.BadZipFile) as e:
        return ["%s unreadable: %s" % (zip_path, e)]
    with z:
        root = os.path.basename(os.path.normpath(xcf)) + "/"
        files = {i.filename[len(root):]: i for i in z.infolist() if not i.is_dir()}
        if not all(i.filename.startswith(root) for i in z.infolist()):
            problems.append("entries outside %s" % root)
        if sorted(files) != xcframework_files(xcf):
            problems.append("its files are not the folder's: %s" % sorted(set(files) ^ set(xcframework_files(xcf))))
        for name, info in sorted(files.items()):
            path = os.path.join(xcf, name)
            if os.path.isfile(path) and z.read(info) != open(path, "rb").read():
                problems.append("%s differs from the folder's" % name)
            if info.date_time != (1980, 1, 1, 0, 0, 0) or info.external_attr >> 16 != 0o100644:
                problems.append("%s: time %r, mode %o (not fixed)" % (name, info.date_time, info.external_attr >> 16))
    digest = hashlib.sha256(open(zip_path, "rb").read()).hexdigest()
    sha_file = zip_path + ".sha256"
    if not os.path.isfile(sha_file) or open(sha_file).read().strip() != digest:
        problems.append("%s does not hold the zip's SHA-256 %s" % (sha_file, digest))
    with tempfile.TemporaryDirectory() as tmp:
        again = os.path.join(tmp, "again.zip")
        subprocess.run([sys.executable, packager, "zip", again, xcf], check=True)
        if open(again, "rb").read() != open(zip_path, "rb").read():
            problems.append("made again from the folder, the zip has other bytes (not reproducible)")
    return problems


def dump_package(swift, package):
    out = subprocess.run([swift, "package", "--package-path", package, "dump-package"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, "swift package dump-package failed: %s" % out.stderr.strip()[-400:]
    return json.loads(out.stdout), None


def check_package(swift, package, zip_path):
    manifest, error = dump_package(swift, package)
    if error:
        return [error]
    problems = []
    targets = {t["name"]: t for t in manifest.get("targets", [])}
    binary = [t for t in targets.values() if t.get("type") == "binary"]
    if [t["name"] for t in binary] != ["IdleLock"]:
        problems.append("binary targets %s, expected one named IdleLock (the XCFramework's folder name)"
                        % [t["name"] for t in binary])
    digest = hashlib.sha256(open(zip_path, "rb").read()).hexdigest()
    computed = subprocess.run([swift, "package", "compute-checksum", zip_path], capture_output=True, text=True)
    if computed.returncode != 0 or computed.stdout.strip() != digest:
        problems.append("swift package compute-checksum printed %r, the zip's SHA-256 is %s"
                        % (computed.stdout.strip() or computed.stderr.strip(), digest))
    for t in binary:
        url = t.get("url") or ""
        if not (url.startswith("https://") and url.endswith("/IdleLock.xcframework.zip")):
            problems.append("the binary target's url %r is not https://.../IdleLock.xcframework.zip" % url)
        if t.get("checksum") != digest:
            problems.append("the binary target's checksum %s is not the zip's %s" % (t.get("checksum"), digest))
    privacy = targets.get("IdleLockPrivacy", {})
    resources = [os.path.basename(r.get("path", "")) for r in privacy.get("resources", [])]
    if resources != ["PrivacyInfo.xcprivacy"]:
        problems.append("target IdleLockPrivacy carries %s, not PrivacyInfo.xcprivacy" % resources)
    elif not os.path.isfile(os.path.join(package, "Sources", "IdleLockPrivacy", "PrivacyInfo.xcprivacy")):
        problems.append("Sources/IdleLockPrivacy/PrivacyInfo.xcprivacy is missing")
    kit = targets.get("IdleLockKit", {})
    deps = json.dumps(kit.get("dependencies", []))
    if '"IdleLock"' not in deps or '"IdleLockPrivacy"' not in deps:
        problems.append("target IdleLockKit does not depend on IdleLock and IdleLockPrivacy: %s" % deps)
    return problems


# Apple's required reason API list ("Describing use of required reason
# API"): the C functions of each category an object could call, and the
# reasons a library that keeps its data on the device may give.
REASON_APIS = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": {
        "names": ["_stat", "_fstat", "_fstatat", "_lstat", "_getattrlist", "_fgetattrlist", "_getattrlistat",
                  "_getattrlistbulk"],
        "reasons": {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"}},
    "NSPrivacyAccessedAPICategorySystemBootTime": {
        "names": ["_mach_absolute_time", "_mach_continuous_time"],
        "reasons": {"35F9.1", "8FFB.1", "3D61.1"}},
    "NSPrivacyAccessedAPICategoryDiskSpace": {
        "names": ["_statfs", "_statvfs", "_fstatfs", "_fstatvfs", "_getattrlist", "_fgetattrlist", "_getattrlistat"],
        "reasons": {"85F4.1", "E174.1", "7D9E.1", "B728.1"}},
}


def check_privacy(path, undefined):
    try:
        with open(path, "rb") as f:
            manifest = plistlib.load(f)
    except Exception as e:  # plistlib raises what its XML parser raised
        return ["%s does not parse: %s" % (path, e)]
    problems = []
    for key, want in (("NSPrivacyTracking", False), ("NSPrivacyTrackingDomains", []), ("NSPrivacyCollectedDataTypes", [])):
        if manifest.get(key, None) != want:
            problems.append("%s is %r, expected %r" % (key, manifest.get(key), want))
    declared = {}
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        category = entry.get("NSPrivacyAccessedAPIType")
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons", [])
        declared[category] = reasons
        known = REASON_APIS.get(category)
        if known is None:
            problems.append("category %r is not one this check knows" % category)
        elif not reasons or not set(reasons) <= known["reasons"]:
            problems.append("%s: reasons %r are not from Apple's list %s" % (category, reasons, sorted(known["reasons"])))
    for category, known in sorted(REASON_APIS.items()):
        calls = sorted(set(known["names"]) & undefined)
        if calls and category not in declared:
            problems.append("the library calls %s but the manifest does not declare %s" % (calls, category))
    return problems


# --------------------------------------------------------------------------
# make -j, and the docs' example
# --------------------------------------------------------------------------

def check_make_order(make, root):
    """`make -n` of one libsodium object in an empty build folder: the SDK
    folder's rule (the venv that brings Zig's headers) must come first."""
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "libsodium", "ios-arm64", "obj", "sodium", "core.o")
        out = subprocess.run(make.split() + ["-n", "-C", root, "BUILD=" + tmp, target],
                             capture_output=True, text=True)
    if out.returncode != 0:
        return ["make -n %s failed: %s" % (target, out.stderr.strip()[-300:])]
    lines = out.stdout.splitlines()
    venv = [i for i, l in enumerate(lines) if " -m venv " in l]
    cc = [i for i, l in enumerate(lines) if "sodium/core.c" in l]
    if not cc:
        return ["make -n printed no compile of sodium/core.c"]
    if not venv or venv[0] > cc[0]:
        return ["a libsodium object for Apple does not wait for the SDK folder (build/apple/sdk): make -j compiles it "
                "before its headers exist"]
    return []


def check_typecheck(command, headers):
    out = subprocess.run(command + [headers], capture_output=True, text=True)
    if out.returncode != 0:
        return ["the docs' Swift example does not type-check against %s: %s" % (headers, out.stderr.strip()[-600:])]
    return []


# --------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser()
    for flag in ("--llvm", "--tbd", "--header", "--ios-min", "--macos-min", "--swift-object", "--swift-undefined",
                 "--zip", "--sdk", "--example", "--make"):
        p.add_argument(flag, required=True)
    p.add_argument("--package")
    p.add_argument("--swift")
    p.add_argument("-v", action="store_true", help="show what each check found on its broken input")
    p.add_argument("xcframework")
    a = p.parse_args()
    global VERBOSE
    VERBOSE = a.v
    xcf = os.path.normpath(a.xcframework)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    packager = os.path.join(here, "apple-package.py")
    build_apple = os.path.dirname(xcf)
    minos = {"ios-arm64": ("ios", a.ios_min), "ios-arm64-simulator": ("iossimulator", a.ios_min),
             "macos-arm64": ("macos", a.macos_min)}
    stubs = {"ios-arm64": "maccatalyst", "ios-arm64-simulator": "maccatalyst", "macos-arm64": "macos"}
    exports = {"_" + n for n in re.findall(r"\b(idlelock_[a-z_]+)\(", open(a.header).read())}
    # 40 at 1.2: fewer means the header was not read right.
    check(len(exports) >= 40, "read %d idlelock_* functions from %s, expected 40 or more" % (len(exports), a.header))
    swiftc = os.path.join(a.llvm, "swiftc")
    typecheck = [swiftc, "-enable-experimental-feature", "Embedded", "-parse-as-library", "-warnings-as-errors",
                 "-target", "arm64-apple-ios" + a.ios_min, "-Xfrontend", "-disable-target-os-checking",
                 "-Xcc", "-isysroot", "-Xcc", os.path.abspath(a.sdk), "-typecheck", a.example, "-I"]

    all_undefined = set()
    with tempfile.TemporaryDirectory() as tmp:
        for s in SLICES:
            lib = os.path.join(xcf, s, LIBRARY)
            if not os.path.isfile(lib):
                check(False, "%s is missing" % lib)
                continue
            platform, version = minos[s]
            report(check_macho(a.llvm, lib, platform, version), "%s: Mach-O %s %s arm64" % (s, platform, version))
            defined, undefined = symbols(a.llvm, lib)
            all_undefined |= undefined
            report(check_names(defined, exports), "%s: the header's %d idlelock_* names alone are global" % (s, len(exports)))
            report(check_reproducible(a.llvm, lib, [root, build_apple]), "%s: nothing that depends on the build folder" % s)
            system = tbd_names(a.tbd, stubs[s])
            check(len(system) > 1000 and "_pthread_create" in system and "_mach_continuous_time" in system,
                  "%s: libSystem's %s list has %d names, not pthread_create and mach_continuous_time"
                  % (a.tbd, stubs[s], len(system)))
            report(check_resolved(undefined, system), "%s: every undefined name in libSystem (%s)" % (s, stubs[s]))
            report(check_typecheck(typecheck, os.path.join(xcf, s, "Headers")),
                   "%s: the docs' Swift example type-checks against Headers" % s)

        # 1. the device object, not re-stamped, as the simulator's
        must_fail(check_macho(a.llvm, a.swift_object, "iossimulator", a.ios_min),
                  "Mach-O: the device's Swift object in the simulator slice")
        # ... the Swift object as the compiler wrote it
        must_fail(check_reproducible(a.llvm, os.path.join(build_apple, "obj", "IdleLock-modhash.o"), [root, build_apple]),
                  "reproducible: the Swift object with its __swift_modhash")
        # 2. the object before its names were made local
        joined = os.path.join(build_apple, "ios-arm64", "joined.o")
        must_fail(check_names(symbols(a.llvm, joined)[0], exports), "names: %s (before llvm-objcopy)" % joined)
        # 3. the Swift object alone: libsodium and the support files not joined
        swift_undefined = symbols(a.llvm, a.swift_object)[1]
        must_fail(check_resolved(swift_undefined, tbd_names(a.tbd, "maccatalyst")),
                  "link: the Swift object without libsodium")
        # 4. the list, then a toolchain that emits one more name
        listed = listed_names(a.swift_undefined)
        report(check_swift_undefined(swift_undefined, listed), "the Swift object's undefined names are %s"
               % a.swift_undefined)
        must_fail(check_swift_undefined(swift_undefined | {"_swift_task_backDeploy_helper"}, listed),
                  "Swift undefined names: an object with one more name")
        # 5. CPU: the device slice; code for newer CPUs
        report(check_cpu(a.llvm, os.path.join(xcf, "ios-arm64", LIBRARY)), "ios-arm64: ARMv8.0, tuned for the A7")
        source = os.path.join(tmp, "cpu.c")
        with open(source, "w") as f:
            f.write("#include <stdatomic.h>\nvoid zero(double *p) { for (int i = 0; i < 64; i++) p[i] = 0; }\n"
                    "long add(_Atomic long *a) { return atomic_fetch_add(a, 1); }\n")
        for flags in (["-target", "arm64-apple-ios18.0"], ["-target", "arm64-apple-ios15.0", "-mcpu=apple-a12"]):
            obj = os.path.join(tmp, "cpu.o")
            run(os.path.join(a.llvm, "clang"), *flags, "-O2", "-ffreestanding", "-c", source, "-o", obj)
            must_fail(check_cpu(a.llvm, obj), "CPU: code compiled with %s" % " ".join(flags))
        # 6. the XCFramework; without the simulator variant; module map at the root
        report(check_xcframework(xcf, a.header), "IdleLock.xcframework: Info.plist and folders")
        broken = os.path.join(tmp, "plist", "IdleLock.xcframework")
        shutil.copytree(xcf, broken)
        plist = expected_plist()
        del plist["AvailableLibraries"][1]["SupportedPlatformVariant"]
        with open(os.path.join(broken, "Info.plist"), "wb") as f:
            plistlib.dump(plist, f)
        must_fail(check_xcframework(broken, a.header), "XCFramework: a plist without SupportedPlatformVariant")
        broken = os.path.join(tmp, "map", "IdleLock.xcframework")
        shutil.copytree(xcf, broken)
        headers = os.path.join(broken, "ios-arm64", "Headers")
        os.rename(os.path.join(headers, "CIdleLock", "module.modulemap"), os.path.join(headers, "module.modulemap"))
        os.rmdir(os.path.join(headers, "CIdleLock"))
        must_fail(check_xcframework(broken, a.header), "XCFramework: the module map at the root of Headers")
        # 11. the example, Headers without the module map
        os.remove(os.path.join(headers, "module.modulemap"))
        must_fail(check_typecheck(typecheck, headers), "type-check: Headers without CIdleLock/module.modulemap")
        # 7. the zip; a changed file in it
        report(check_zip(a.zip, xcf, packager), "%s: the folder, reproducible, its SHA-256" % a.zip)
        changed = os.path.join(tmp, "changed", "IdleLock.xcframework")
        shutil.copytree(xcf, changed)
        with open(os.path.join(changed, "LICENSE"), "a") as f:
            f.write("\n")
        bad_zip = os.path.join(tmp, "changed.zip")
        subprocess.run([sys.executable, packager, "zip", bad_zip, changed], check=True)
        shutil.copy(a.zip + ".sha256", bad_zip + ".sha256")
        must_fail(check_zip(bad_zip, xcf, packager), "zip: one changed file")
        # 8. the package; with another checksum
        if a.package:
            report(check_package(a.swift, a.package, a.zip), "the Swift package pins the zip")
            other = os.path.join(tmp, "package")
            shutil.copytree(a.package, other)
            text = open(os.path.join(other, "Package.swift")).read()
            digest = hashlib.sha256(open(a.zip, "rb").read()).hexdigest()
            with open(os.path.join(other, "Package.swift"), "w") as f:
                f.write(text.replace(digest, digest[::-1]))
            must_fail(check_package(a.swift, other, a.zip), "package: a Package.swift with another checksum")
            # 9. the privacy manifest; without File timestamp; cut short
            manifest = os.path.join(a.package, "Sources", "IdleLockPrivacy", "PrivacyInfo.xcprivacy")
            report(check_privacy(manifest, all_undefined), "the privacy manifest")
            data = plistlib.load(open(manifest, "rb"))
            data["NSPrivacyAccessedAPITypes"] = [e for e in data["NSPrivacyAccessedAPITypes"]
                                                 if not e["NSPrivacyAccessedAPIType"].endswith("FileTimestamp")]
            without = os.path.join(tmp, "without.xcprivacy")
            with open(without, "wb") as f:
                plistlib.dump(data, f)
            must_fail(check_privacy(without, all_undefined), "privacy: a manifest without File timestamp")
            cut = os.path.join(tmp, "cut.xcprivacy")
            with open(cut, "wb") as f:
                f.write(open(manifest, "rb").read()[:-40])
            must_fail(check_privacy(cut, all_undefined), "privacy: a manifest cut short")
        # 10. make -j; the Makefile without the SDK ordering
        report(check_make_order(a.make, root), "make -j: libsodium's Apple objects wait for the SDK folder")
        tree = os.path.join(tmp, "tree")
        os.mkdir(tree)
        for name in os.listdir(root):
            if name not in ("mk", "build", ".build", ".git"):
                os.symlink(os.path.join(root, name), os.path.join(tree, name))
        shutil.copytree(os.path.join(root, "mk"), os.path.join(tree, "mk"))
        mk = os.path.join(tree, "mk", "apple.mk")
        text = open(mk).read()
        without_order = re.sub(r"^\$\$\(call libsodium_objects.*\| \$\$\(APPLE_ZIG_DIR\)\n", "", text, flags=re.M)
        check(without_order != text, "the make -j check found no SDK ordering line in mk/apple.mk to take out")
        with open(mk, "w") as f:
            f.write(without_order)
        must_fail(check_make_order(a.make, tree), "make -j: mk/apple.mk without the SDK ordering")

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
