import android.security.keystore.KeyPermanentlyInvalidatedException;
import androidx.biometric.BiometricManager;
import androidx.biometric.BiometricPrompt;
import androidx.fragment.app.FragmentActivity;
import java.security.GeneralSecurityException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import org.idlelock.AuthResult;
import org.idlelock.AuthenticationException;
import org.idlelock.Authenticator;

/** The callback Authenticator on Android: loadSecret blocks its (worker) thread until the prompt answers. */
abstract class KeystoreAuthenticator implements Authenticator {
    private final FragmentActivity activity;
    private final Executor mainExecutor;                  // ContextCompat.getMainExecutor(activity)

    KeystoreAuthenticator(FragmentActivity activity, Executor mainExecutor) {
        this.activity = activity;
        this.mainExecutor = mainExecutor;
    }

    abstract Cipher decryptCipher() throws GeneralSecurityException; // AES/GCM with the Keystore key
    abstract Cipher encryptCipher() throws GeneralSecurityException;
    abstract byte[] storedBlob();
    abstract void storeBlob(byte[] blob, byte[] iv);
    abstract void deleteBlobAndKey();

    @Override public boolean isAvailable() {
        return BiometricManager.from(activity).canAuthenticate(BiometricManager.Authenticators.BIOMETRIC_STRONG)
                == BiometricManager.BIOMETRIC_SUCCESS;
    }

    @Override public byte[] loadSecret(String reason) throws AuthenticationException {
        Cipher cipher;
        try {
            cipher = decryptCipher();
        } catch (KeyPermanentlyInvalidatedException e) {   // the enrolment changed
            throw new AuthenticationException(AuthResult.UNAVAILABLE, "the key was invalidated", e);
        } catch (GeneralSecurityException e) {
            throw new AuthenticationException(AuthResult.FAILED, "no cipher", e);
        }
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<byte[]> secret = new AtomicReference<>();
        AtomicReference<AuthResult> outcome = new AtomicReference<>(AuthResult.FAILED);
        mainExecutor.execute(() -> new BiometricPrompt(activity, mainExecutor,
            new BiometricPrompt.AuthenticationCallback() {
                @Override public void onAuthenticationSucceeded(BiometricPrompt.AuthenticationResult r) {
                    try { secret.set(r.getCryptoObject().getCipher().doFinal(storedBlob())); outcome.set(AuthResult.OK); }
                    catch (GeneralSecurityException e) { outcome.set(AuthResult.FAILED); }
                    done.countDown();
                }
                @Override public void onAuthenticationError(int code, CharSequence msg) {
                    outcome.set(code == BiometricPrompt.ERROR_USER_CANCELED || code == BiometricPrompt.ERROR_NEGATIVE_BUTTON
                            ? AuthResult.CANCELLED : AuthResult.UNAVAILABLE);
                    done.countDown();
                }
            }).authenticate(new BiometricPrompt.PromptInfo.Builder().setTitle(reason)
                    .setNegativeButtonText("Use passcode").build(), new BiometricPrompt.CryptoObject(cipher)));
        try { done.await(); } catch (InterruptedException e) { throw new AuthenticationException(AuthResult.CANCELLED, "interrupted", e); }
        if (outcome.get() != AuthResult.OK) throw new AuthenticationException(outcome.get(), "biometric check: " + outcome.get());
        return secret.get();                               // the binding wipes it after copying
    }

    @Override public void storeSecret(byte[] secret) throws AuthenticationException {
        try {                                              // (a key that needs the check: show a prompt here too)
            Cipher c = encryptCipher();
            storeBlob(c.doFinal(secret), c.getIV());       // the binding wipes `secret` when this returns
        } catch (GeneralSecurityException e) {
            throw new AuthenticationException(AuthResult.UNAVAILABLE, "cannot keep the secret", e);
        }
    }

    @Override public void deleteSecret() { deleteBlobAndKey(); }
}
