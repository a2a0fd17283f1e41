// SPDX-License-Identifier: MIT
// swift-tools-version: 6.0
//
// The test harness, and only that: SwiftPM builds the library's sources
// in normal Swift for `swift test` (Tests/IdleLockTests). It offers no
// product: nothing should depend on this package. The shipped
// libidlelock.so is built from the same sources in Embedded Swift by the
// Makefile (`make lib`), so it carries no Swift runtime; a Swift app
// depends on the package `make apple` writes (the XCFramework as a binary
// target, with IdleLockKit: docs/PLATFORMS.md, "Apple") or on
// bindings/swift (IdleLockKit over the installed library, on Linux).
import PackageDescription

let package = Package(
    name: "idlelock",
    products: [],
    targets: [
        // The hand-written public header, imported so that Exports.swift is
        // checked against it.
        .systemLibrary(name: "CIdleLock", path: "include"),
        // pthread, time and libsodium.
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        // The per-thread last-error buffer (Embedded Swift has no
        // thread-locals).
        .target(
            name: "CIdleLockSupport",
            cSettings: [.headerSearchPath("../../include")]
        ),
        .target(
            name: "IdleLock",
            dependencies: ["CIdleLock", "CSystem", "CIdleLockSupport"]
        ),
        .testTarget(
            name: "IdleLockTests",
            dependencies: ["IdleLock", "CIdleLock", "CSystem"]
        ),
    ]
)
