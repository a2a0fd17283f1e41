// bindings/csharp/examples/UnityBiometrics.cs: the biometric shortcut in a game. In Unity the
// class is a MonoBehaviour (OnDestroy is Unity's message; the button calls
// OnBiometricButton); here it is a plain class so that make test compiles and runs it as
// printed (examples/driver/ plays the plugin, and quits while a prompt is up).
using System;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;

/// <summary>Your platform plugin: its biometric check as a Task completed from its native callback.</summary>
public interface IBiometricPlugin
{
    Task<byte[]> DecryptBehindBiometrics(byte[] blob);   // the 32-byte secret, or AuthenticationException
    Task<byte[]> EncryptBehindBiometrics(byte[] secret); // the blob to save
    Task DeleteItem();
    void Authenticate(Action<byte[]> onSuccess, Action<bool> onError); // onError(true): the user cancelled
}

public class BiometricUnlockScreen // : MonoBehaviour
{
    public IdleLock Lock;
    public IBiometricPlugin Plugin;
    public byte[] SavedBlob;
    public bool LockScreenShown;    // lockScreen.SetActive(...) in the game
    public string Message;
    readonly CancellationTokenSource destroyCancellation = new CancellationTokenSource();

    public async void OnBiometricButton() { await UnlockWithBiometrics(); }

    public async Task UnlockWithBiometrics()
    {
        try
        {
            Snapshot s = await Lock.UnlockWithBiometricsAsync(req => Plugin.DecryptBehindBiometrics(SavedBlob),
                                                              destroyCancellation.Token);
            LockScreenShown = s.IsLocked;                // back on the main thread after await
        }
        catch (OperationCanceledException) { }           // the screen went away: nothing waits any more
        catch (LockUnavailableException e) { Message = "use your passcode: " + e.Message; } // cancelled, failed, a policy
        catch (SessionLockedException) { }               // a lock after the begin won
    }

    public async Task TurnOnBiometrics()                 // on an unlocked session, from Settings
    {
        await Lock.EnableBiometricsAsync(
            async (req, secret) => SavedBlob = await Plugin.EncryptBehindBiometrics(secret), // secret: cleared afterwards
            () => Plugin.DeleteItem(),                   // runs when the library refused after the store
            destroyCancellation.Token);
    }

    // Or by hand, with a plugin that calls back on any thread; req.Task has the outcome.
    public BiometricRequest UnlockByHand()
    {
        var req = Lock.BeginBiometricUnlock();
        Plugin.Authenticate(bytes => { try { req.Finish(AuthResult.Ok, bytes); } catch (IdleLockException) { } }, // bytes: cleared
                            cancelled => req.Dismiss(cancelled ? AuthResult.Cancelled : AuthResult.Failed));
        return req;
    }

    public void OnDestroy() { destroyCancellation.Cancel(); }  // also when the game quits
}
