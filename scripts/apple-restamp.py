#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrites the platform and minimum OS of a 64-bit Mach-O object, as
Apple's `vtool -set-build-version PLATFORM MINOS SDK -replace` does
(mk/apple.mk, docs/PLATFORMS.md "Apple"):

  apple-restamp.py IN OUT PLATFORM MINOS

PLATFORM is ios, iossimulator or macos; MINOS is X.Y or X.Y.Z. The object's
one LC_BUILD_VERSION load command gets the new platform and minimum; its
sdk field is kept (clang and swiftc write 0, "n/a", without an SDK), and so
is everything else, byte for byte. An object with no LC_BUILD_VERSION, with
more than one, or with an LC_VERSION_MIN_* command instead (the form of an
older deployment target) is refused: nothing is written.

Why this is sound for the library's Swift object: the toolchain's Embedded
stdlib exists for arm64-apple-ios only, so the Swift core is compiled once
for the device; the simulator and macOS run the same arm64 instruction set
and Darwin ABI, and every Darwin branch in Sources/ is taken for all of
them alike (`#if os(macOS) || os(iOS) || ...`). The linkers (ld64, Zig's)
refuse an object whose platform is not the one they link for; nothing
else in the object names the platform."""
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
LC_BUILD_VERSION = 0x32
LC_VERSION_MIN = (0x24, 0x25, 0x2F, 0x30)  # MACOSX, IPHONEOS, TVOS, WATCHOS
PLATFORMS = {"macos": 1, "ios": 2, "iossimulator": 7}


def encode_version(text):
    """X.Y[.Z] as Mach-O's xxxx.yy.zz nibbles."""
    parts = text.split(".")
    if not 2 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        raise ValueError("version %r is not X.Y or X.Y.Z" % text)
    major, minor, patch = (int(p) for p in parts + ["0"] * (3 - len(parts)))
    if major > 0xFFFF or minor > 0xFF or patch > 0xFF:
        raise ValueError("version %r is out of range" % text)
    return major << 16 | minor << 8 | patch


def restamp(data, platform, minos):
    """The object `data` with its LC_BUILD_VERSION rewritten."""
    if len(data) < 32:
        raise ValueError("not a Mach-O object: %d bytes" % len(data))
    magic, _, _, filetype, ncmds, sizeofcmds = struct.unpack_from("<IiiIII", data, 0)
    if magic != MH_MAGIC_64:
        raise ValueError("not a little-endian 64-bit Mach-O file (magic 0x%08x)" % magic)
    if filetype != 1:
        raise ValueError("not an object file (MH_OBJECT): filetype %d" % filetype)
    out = bytearray(data)
    offset = 32
    found = []
    for _ in range(ncmds):
        if offset + 8 > 32 + sizeofcmds:
            raise ValueError("load commands run past sizeofcmds")
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd in LC_VERSION_MIN:
            raise ValueError("the object has an LC_VERSION_MIN command, not LC_BUILD_VERSION")
        if cmd == LC_BUILD_VERSION:
            found.append(offset)
        if cmdsize < 8:
            raise ValueError("a load command of %d bytes" % cmdsize)
        offset += cmdsize
    if len(found) != 1:
        raise ValueError("%d LC_BUILD_VERSION commands, expected 1" % len(found))
    struct.pack_into("<II", out, found[0] + 8, PLATFORMS[platform], encode_version(minos))
    return bytes(out)


def main(argv):
    if len(argv) != 5 or argv[3] not in PLATFORMS:
        sys.stderr.write("usage: apple-restamp.py IN OUT %s MINOS\n" % "|".join(sorted(PLATFORMS)))
        return 2
    try:
        with open(argv[1], "rb") as f:
            data = restamp(f.read(), argv[3], argv[4])
    except (OSError, ValueError) as e:
        sys.stderr.write("apple-restamp.py: %s: %s\n" % (argv[1], e))
        return 1
    with open(argv[2], "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
