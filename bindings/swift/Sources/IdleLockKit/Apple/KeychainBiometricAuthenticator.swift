// SPDX-License-Identifier: MIT
// Apple platforms only: the biometric shortcut's secret in the Keychain,
// behind Face ID or Touch ID (idlelock.h, "Sequence on iOS"). Not compiled
// or run on Linux; the rules it feeds live in the tested files.
#if canImport(LocalAuthentication) && canImport(Security)
import Foundation
import LocalAuthentication
import Security

/// A ``BiometricAuthenticator`` over one Keychain item made with
/// `SecAccessControlCreateWithFlags(kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
/// .biometryCurrentSet)`: only a biometric check of the enrolled faces or
/// fingers releases it, it never leaves the device or reaches a backup,
/// and a new enrolment (or turning the device passcode off) deletes it, so
/// the shortcut turns off. On macOS it lives in the data protection keychain
/// (the app needs a keychain access group). Add `NSFaceIDUsageDescription`
/// to the app's Info.plist.
public final class KeychainBiometricAuthenticator: BiometricAuthenticator, @unchecked Sendable {
    /// A Keychain call that failed: its `OSStatus`.
    public struct KeychainError: Error, Sendable {
        public let status: OSStatus
    }

    public let service: String
    public let account: String
    public let accessGroup: String?

    /// The item is `service` / `account` (and `accessGroup`, for an app
    /// group shared with extensions).
    public init(service: String, account: String = "idlelock.biometric", accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    private func item() -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func isAvailable() -> Bool {
        var error: NSError?
        return LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
    }

    public func storeSecret(_ secret: SecretBytes) throws {
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                           .biometryCurrentSet, &error) else {
            error?.release()
            throw KeychainError(status: errSecParam)
        }
        SecItemDelete(item() as CFDictionary)
        let status = secret.withUnsafeBytes { bytes -> OSStatus in
            // The binding's buffer itself, not a copy: Security copies it
            // into the item.
            guard let data = CFDataCreateWithBytesNoCopy(nil, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                         bytes.count, kCFAllocatorNull) else { return errSecAllocate }
            var add = item()
            add[kSecAttrAccessControl as String] = access
            add[kSecValueData as String] = data
            return SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func loadSecret(reason: String?) async throws(BiometricCheckError) -> SecretBytes {
        let context = LAContext()
        context.localizedReason = reason ?? ""
        var query = item()
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseAuthenticationContext as String] = context
        // The query and the context cross to another thread; LAContext may
        // be invalidated from any thread.
        let found = Unchecked(value: query as CFDictionary)
        let prompt = Unchecked(value: context)
        // SecItemCopyMatching blocks while Face ID is up: not on the main
        // thread, not on the task's. Cancelling the task dismisses it.
        let outcome: Result<SecretBytes, BiometricCheckError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    var result: CFTypeRef?
                    let status = SecItemCopyMatching(found.value, &result)
                    continuation.resume(returning: Self.outcome(status, result))
                }
            }
        } onCancel: {
            prompt.value.invalidate()
        }
        return try outcome.get()
    }

    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
    }

    public func deleteSecret() {
        SecItemDelete(item() as CFDictionary)
    }

    /// The released bytes, copied into a wiped buffer; the Keychain's own
    /// copy (this process's memory) is wiped before it is freed.
    static func outcome(_ status: OSStatus, _ result: CFTypeRef?) -> Result<SecretBytes, BiometricCheckError> {
        switch status {
        case errSecSuccess:
            guard let result, CFGetTypeID(result) == CFDataGetTypeID() else { return .failure(.failed) }
            let data = result as! CFData
            let count = CFDataGetLength(data)
            guard let bytes = CFDataGetBytePtr(data) else { return .failure(.failed) }
            let secret = SecretBytes(copying: UnsafeRawBufferPointer(start: bytes, count: count))
            SecretBytes.zero(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(mutating: bytes), count: count))
            return .success(secret)
        case errSecUserCanceled:
            return .failure(.cancelled)
        case errSecItemNotFound:
            // biometryCurrentSet dropped the item (a new enrolment, or the
            // device passcode turned off): the shortcut cannot work any more.
            return .failure(.invalidated)
        case errSecNotAvailable:
            return .failure(.unavailable)
        default:
            return .failure(.failed)
        }
    }
}
#endif
