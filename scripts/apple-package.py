#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The files around the XCFramework that `make apple` builds (mk/apple.mk):

  apple-package.py plist OUT LIBRARY SLICE...
      OUT (the XCFramework's Info.plist) for one static library LIBRARY
      (e.g. libidlelock.a) in each SLICE folder, named as
      xcodebuild -create-xcframework names them (ios-arm64,
      ios-arm64-simulator, macos-arm64: platform, architectures, variant).
      The keys are every key Xcode reads for a static library with headers:
      LibraryIdentifier, LibraryPath and BinaryPath (Xcode 15 and later
      read the binary from BinaryPath; earlier ones from LibraryPath),
      HeadersPath, SupportedArchitectures, SupportedPlatform and, for the
      simulator, SupportedPlatformVariant; CFBundlePackageType XFWK and
      XCFrameworkFormatVersion 1.0.

  apple-package.py zip ZIP FOLDER
      ZIP with FOLDER (the XCFramework) at its root, as SwiftPM wants a
      binary target's archive, and ZIP.sha256 with its SHA-256 in hex (what
      `swift package compute-checksum ZIP` prints). Reproducible: the entries
      sorted, every time 1980-01-01 00:00, modes 0755 (folders) and 0644
      (files), deflate at level 9, no extra fields: the same files give the
      same bytes (with the same zlib).

  apple-package.py package OUTDIR TEMPLATE URL SHA256-FILE BINDING
      OUTDIR, made afresh: the Swift package an app adds. Package.swift from
      TEMPLATE with @VERSION@, @URL@ (where the zip is published) and
      @CHECKSUM@ (the zip's SHA-256) filled in; the Swift API and the
      privacy manifest from BINDING/Sources (IdleLockKit, IdleLockPrivacy),
      BINDING/README.md, and the repository's LICENSE and
      THIRD_PARTY_NOTICES.md.
"""
import hashlib
import os
import plistlib
import re
import shutil
import sys
import zipfile

EPOCH = (1980, 1, 1, 0, 0, 0)


def slice_keys(identifier):
    """platform, architectures, variant of a slice folder's name."""
    parts = identifier.split("-")
    variant = None
    if parts[-1] in ("simulator", "maccatalyst"):
        variant = parts.pop()
    if len(parts) < 2 or parts[0] not in ("ios", "macos", "tvos", "watchos", "xros"):
        raise ValueError("slice %r is not PLATFORM-ARCH[_ARCH...][-simulator]" % identifier)
    return parts[0], parts[1].split("_"), variant


def plist(out, library, slices):
    libraries = []
    for identifier in slices:
        platform, archs, variant = slice_keys(identifier)
        entry = {
            "BinaryPath": library,
            "HeadersPath": "Headers",
            "LibraryIdentifier": identifier,
            "LibraryPath": library,
            "SupportedArchitectures": archs,
            "SupportedPlatform": platform,
        }
        if variant:
            entry["SupportedPlatformVariant"] = variant
        libraries.append(entry)
    data = {"AvailableLibraries": libraries, "CFBundlePackageType": "XFWK", "XCFrameworkFormatVersion": "1.0"}
    with open(out, "wb") as f:
        plistlib.dump(data, f, sort_keys=True)


def zip_folder(out, folder):
    root = os.path.basename(os.path.normpath(folder))
    entries = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        rel = os.path.relpath(dirpath, os.path.dirname(os.path.normpath(folder)))
        entries.append((rel.replace(os.sep, "/") + "/", None))
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                raise ValueError("%s is not a regular file" % path)
            entries.append(((rel + "/" + name).replace(os.sep, "/"), path))
    entries.sort(key=lambda e: e[0])
    if not entries or entries[0][0] != root + "/":
        raise ValueError("%s: nothing to zip" % folder)
    part = out + ".part"
    with zipfile.ZipFile(part, "w") as z:
        for name, path in entries:
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.create_system = 3  # Unix: the modes below are read
            if path is None:
                info.external_attr = (0o40755 << 16) | 0x10
                z.writestr(info, b"")
            else:
                info.external_attr = 0o100644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(path, "rb") as f:
                    z.writestr(info, f.read(), compresslevel=9)
    with open(part, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    os.replace(part, out)
    with open(out + ".sha256", "w") as f:
        f.write(digest + "\n")


def package(outdir, template, url, sha_file, binding):
    if not url.startswith("https://"):
        raise ValueError("the zip's URL %r is not https:// (SwiftPM downloads binary targets over https only)" % url)
    with open(sha_file) as f:
        checksum = f.read().strip()
    if not re.fullmatch(r"[0-9a-f]{64}", checksum):
        raise ValueError("%s holds no SHA-256" % sha_file)
    header = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include", "idlelock.h")).read()
    version = re.search(r'#define IDLELOCK_VERSION_STRING "([^"]+)"', header).group(1)
    text = open(template).read()
    for key, value in (("@VERSION@", version), ("@URL@", url), ("@CHECKSUM@", checksum)):
        if key not in text:
            raise ValueError("%s has no %s" % (template, key))
        text = text.replace(key, value)
    shutil.rmtree(outdir, ignore_errors=True)
    for target in ("IdleLockKit", "IdleLockPrivacy"):
        shutil.copytree(os.path.join(binding, "Sources", target), os.path.join(outdir, "Sources", target))
    shutil.copy(os.path.join(binding, "README.md"), os.path.join(outdir, "README.md"))
    for name in ("LICENSE", "THIRD_PARTY_NOTICES.md"):
        shutil.copy(name, os.path.join(outdir, name))
    with open(os.path.join(outdir, "Package.swift"), "w") as f:
        f.write(text)


def main(argv):
    try:
        if len(argv) >= 4 and argv[0] == "plist":
            plist(argv[1], argv[2], argv[3:])
        elif len(argv) == 3 and argv[0] == "zip":
            zip_folder(argv[1], argv[2])
        elif len(argv) == 6 and argv[0] == "package":
            package(*argv[1:])
        else:
            sys.stderr.write(__doc__)
            return 2
    except (OSError, ValueError) as e:
        sys.stderr.write("apple-package.py %s: %s\n" % (argv[0], e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
