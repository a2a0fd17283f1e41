// SPDX-License-Identifier: MIT
// swift-tools-version: 6.0
//
// SwiftPM builds the library in normal Swift for `swift test`. The shipped
// libidlelock.so is built from the same sources in Embedded Swift by the
// Makefile (`make lib`), so it carries no Swift runtime.
import PackageDescription

let package = Package(
    name: "idlelock",
    products: [
        .library(name: "IdleLock", targets: ["IdleLock"]),
    ],
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
