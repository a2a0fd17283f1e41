import android.security.keystore.KeyPermanentlyInvalidatedException
import androidx.biometric.BiometricPrompt
import androidx.fragment.app.FragmentActivity
import java.security.GeneralSecurityException
import java.util.concurrent.Executor
import javax.crypto.Cipher
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec
import org.idlelock.AuthResult
import org.idlelock.IdleLock
import org.idlelock.IdleLockException
import org.idlelock.Snapshot

/** The two-phase pair on Android: no thread waits; BiometricPrompt's callbacks finish the request. */
abstract class BiometricPair(
    private val lock: IdleLock,
    private val activity: FragmentActivity,
    private val mainExecutor: Executor                     // ContextCompat.getMainExecutor(activity)
) {
    abstract fun keystoreKey(): SecretKey                  // AES, setUserAuthenticationRequired(true)
    abstract fun save(blob: ByteArray, iv: ByteArray)      // ciphertext and IV: not secret
    abstract fun savedBlob(): ByteArray
    abstract fun savedIv(): ByteArray
    abstract fun deleteSaved()
    abstract fun render(s: Snapshot, why: Throwable?)

    private fun prompt(crypto: BiometricPrompt.CryptoObject, callback: BiometricPrompt.AuthenticationCallback) {
        BiometricPrompt(activity, mainExecutor, callback).authenticate(
            BiometricPrompt.PromptInfo.Builder().setTitle("Unlock").setNegativeButtonText("Use passcode").build(), crypto)
    }

    /** Turn the shortcut on (an unlocked session): encrypt the request's secret behind the check. */
    fun enable() {
        val enable = lock.beginBiometricEnable()
        val enc = Cipher.getInstance("AES/GCM/NoPadding")
        enc.init(Cipher.ENCRYPT_MODE, keystoreKey())
        prompt(BiometricPrompt.CryptoObject(enc), object : BiometricPrompt.AuthenticationCallback() {
            override fun onAuthenticationSucceeded(result: BiometricPrompt.AuthenticationResult) {
                try {
                    val c = result.cryptoObject.cipher
                    save(c.doFinal(enable.secret()), c.iv)
                } catch (e: GeneralSecurityException) {
                    enable.dismiss(AuthResult.FAILED)
                    return
                }
                try {
                    enable.finish(AuthResult.OK)           // on; wipes enable.secret()
                } catch (e: IdleLockException) {
                    deleteSaved()                          // a lock after the begin won
                }
            }

            override fun onAuthenticationError(errorCode: Int, errString: CharSequence) {
                enable.dismiss(outcomeOf(errorCode))
            }
        })
    }

    /** Unlock: decrypt the saved secret behind the check. */
    fun unlock() {
        val req = lock.beginBiometricUnlock()              // LockUnavailableException: show the passcode only
        val dec = Cipher.getInstance("AES/GCM/NoPadding")
        try {
            dec.init(Cipher.DECRYPT_MODE, keystoreKey(), GCMParameterSpec(128, savedIv()))
        } catch (e: KeyPermanentlyInvalidatedException) { // the enrolment changed
            req.dismiss(AuthResult.UNAVAILABLE)
            lock.disableBiometrics()
            deleteSaved()
            return
        }
        prompt(BiometricPrompt.CryptoObject(dec), object : BiometricPrompt.AuthenticationCallback() {
            override fun onAuthenticationSucceeded(result: BiometricPrompt.AuthenticationResult) {
                val secret = try {
                    result.cryptoObject.cipher.doFinal(savedBlob())
                } catch (e: GeneralSecurityException) {
                    req.dismiss(AuthResult.FAILED)
                    return
                }
                try {
                    req.finish(AuthResult.OK, secret)      // wipes secret
                } catch (e: IdleLockException) {
                    // req.future() reports it
                }
            }

            override fun onAuthenticationError(errorCode: Int, errString: CharSequence) {
                req.dismiss(outcomeOf(errorCode))
            }
            // onAuthenticationFailed: a finger not recognised; the prompt stays up: do not finish.
        })
        req.future().whenComplete { _, e -> render(lock.snapshot(), e) } // e: LockUnavailableException says why
    }

    companion object {
        fun outcomeOf(code: Int): AuthResult = when (code) {
            BiometricPrompt.ERROR_USER_CANCELED, BiometricPrompt.ERROR_NEGATIVE_BUTTON,
            BiometricPrompt.ERROR_CANCELED -> AuthResult.CANCELLED
            BiometricPrompt.ERROR_LOCKOUT, BiometricPrompt.ERROR_LOCKOUT_PERMANENT -> AuthResult.FAILED
            else -> AuthResult.UNAVAILABLE                 // ERROR_HW_UNAVAILABLE, ERROR_NO_BIOMETRICS, ...
        }
    }
}
