import android.security.keystore.KeyPermanentlyInvalidatedException;
import androidx.biometric.BiometricPrompt;
import androidx.fragment.app.FragmentActivity;
import java.security.GeneralSecurityException;
import java.util.concurrent.Executor;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.idlelock.AuthResult;
import org.idlelock.BiometricRequest;
import org.idlelock.IdleLock;
import org.idlelock.IdleLockException;
import org.idlelock.Snapshot;

/** The two-phase pair on Android: no thread waits; BiometricPrompt's callbacks finish the request. */
abstract class BiometricPair {
    private final IdleLock lock;
    private final FragmentActivity activity;
    private final Executor mainExecutor;                  // ContextCompat.getMainExecutor(activity)

    BiometricPair(IdleLock lock, FragmentActivity activity, Executor mainExecutor) {
        this.lock = lock;
        this.activity = activity;
        this.mainExecutor = mainExecutor;
    }

    abstract SecretKey keystoreKey() throws GeneralSecurityException; // AES, setUserAuthenticationRequired(true)
    abstract void save(byte[] blob, byte[] iv);                       // ciphertext and IV: not secret
    abstract byte[] savedBlob();
    abstract byte[] savedIv();
    abstract void deleteSaved();
    abstract void render(Snapshot s, Throwable why);

    void prompt(BiometricPrompt.CryptoObject crypto, BiometricPrompt.AuthenticationCallback callback) {
        new BiometricPrompt(activity, mainExecutor, callback).authenticate(new BiometricPrompt.PromptInfo.Builder()
                .setTitle("Unlock").setNegativeButtonText("Use passcode").build(), crypto);
    }

    /** Turn the shortcut on (an unlocked session): encrypt the request's secret behind the check. */
    void enable() throws GeneralSecurityException {
        BiometricRequest enable = lock.beginBiometricEnable();
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding");
        enc.init(Cipher.ENCRYPT_MODE, keystoreKey());
        prompt(new BiometricPrompt.CryptoObject(enc), new BiometricPrompt.AuthenticationCallback() {
            @Override public void onAuthenticationSucceeded(BiometricPrompt.AuthenticationResult r) {
                try {
                    Cipher c = r.getCryptoObject().getCipher();
                    save(c.doFinal(enable.secret()), c.getIV());
                } catch (GeneralSecurityException e) { enable.dismiss(AuthResult.FAILED); return; }
                try { enable.finish(AuthResult.OK); }                 // on; wipes enable.secret()
                catch (IdleLockException e) { deleteSaved(); }       // a lock after the begin won
            }
            @Override public void onAuthenticationError(int code, CharSequence msg) { enable.dismiss(outcomeOf(code)); }
        });
    }

    /** Unlock: decrypt the saved secret behind the check. */
    void unlock() throws GeneralSecurityException {
        BiometricRequest req = lock.beginBiometricUnlock();  // LockUnavailableException: show the passcode only
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding");
        try {
            dec.init(Cipher.DECRYPT_MODE, keystoreKey(), new GCMParameterSpec(128, savedIv()));
        } catch (KeyPermanentlyInvalidatedException e) {     // the enrolment changed
            req.dismiss(AuthResult.UNAVAILABLE); lock.disableBiometrics(); deleteSaved(); return;
        }
        prompt(new BiometricPrompt.CryptoObject(dec), new BiometricPrompt.AuthenticationCallback() {
            @Override public void onAuthenticationSucceeded(BiometricPrompt.AuthenticationResult r) {
                byte[] secret;
                try { secret = r.getCryptoObject().getCipher().doFinal(savedBlob()); }
                catch (GeneralSecurityException e) { req.dismiss(AuthResult.FAILED); return; }
                try { req.finish(AuthResult.OK, secret); }          // wipes secret
                catch (IdleLockException e) { /* req.future() reports it */ }
            }
            @Override public void onAuthenticationError(int code, CharSequence msg) { req.dismiss(outcomeOf(code)); }
            // onAuthenticationFailed: a finger not recognised; the prompt stays up: do not finish.
        });
        req.future().whenComplete((s, e) -> render(lock.snapshot(), e)); // e: LockUnavailableException says why
    }

    static AuthResult outcomeOf(int code) {
        switch (code) {
            case BiometricPrompt.ERROR_USER_CANCELED: case BiometricPrompt.ERROR_NEGATIVE_BUTTON:
            case BiometricPrompt.ERROR_CANCELED: return AuthResult.CANCELLED;
            case BiometricPrompt.ERROR_LOCKOUT: case BiometricPrompt.ERROR_LOCKOUT_PERMANENT: return AuthResult.FAILED;
            default: return AuthResult.UNAVAILABLE;               // ERROR_HW_UNAVAILABLE, ERROR_NO_BIOMETRICS, ...
        }
    }
}
