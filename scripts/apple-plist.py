#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the Info.plist of an XCFramework with one library, for iOS on
arm64 (mk/apple.mk): apple-plist.py XCFRAMEWORK LIBRARY-FILE-NAME.

The keys are those xcodebuild -create-xcframework writes for a static
library with headers: the library is ios-arm64/LIBRARY, its headers
ios-arm64/Headers."""
import plistlib
import sys

if len(sys.argv) != 3:
    sys.exit("usage: apple-plist.py XCFRAMEWORK LIBRARY")
plist = {
    "AvailableLibraries": [{
        "HeadersPath": "Headers",
        "LibraryIdentifier": "ios-arm64",
        "LibraryPath": sys.argv[2],
        "SupportedArchitectures": ["arm64"],
        "SupportedPlatform": "ios",
    }],
    "CFBundlePackageType": "XFWK",
    "XCFrameworkFormatVersion": "1.0",
}
sys.stdout.write(plistlib.dumps(plist, sort_keys=True).decode())
