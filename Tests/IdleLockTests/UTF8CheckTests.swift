// SPDX-License-Identifier: MIT
// UTF-8 validation (Unicode §3.9 Table 3-7).

import Testing
@testable import IdleLock

private func count(_ bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { UTF8Check.scalarCount($0) }
}

@Suite struct UTF8CheckTests {
    @Test func countsScalarsNotBytes() {
        #expect(count(Array("abcd".utf8)) == 4)
        #expect(count(Array("été€".utf8)) == 4)
        #expect(count([0xF0, 0x9F, 0x94, 0x92]) == 1) // U+1F512
        #expect(count([]) == 0)
        #expect(count([0x00]) == 1, "NUL is a scalar like any other")
    }

    @Test func rejectsMalformedSequences() {
        #expect(count([0xC0, 0x80]) == nil, "overlong NUL")
        #expect(count([0xE0, 0x80, 0x80]) == nil, "overlong 3-byte")
        #expect(count([0xF0, 0x80, 0x80, 0x80]) == nil, "overlong 4-byte")
        #expect(count([0xED, 0xA0, 0x80]) == nil, "surrogate U+D800")
        #expect(count([0xF4, 0x90, 0x80, 0x80]) == nil, "above U+10FFFF")
        #expect(count([0xE2, 0x82]) == nil, "truncated")
        #expect(count([0x80]) == nil, "lone continuation")
        #expect(count([0xFF]) == nil)
        #expect(count([0x61, 0xC3]) == nil, "truncated at the end")
        #expect(count([0xC3, 0x28]) == nil, "bad continuation")
    }

    @Test func acceptsTheEdges() {
        #expect(count([0xED, 0x9F, 0xBF]) == 1) // U+D7FF
        #expect(count([0xEE, 0x80, 0x80]) == 1) // U+E000
        #expect(count([0xF4, 0x8F, 0xBF, 0xBF]) == 1) // U+10FFFF
        #expect(count([0xC2, 0x80]) == 1) // U+0080
    }
}
