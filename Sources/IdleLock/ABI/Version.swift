// SPDX-License-Identifier: MIT
// The library's version; include/idlelock.h's IDLELOCK_VERSION_* macros must
// agree (a test checks both).

enum Version {
    static let string: StaticString = "1.2.2"
    static let number: Int32 = 10202
}
