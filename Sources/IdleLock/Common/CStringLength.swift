// SPDX-License-Identifier: MIT
// The length of a NUL-terminated string the host passed in, read no further
// than a limit: strnlen's job, done here so that no layer but the platform
// layer calls the C library (docs/ARCHITECTURE.md).

enum CStringLength {
    /// The bytes of `string` before its NUL, or `limit` when there are at
    /// least that many (nothing at or past `string + limit` is read).
    @inline(__always)
    static func of(_ string: UnsafePointer<CChar>, atMost limit: Int) -> Int {
        var length = 0
        while length < limit && string[length] != 0 { length += 1 }
        return length
    }
}
