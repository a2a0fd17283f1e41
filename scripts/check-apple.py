#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the iOS static library `make apple` builds (mk/apple.mk), the way
the linker of an app will meet it, without a Mac:

  - every object of libidlelock.a and of libsodium.a is a Mach-O object for
    arm64 (not arm64e) whose LC_BUILD_VERSION says platform ios, minos MIN;
  - the only global names libidlelock.a defines are the header's
    idlelock_* functions, all of them (the Embedded Swift runtime, the
    stdlib's specializations and the library's internals are local);
  - every name libidlelock.a leaves undefined resolves as ld64 resolves it:
    from libsodium.a's members (each member pulled in brings its own
    undefined names, resolved the same way) or from libSystem, whose exported
    names are those of the libSystem.tbd given (Apple's text stubs, as a
    cross toolchain ships them: macOS's list, the same libSystem sources as
    iOS's);
  - the one object of libidlelock.a, which Zig's linker joined from the
    Swift object and the C support objects, carries all of their code, data,
    relocations and strings (--joined, --parts);
  - the two XCFrameworks have their Info.plist (the library path, ios,
    arm64), libidlelock's headers with the module map, and the licences.

Then it proves two of those checks can fail: the name check on the object
before its internal names were made local, the link check without
libsodium.a.

  check-apple.py --llvm DIR --tbd LIBSYSTEM.tbd --min-ios 18.0 --header H
                 [--joined OBJECT --parts OBJECT...] IDLELOCK.xcframework LIBSODIUM.xcframework

Prints what failed, then "N passed, N failed"; exits 1 on a failure.
"""
import argparse
import os
import plistlib
import re
import subprocess
import sys

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def build_versions(llvm, archive):
    """{member: [(platform, minos, cputype, cpusubtype), ...]} of an archive."""
    out = run(os.path.join(llvm, "llvm-objdump"), "--macho", "--private-headers", archive)
    members = {}
    member = None
    cpu = None
    platform = None
    for line in out.splitlines():
        m = re.match(r"^.*\(([^()]+\.o)\):$", line)
        if m:
            member = m.group(1)
            members[member] = []
            cpu = None
            continue
        m = re.match(r"^\s*(?:MH_MAGIC_64|0x[0-9a-f]+)\s+(\S+)\s+(\S+)\s+\S+\s+OBJECT\b", line)
        if m and member:
            cpu = (m.group(1), m.group(2))
            continue
        m = re.match(r"^\s*platform\s+(\S+)", line)
        if m:
            platform = m.group(1)
            continue
        m = re.match(r"^\s*minos\s+(\S+)", line)
        if m and member:
            members[member].append((platform, m.group(1)) + (cpu or ("?", "?")))
    return members


def symbols(llvm, archive):
    """{member: (defined externals, undefined externals)} of an archive."""
    out = run(os.path.join(llvm, "llvm-nm"), "-m", archive)
    table = {}
    member = None
    if not archive.endswith(".a"):  # one object: nm names no member
        member = os.path.basename(archive)
        table[member] = (set(), set())
    for line in out.splitlines():
        m = re.match(r"^.*\(([^()]+\.o)\):$", line) or re.match(r"^([^ ]+\.o):$", line)
        if m:
            member = m.group(1)
            table[member] = (set(), set())
            continue
        if member is None or not line.strip():
            continue
        name = line.split()[-1]
        if "(undefined)" in line:
            if "non-external" not in line:
                table[member][1].add(name)
        elif " external " in line and "non-external" not in line:
            table[member][0].add(name)
    return table


def tbd_names(path):
    """The names a .tbd exports for an arm64 or arm64e target, in every one
    of its documents (libSystem and the libraries it re-exports)."""
    names = set()
    text = open(path).read()
    section = None  # "exports", "reexports" or something else
    key = None
    targets = []
    buffer = ""
    for raw in text.splitlines():
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
            key = m.group(1)
            buffer = m.group(2)
        if "]" not in buffer:
            continue
        items = [i.strip().strip("'\"") for i in buffer.strip()[1:buffer.rindex("]")].split(",") if i.strip()]
        buffer = ""
        if key == "targets":
            targets = items
        elif section in ("exports", "reexports") and key in ("symbols", "weak-symbols", "thread-local-symbols"):
            if any(t.startswith("arm64") for t in targets):
                names.update(items)
    return names


def resolve(wanted, libraries, system):
    """Resolves `wanted` the way ld64 does against the archives in
    `libraries` ([(name, table)]) and then libSystem: returns
    (unresolved names, {name: where}), pulling in every member that defines
    a wanted name and resolving its own undefined names in turn."""
    where = {}
    unresolved = set()
    pending = list(sorted(wanted))
    defined_by = {}
    for lib, table in libraries:
        for member, (defined, _) in table.items():
            for name in defined:
                defined_by.setdefault(name, (lib, member))
    loaded = set()
    seen = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in defined_by:
            lib, member = defined_by[name]
            where[name] = "%s(%s)" % (lib, member)
            if (lib, member) not in loaded:
                loaded.add((lib, member))
                table = dict(libraries)[lib]
                pending.extend(sorted(table[member][1]))
        elif name in system:
            where[name] = "libSystem"
        else:
            unresolved.add(name)
    return unresolved, where


def sections(llvm, obj):
    """{(segment, section): [size, relocations]} of one object."""
    out = run(os.path.join(llvm, "llvm-objdump"), "--macho", "--private-headers", obj)
    table = {}
    sect = seg = None
    for line in out.splitlines():
        m = re.match(r"^\s*sectname (\S+)", line)
        if m:
            sect, seg = m.group(1), None
            continue
        m = re.match(r"^\s*segname (\S+)", line)
        if m and sect:
            seg = m.group(1)
            table.setdefault((seg, sect), [0, 0])
            continue
        m = re.match(r"^\s*size 0x([0-9a-f]+)", line)
        if m and sect and seg:
            table[(seg, sect)][0] += int(m.group(1), 16)
            continue
        m = re.match(r"^\s*nreloc (\d+)", line)
        if m and sect and seg:
            table[(seg, sect)][1] += int(m.group(1))
            sect = seg = None
    return table


def strings(llvm, obj):
    out = run(os.path.join(llvm, "llvm-objdump"), "--macho", "--section=__TEXT,__cstring", obj)
    found = []
    for line in out.splitlines()[1:]:
        parts = line.split("\t", 1)
        if len(parts) == 2 and re.match(r"^[0-9a-f]+$", parts[0].strip()) and parts[1]:
            found.append(parts[1])
    return sorted(found)


def joined_whole(llvm, joined, parts):
    """The object the linker joined carries all of its parts: the same code
    and data, byte count for byte count, with every relocation, and every
    string (literal pools may be merged; compact unwind entries added)."""
    total = {}
    for part in parts:
        for key, (size, relocs) in sections(llvm, part).items():
            t = total.setdefault(key, [0, 0])
            t[0] += size
            t[1] += relocs
    out = sections(llvm, joined)
    for key, (size, relocs) in sorted(total.items()):
        if key[1] in ("__compact_unwind", "__cstring") or key[1].startswith("__literal"):
            continue
        got = out.get(key, [0, 0])
        check(got == [size, relocs], "%s: %s,%s is %d bytes with %d relocations, its parts %d and %d"
              % (joined, key[0], key[1], got[0], got[1], size, relocs))
    wanted = sorted(sum((strings(llvm, p) for p in parts), []))
    check(strings(llvm, joined) == wanted, "%s does not carry exactly its parts' strings" % joined)


def xcframework(path, library, headers):
    try:
        with open(os.path.join(path, "Info.plist"), "rb") as f:
            plist = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException) as e:
        check(False, "%s/Info.plist unreadable: %s" % (path, e))
        return
    libs = plist.get("AvailableLibraries", [])
    ok = (plist.get("CFBundlePackageType") == "XFWK" and plist.get("XCFrameworkFormatVersion") == "1.0"
          and len(libs) == 1 and libs[0].get("LibraryIdentifier") == "ios-arm64"
          and libs[0].get("LibraryPath") == library and libs[0].get("SupportedPlatform") == "ios"
          and libs[0].get("SupportedArchitectures") == ["arm64"] and "SupportedPlatformVariant" not in libs[0]
          and libs[0].get("HeadersPath") == "Headers")
    check(ok, "%s/Info.plist does not describe ios-arm64/%s with Headers: %r" % (path, library, plist))
    for name in [os.path.join("ios-arm64", library)] + [os.path.join("ios-arm64", "Headers", h) for h in headers]:
        check(os.path.isfile(os.path.join(path, name)), "%s has no %s" % (path, name))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--llvm", required=True)
    parser.add_argument("--tbd", required=True)
    parser.add_argument("--min-ios", required=True)
    parser.add_argument("--header", required=True)
    parser.add_argument("--joined", help="the object before its internal names were made local")
    parser.add_argument("--parts", nargs="*", default=[], help="the objects joined into it")
    parser.add_argument("idlelock")
    parser.add_argument("sodium")
    a = parser.parse_args()
    ours = os.path.join(a.idlelock, "ios-arm64", "libidlelock.a")
    sodium = os.path.join(a.sodium, "ios-arm64", "libsodium.a")

    xcframework(a.idlelock, "libidlelock.a", ["idlelock.h", "module.modulemap"])
    modulemap = os.path.join(a.idlelock, "ios-arm64", "Headers", "module.modulemap")
    if os.path.isfile(modulemap):
        check(re.search(r'module\s+CIdleLock\s*\{[^}]*header\s+"idlelock\.h"', open(modulemap).read()) is not None,
              "%s does not declare module CIdleLock with idlelock.h" % modulemap)
    xcframework(a.sodium, "libsodium.a", ["sodium.h", "sodium/version.h"])
    for folder, files in ((a.idlelock, ["LICENSE", "THIRD_PARTY_NOTICES.md"]), (a.sodium, ["LICENSE"])):
        for name in files:
            check(os.path.isfile(os.path.join(folder, name)), "%s has no %s" % (folder, name))

    # Mach-O arm64 objects for iOS MIN.
    for archive in (ours, sodium):
        members = build_versions(a.llvm, archive)
        check(len(members) > 0, "%s has no objects" % archive)
        for member, versions in sorted(members.items()):
            check(len(versions) == 1 and versions[0][:4] == ("ios", a.min_ios, "ARM64", "ALL"),
                  "%s(%s): LC_BUILD_VERSION/cputype %r, expected one (ios, %s, ARM64, ALL)"
                  % (archive, member, versions, a.min_ios))

    # The global names libidlelock.a defines.
    header = open(a.header).read()
    exports = {"_" + n for n in re.findall(r"\b(idlelock_[a-z_]+)\(", header)}
    table = symbols(a.llvm, ours)
    defined = set().union(*(d for d, _ in table.values()))
    check(len(table) == 1, "libidlelock.a has %d objects, expected the one joined object" % len(table))
    check(defined == exports, "libidlelock.a's global definitions are not exactly the header's %d functions: "
          "extra %s, missing %s" % (len(exports), sorted(defined - exports)[:20], sorted(exports - defined)))
    if a.joined and a.parts:
        joined_whole(a.llvm, a.joined, a.parts)
    if a.joined:
        before = set().union(*(d for d, _ in symbols(a.llvm, a.joined).values()))
        check(before - exports != set(),
              "the name check cannot fail: the object before localization defines no other global")

    # Every undefined name resolves.
    system = tbd_names(a.tbd)
    check(len(system) > 1000 and "_pthread_create" in system and "_mach_continuous_time" in system,
          "%s: libSystem's list has %d names, not pthread_create and mach_continuous_time" % (a.tbd, len(system)))
    undefined = set().union(*(u for _, u in table.values())) - defined
    sodium_table = symbols(a.llvm, sodium)
    missing, where = resolve(undefined, [("libsodium.a", sodium_table)], system)
    check(not missing, "names left unresolved: %s" % sorted(missing))
    from_sodium = sorted(n for n in undefined if where.get(n, "").startswith("libsodium.a"))
    check(len(from_sodium) > 0, "libidlelock.a needs nothing from libsodium.a?")
    missing_without, _ = resolve(undefined, [], system)
    check(missing_without != set(), "the link check cannot fail: without libsodium.a nothing is missing")

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
