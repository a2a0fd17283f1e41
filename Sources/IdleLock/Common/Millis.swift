// SPDX-License-Identifier: MIT
// Millisecond arithmetic that saturates instead of wrapping (header (conventions; clock steps)).

enum Millis {
    /// `IDLELOCK_NEVER`: no deadline.
    static let never = Int64.max

    /// `later - earlier`, clamped to the Int64 range.
    @inline(__always)
    static func elapsed(from earlier: Int64, to later: Int64) -> Int64 {
        let (d, overflow) = later.subtractingReportingOverflow(earlier)
        if !overflow { return d }
        return later > earlier ? Int64.max : Int64.min
    }

    /// `a + b`, clamped to the Int64 range.
    @inline(__always)
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if !overflow { return sum }
        return b > 0 ? Int64.max : Int64.min
    }

    /// True when a timeout of `timeout` ms has passed after `elapsed` ms:
    /// elapsed >= timeout, and a `never` timeout never passes.
    @inline(__always)
    static func hasPassed(_ elapsed: Int64, _ timeout: Int64) -> Bool {
        timeout != never && elapsed >= timeout
    }
}
