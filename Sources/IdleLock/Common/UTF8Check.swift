// SPDX-License-Identifier: MIT
// UTF-8 validation over the caller's bytes, without making a String of them
// (a passcode must never be copied into String storage).

enum UTF8Check {
    /// The number of Unicode scalar values in `bytes`, or nil when they are
    /// not well-formed UTF-8 (Unicode 15 §3.9, Table 3-7: no overlong forms,
    /// no surrogates, nothing above U+10FFFF, no truncated sequence).
    static func scalarCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        var scalars = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            var length = 0
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return nil
            }
            if length > n - i { return nil }
            if length > 1 {
                let b1 = bytes[i + 1]
                if b1 < low || b1 > high { return nil }
                var k = 2
                while k < length {
                    let bk = bytes[i + k]
                    if bk < 0x80 || bk > 0xBF { return nil }
                    k += 1
                }
            }
            i += length
            scalars += 1
        }
        return scalars
    }
}
