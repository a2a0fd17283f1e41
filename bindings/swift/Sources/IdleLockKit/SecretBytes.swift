// SPDX-License-Identifier: MIT
// Secrets in memory the binding wipes: a passcode on its way to the
// library, a secret read back, the biometric shortcut's 32 bytes.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Bytes that are wiped before their memory is freed, in the manner of
/// libsodium's `sodium_memzero` and swift-crypto's `SecureBytes`: a
/// passcode, a sealed secret read back, the biometric shortcut's secret.
///
/// The binding keeps every secret it handles in one of these and never in
/// an `Array`, `Data` or `String` (whose storage Swift frees without wiping
/// and may copy at will). The buffer is wiped when the last reference goes
/// away, or earlier with ``wipe()``; its contents never appear in
/// `description` or a debugger's summary.
///
/// What it cannot do: wipe the copies your own code makes (a `String` typed
/// into a `SecureField` is the app's, and so are its copies), or keep the
/// operating system from paging the memory out (iOS does not swap; macOS
/// swaps to encrypted storage).
///
/// Thread: a `SecretBytes` may be passed between threads; do not mutate it
/// from two threads at once.
public final class SecretBytes: @unchecked Sendable, CustomStringConvertible {
    private let bytes: UnsafeMutableRawBufferPointer

    /// Test hook: called with the buffer right after each wipe (the last
    /// one runs before the memory is freed).
    var wipeObserverForTesting: ((UnsafeRawBufferPointer) -> Void)?

    /// `count` zero bytes.
    public init(count: Int) {
        precondition(count >= 0, "SecretBytes(count:): a negative count")
        bytes = .allocate(byteCount: Swift.max(count, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        self.count = count
    }

    /// A copy of `source`'s bytes. The source is the caller's to wipe.
    public convenience init(copying source: UnsafeRawBufferPointer) {
        self.init(count: source.count)
        if let base = source.baseAddress, source.count > 0 {
            bytes.baseAddress!.copyMemory(from: base, byteCount: source.count)
        }
    }

    /// The UTF-8 bytes of `text`, copied straight from the string's own
    /// storage when it is contiguous (no intermediate copy), else one byte
    /// at a time. The string itself is the caller's: Swift cannot wipe it.
    public convenience init(utf8 text: String) {
        let count = text.utf8.count
        self.init(count: count)
        let done: Bool? = text.utf8.withContiguousStorageIfAvailable { source in
            if let base = source.baseAddress, count > 0 {
                bytes.baseAddress!.copyMemory(from: base, byteCount: count)
            }
            return true
        }
        if done == nil {
            var i = 0
            for byte in text.utf8 {
                bytes[i] = byte
                i += 1
            }
        }
    }

    deinit {
        wipe()
        bytes.deallocate()
    }

    /// The number of bytes.
    public let count: Int

    /// Reads the bytes. Do not let the pointer escape `body`.
    public func withUnsafeBytes<T, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
    }

    /// Writes the bytes. Do not let the pointer escape `body`.
    public func withUnsafeMutableBytes<T, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> T) throws(E) -> T {
        try body(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]))
    }

    /// Overwrites every byte with zero now (also done when it is freed).
    public func wipe() {
        Self.zero(bytes)
        wipeObserverForTesting?(UnsafeRawBufferPointer(bytes))
    }

    /// Whether the two hold the same bytes, in time that depends only on
    /// the length.
    public func constantTimeEquals(_ other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<count {
            difference |= bytes[i] ^ other.bytes[i]
        }
        return difference == 0
    }

    public var description: String { "SecretBytes(\(count) bytes)" }

    /// Zeroes `buffer` in a way the optimizer may not remove (memset_s on
    /// Darwin, explicit_bzero on glibc), as sodium_memzero does.
    static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        #if canImport(Darwin)
        _ = memset_s(base, buffer.count, 0, buffer.count)
        #else
        explicit_bzero(base, buffer.count)
        #endif
    }
}
