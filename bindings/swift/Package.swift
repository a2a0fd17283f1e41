// swift-tools-version:6.0
// SPDX-License-Identifier: MIT
//
// IdleLockKit, the Swift API over libidlelock's C interface, as this
// repository builds and tests it on Linux (mk/swift.mk: `make
// test-swift-api`), against the library `make lib` builds. An app does
// not use this manifest: it adds the package `make apple` makes
// (build/apple/package, from dist/Package.swift.in), whose IdleLock binary
// target (IdleLock.xcframework) provides the same C module, CIdleLock.
import PackageDescription

let package = Package(
    name: "IdleLockKit",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "IdleLockKit", targets: ["IdleLockKit"]),
    ],
    targets: [
        .systemLibrary(name: "CIdleLock", path: "Sources/CIdleLock"),
        .target(name: "IdleLockPrivacy", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "IdleLockKit", dependencies: ["CIdleLock", "IdleLockPrivacy"]),
        // libsodium for the tests' replay of the shared traces (a store's
        // integrity check), not for the library.
        .systemLibrary(name: "CSodiumForTests", path: "Tests/CSodiumForTests"),
        .testTarget(name: "IdleLockKitTests", dependencies: ["IdleLockKit", "CIdleLock", "CSodiumForTests"]),
    ]
)
