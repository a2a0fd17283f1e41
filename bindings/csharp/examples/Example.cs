// bindings/csharp/examples/Example.cs: a complete program (make test runs it as printed).
// From the repository root, after make csharp:
//   mcs -r:build/csharp/LibIdleLock.dll -out:build/Example.exe bindings/csharp/examples/Example.cs
//   LD_LIBRARY_PATH=build MONO_PATH=build/csharp mono build/Example.exe
using System;
using System.Text;
using System.Threading;
using LibIdleLock;

static class Example
{
    static int Main()
    {
        // Times are milliseconds. Argon2id at OWASP's floor keeps the example quick: an app
        // leaves KdfOpslimit and KdfMemlimit unset (64 MiB).
        var options = new IdleLockOptions
        {
            IdleAfterMs = 5 * 60000,
            BackgroundAfterMs = 30000,
            KdfOpslimit = IdleLock.KdfOpslimitMin,
            KdfMemlimit = IdleLock.KdfMemlimitMin,
        };
        using (var lk = new IdleLock(options))
        {
            char[] passcode = { '2', '4', '6', '8' };  // from your key events: never a string
            lk.SetPasscode(passcode);                   // runs Argon2id: off the main thread in an app
            Array.Clear(passcode, 0, passcode.Length);

            byte[] token = Encoding.UTF8.GetBytes("eyJhbGciOi");
            lk.PutSecret("token", token);               // copied and sealed: clear yours
            Array.Clear(token, 0, token.Length);

            // Unity: SynchronizationContext.Current captured in Start() posts every snapshot to
            // the main thread. A console program has none (null): listeners run on the caller.
            lk.Subscribe(s => Console.WriteLine("listener: " + s.State + ", " + s.Reason),
                         SynchronizationContext.Current);

            lk.Touch();                                 // on every input event
            lk.Lifecycle(Platform.AndroidLifecycleEvent, "ON_STOP");  // left for the background
            lk.Lifecycle(Platform.AndroidLifecycleEvent, "ON_RESUME"); // back within 30 s
            lk.Lock();                                  // "Lock now"

            try
            {
                lk.Unlock(new[] { '1', '3', '5', '7' });
            }
            catch (InvalidPasscodeException e)
            {
                Console.WriteLine("wrong passcode: " + e.AttemptsRemaining + " attempts left");
            }
            catch (RetryLaterException e)
            {
                Console.WriteLine("try again in " + e.RetryAfter.TotalSeconds + " s");
            }

            char[] typed = { '2', '4', '6', '8' };
            lk.Unlock(typed);
            Array.Clear(typed, 0, typed.Length);

            byte[] secret = lk.GetSecret("token");      // a new array: yours to clear
            Console.WriteLine("token: " + Encoding.UTF8.GetString(secret));
            Array.Clear(secret, 0, secret.Length);
        }                                               // Dispose: session key and secrets wiped
        return 0;
    }
}
