// Plays the platform plugin for examples/UnityBiometrics.cs (not shown in the README) and
// checks what the example promises: the shortcut turns on, a check unlocks, a check that
// never answers does not keep a quitting game waiting, the by-hand pair unlocks. Prints
// "UnityBiometrics: ok" or throws.
using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using LibIdleLock;

sealed class FakePlugin : IBiometricPlugin
{
    public byte[] Item;                // what the "keystore" keeps behind the check
    public bool NeverAnswers;
    public TaskCompletionSource<byte[]> Pending;

    public Task<byte[]> EncryptBehindBiometrics(byte[] secret)
    {
        Item = (byte[])secret.Clone();
        return Task.Run(() => new byte[] { 1, 2, 3 });
    }

    public Task<byte[]> DecryptBehindBiometrics(byte[] blob)
    {
        Pending = new TaskCompletionSource<byte[]>();
        if (!NeverAnswers) Task.Run(() => Pending.SetResult((byte[])Item.Clone()));
        return Pending.Task;
    }

    public Task DeleteItem() { Item = null; return Task.FromResult(0); }

    public void Authenticate(Action<byte[]> onSuccess, Action<bool> onError)
    {
        new Thread(() => onSuccess((byte[])Item.Clone())).Start();
    }
}

static class Driver
{
    static void Check(bool condition, string what) { if (!condition) throw new Exception("UnityBiometrics: " + what); }

    static int Main()
    {
        var plugin = new FakePlugin();
        using (var lk = new IdleLock(new IdleLockOptions { IdleAfterMs = 60000, KdfOpslimit = 2, KdfMemlimit = IdleLock.KdfMemlimitMin }))
        {
            lk.SetPasscode(new[] { '2', '4', '6', '8' });
            var screen = new BiometricUnlockScreen { Lock = lk, Plugin = plugin };
            Check(screen.TurnOnBiometrics().Wait(20000), "TurnOnBiometrics ended");
            Check(lk.Snapshot().IsBiometricsEnabled, "the shortcut is on");
            Check(screen.SavedBlob != null && plugin.Item != null && plugin.Item.Any(b => b != 0), "the plugin kept the secret");

            lk.Lock();
            Check(screen.UnlockWithBiometrics().Wait(20000), "the unlock ended");
            Check(!screen.LockScreenShown && lk.Snapshot().State == LockState.Unlocked, "unlocked: " + screen.Message);

            lk.Lock();
            var req = screen.UnlockByHand();
            Check(req.Task.Wait(20000) && req.Task.Result.State == LockState.Unlocked, "unlocked by hand");

            // The game quits while the prompt is up and the plugin never answers.
            lk.Lock();
            plugin.NeverAnswers = true;
            var waiting = screen.UnlockWithBiometrics();
            Thread.Sleep(100);
            Check(!waiting.IsCompleted, "waiting for the prompt");
            screen.OnDestroy();
            Check(waiting.Wait(5000), "the unlock ended once the screen was destroyed, with no answer from the plugin");
            plugin.Pending.SetResult((byte[])plugin.Item.Clone()); // the late answer unlocks nothing
            Thread.Sleep(100);
            Check(lk.Snapshot().State == LockState.Locked, "still locked after the late answer");
        }
        Console.WriteLine("UnityBiometrics: ok");
        return 0;
    }
}
