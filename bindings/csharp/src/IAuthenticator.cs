// SPDX-License-Identifier: MIT
namespace LibIdleLock
{
    /// <summary>
    /// The host's keystore behind a biometric check (idlelock_authenticator): Android's
    /// Keystore with a BiometricPrompt, iOS's Keychain with biometryCurrentSet, Windows
    /// Hello. The library hands the host a random 32-byte secret to keep; the secret given
    /// back is key material that must open a wrap of the session key.
    ///
    /// Threads: each method runs on the thread of the IdleLock call that needs it
    /// (IsAvailable: creation, Foreground, EnableBiometrics; StoreSecret: EnableBiometrics;
    /// LoadSecret: UnlockWithBiometrics; DeleteSecret: DisableBiometrics, SetPasscode,
    /// Disable) with no library lock held: it may block while a person looks at a prompt.
    /// So call UnlockWithBiometrics from a worker thread (UnlockWithBiometricsAsync does),
    /// never from the thread that must answer the prompt (Unity's main thread). A method
    /// may call into the lock.
    ///
    /// Errors: throw AuthenticationException for a check that did not release the secret.
    /// Any other exception is treated as a failed check and rethrown, in a
    /// CallbackException, from the call once the library returned.
    /// </summary>
    public interface IAuthenticator
    {
        /// <summary>True when a check can run now (hardware present, enrolled). Keep it quick.</summary>
        bool IsAvailable();

        /// <summary>Keep these 32 bytes behind a biometric check, replacing any earlier item.
        /// The binding clears the array when this returns: copy what you keep.</summary>
        void StoreSecret(byte[] secret);

        /// <summary>Run the check showing reason (the options' UnlockReason, or null) and return
        /// the stored 32 bytes. The binding copies them to the library and clears your array.</summary>
        byte[] LoadSecret(string reason);

        /// <summary>Delete the item (the shortcut was turned off). A failure is ignored.</summary>
        void DeleteSecret();
    }
}
