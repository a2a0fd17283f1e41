// SPDX-License-Identifier: MIT
// The length of a NUL-terminated string the host passed in, read no further
// than a limit: the C library's strnlen, through the table of system calls
// (its word-at-a-time scan costs the hot `secret_get` less than a loop
// over bytes: BENCHMARKS.md's instruction counts).

enum CStringLength {
    /// The bytes of `string` before its NUL, or `limit` when there are at
    /// least that many (nothing at or past `string + limit` is read).
    @inline(__always)
    static func of(_ string: UnsafePointer<CChar>, atMost limit: Int) -> Int {
        SystemCalls.strnlen(string, limit)
    }
}
