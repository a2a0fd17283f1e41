// SPDX-License-Identifier: MIT
// Key material in libsodium's guarded memory.

import CSystem

/// A fixed-size buffer from `sodium_malloc` (guard pages, canary, kept out
/// of swap where the system allows), wiped with `sodium_memzero` on demand
/// and freed with `sodium_free` (which wipes it too) in deinit. Secret bytes
/// live only in these buffers, never in `String` or `Array` storage.
final class SecureBytes {
    let count: Int
    let base: UnsafeMutablePointer<UInt8>

    private init(count: Int, base: UnsafeMutablePointer<UInt8>) {
        self.count = count
        self.base = base
    }

    /// A new zeroed buffer (`sodium_malloc`), or `NO_MEMORY`.
    static func allocate(count: Int) throws(IdleLockError) -> SecureBytes {
        guard let raw = sodium_malloc(count) else {
            throw IdleLockError(.noMemory, "out of secure memory (sodium_malloc failed); free memory or lower kdf_memlimit")
        }
        let bytes = SecureBytes(count: count, base: raw.bindMemory(to: UInt8.self, capacity: count))
        bytes.wipe()
        return bytes
    }

    /// `sodium_memzero` over the whole buffer.
    func wipe() {
        sodium_memzero(base, count)
    }

    /// Fills the buffer with random bytes (`randombytes_buf`).
    func randomize() {
        randombytes_buf(base, count)
    }

    /// Copies `count` bytes from `source` at `offset`.
    func copy(from source: UnsafePointer<UInt8>, count n: Int, at offset: Int = 0) {
        precondition(offset >= 0 && n >= 0 && offset + n <= count)
        (base + offset).update(from: source, count: n)
    }

    deinit {
        sodium_free(base)
    }
}
