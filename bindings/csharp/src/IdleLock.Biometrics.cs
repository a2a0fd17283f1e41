// SPDX-License-Identifier: MIT
// The biometric shortcut. Two ways in: the callback IAuthenticator, whose
// LoadSecret blocks the calling thread until the prompt answers (a worker:
// UnlockWithBiometricsAsync()); and the two-phase pair of 1.2, a
// BiometricRequest the host finishes from its plugin's callback on any thread,
// with the Task-returning helpers built on it. Every helper ends at once when
// its CancellationToken is cancelled or the lock is disposed, whatever the
// host's own task does.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace LibIdleLock
{
    public sealed partial class IdleLock
    {
        /// <summary>Turns the shortcut on (an unlocked session with a passcode and an available
        /// IAuthenticator, whose StoreSecret runs on this thread). SessionLockedException,
        /// NoPasscodeException, LockUnavailableException (no authenticator, unavailable, or
        /// StoreSecret failed). Thread: any.</summary>
        public void EnableBiometrics() { Plain(Native.idlelock_enable_biometrics); }

        /// <summary>Turns the shortcut off (calls DeleteSecret; voids open biometric requests).
        /// Thread: any.</summary>
        public void DisableBiometrics() { Plain(Native.idlelock_disable_biometrics); }

        /// <summary>Unlocks with the authenticator's check, blocking this thread in LoadSecret.
        /// Never counts an attempt. LockUnavailableException when the shortcut is off,
        /// unavailable, failed or cancelled (the message says which), NoPasscodeException,
        /// LockedOutException, SessionLockedException (a lock overtook it). Thread: any but
        /// the one that must answer the prompt.</summary>
        public Snapshot UnlockWithBiometrics() { return WithSnapshot(Native.idlelock_unlock_with_biometrics); }

        /// <summary>UnlockWithBiometrics on a thread-pool thread: await it from Unity's main
        /// thread while the authenticator shows its prompt there. The task faults with the
        /// exception the call threw, or at once with ObjectDisposedException when the lock is
        /// disposed while LoadSecret blocks (its late answer is cleared unused).</summary>
        public Task<Snapshot> UnlockWithBiometricsAsync() { return UnlockWithBiometricsAsync(CancellationToken.None); }

        /// <summary>
        /// As UnlockWithBiometricsAsync(), cancellable: when cancellationToken is cancelled the
        /// task ends at once with OperationCanceledException, whatever LoadSecret is doing. The
        /// worker thread stays in LoadSecret until it returns (the binding cannot interrupt the
        /// host's prompt: dismiss it yourself); what it returns then is cleared unused and the
        /// library hears AuthResult.Cancelled, so a late answer unlocks nothing. The answer and
        /// the cancellation race for one claim (a compare-and-set): a task that ends cancelled
        /// means the answer unlocked nothing; an answer that reached the library first makes
        /// the cancellation lose, and the task ends a moment later with the library's answer
        /// (the unlock, or its error). Dispose ends the task at once, with
        /// ObjectDisposedException.
        /// </summary>
        public Task<Snapshot> UnlockWithBiometricsAsync(CancellationToken cancellationToken)
        {
            CheckUsable();
            if (cancellationToken.IsCancellationRequested) return Canceled<Snapshot>(cancellationToken);
            var claim = new AnswerClaim();
            var work = Task.Run(() =>
            {
                Callbacks.LoadCancellation = cancellationToken;
                Callbacks.LoadClaim = claim;
                try
                {
                    return UnlockWithBiometrics();
                }
                finally
                {
                    Callbacks.LoadCancellation = CancellationToken.None;
                    Callbacks.LoadClaim = null;
                }
            });
            return DoneOrCancelled(work, cancellationToken, null, claim);
        }

        // -- biometrics for asynchronous hosts (1.2) -------------------------------------

        /// <summary>Begins a biometric unlock whose result comes later (idlelock_biometric_begin,
        /// IDLELOCK_BIOMETRIC_UNLOCK): show the platform's check, then call
        /// BiometricRequest.Finish(AuthResult.Ok, secret) with what it released, from any
        /// thread. Checks what UnlockWithBiometrics checks first; needs no IAuthenticator (when
        /// one is configured, its cached IsAvailable must be true). On an unlocked session it
        /// re-authenticates. NoPasscodeException, LockedOutException, LockUnavailableException
        /// (the shortcut is off or unavailable, a passcode policy requires the passcode:
        /// Snapshot.IsPasscodeRequired, or PromptCapMs is 0), InvalidArgumentException (already
        /// BiometricRequestsMax open), StorageException; when it throws, no request is left
        /// open. Thread: any.</summary>
        public BiometricRequest BeginBiometricUnlock() { return BeginBiometric(BiometricPurpose.Unlock); }

        /// <summary>Begins turning the shortcut on (idlelock_biometric_begin,
        /// IDLELOCK_BIOMETRIC_ENABLE): the request's Secret holds a new random 32-byte secret;
        /// keep it behind the platform's biometric check, then Finish(AuthResult.Ok): the
        /// shortcut is on only then. Needs an unlocked session with a passcode.
        /// NoPasscodeException, SessionLockedException, LockUnavailableException (PromptCapMs is
        /// 0), InvalidArgumentException (already BiometricRequestsMax open), NoMemoryException;
        /// when it throws, no request is left open. Thread: any.</summary>
        public BiometricRequest BeginBiometricEnable() { return BeginBiometric(BiometricPurpose.Enable); }

        BiometricRequest BeginBiometric(BiometricPurpose purpose)
        {
            byte[] secret = purpose == BiometricPurpose.Enable ? new byte[AuthSecretBytes] : null;
            ulong token = 0;
            Snapshot begun;
            try
            {
                // The array is pinned for the call: the library writes the secret straight into it.
                begun = WithSnapshot((IntPtr h, ref SnapshotNative s) => Native.idlelock_biometric_begin(
                    h, (int)purpose, out token, secret, new UIntPtr((uint)(secret == null ? 0 : secret.Length)), ref s));
            }
            catch (Exception)
            {
                if (secret != null) Array.Clear(secret, 0, secret.Length);
                if (token != 0)
                {
                    // Begun, but a listener threw during it: the caller never gets the request,
                    // so it must not stay open (its prompt would defer the rules).
                    try { new BiometricRequest(Register(token, purpose, secret), null).Dispose(); }
                    catch (Exception) { /* the first error wins */ }
                }
                throw;
            }
            return new BiometricRequest(Register(token, purpose, secret), begun);
        }

        BiometricRequest.Core Register(ulong token, BiometricPurpose purpose, byte[] secret)
        {
            var core = new BiometricRequest.Core(this, token, purpose, secret);
            requests[core] = true;
            if (disposed) core.LockDisposed(); // disposed while the begin ran: it can never be finished
            return core;
        }

        /// <summary>A request that ended is no longer this lock's to clear at Dispose.</summary>
        internal void Forget(BiometricRequest.Core core)
        {
            bool unused;
            requests.TryRemove(core, out unused);
        }

        /// <summary>idlelock_biometric_finish for BiometricRequest; the arguments are checked.</summary>
        internal Snapshot FinishBiometric(BiometricRequest.Core core, AuthResult result, byte[] secret)
        {
            if (hasClock && Callbacks.InClock) throw ClockReentry();
            var h = handle;
            var slot = ThreadSlot.Current;
            // Counted before Enter: a Dispose from now on waits for this finish's outcome
            // (it reaches the library) or its refusal (it does not). Dispose sets disposed
            // before it ends the requests and retires the handle later, so a finish that
            // sees disposed goes no further.
            core.EnterFinish();
            int held = h.Enter(slot);
            if (held >= 0 && disposed)
            {
                h.Exit(slot, held);
                held = -1;
            }
            if (held < 0)
            {
                core.ExitFinish(false, -1, null, null);
                throw Disposed();
            }
            var s = new SnapshotNative { size = (uint)Native.SnapshotSize };
            int rc = -1;
            string message = null;
            bool reached = false;
            Snapshot snapshot = null;
            Exception failure = null;
            try
            {
                try
                {
                    rc = Native.idlelock_biometric_finish(h.Raw, core.Token, (int)result, secret,
                        new UIntPtr((uint)(secret == null ? 0 : secret.Length)), ref s);
                    reached = true;
                    if (rc != 0) message = Native.LastError();
                }
                finally
                {
                    h.Exit(slot, held);
                }
                snapshot = new Snapshot(ref s);
                failure = rc == 0 ? null : IdleLockException.For(rc, message, rc == 1 ? null : snapshot);
            }
            finally
            {
                core.ExitFinish(reached, rc, snapshot, failure);
            }
            if (rc != 0 || Callbacks.AnyPending) Finish(rc, message, snapshot);
            return snapshot;
        }

        /// <summary>
        /// Unlocks with a biometric check the host awaits, blocking no thread: begins a request
        /// (BeginBiometricUnlock), awaits check(request) (your plugin's check: it returns the
        /// 32-byte secret it released, or throws AuthenticationException with
        /// AuthResult.Failed, Cancelled or Unavailable; it must return its task promptly), and
        /// finishes the request with the outcome on the thread that completed check's task.
        /// The task returns the state after the finish, or faults with what the begin or the
        /// finish threw (LockUnavailableException for a check that did not pass, an expired
        /// request or a refused secret; InvalidArgumentException for a request voided
        /// meanwhile), or with check's own exception when it failed otherwise (the request is
        /// then finished as failed).
        ///
        /// Cancellation: when cancellationToken is cancelled, the request is finished as
        /// cancelled at once and the task ends at once with OperationCanceledException,
        /// whatever check's task does (it may never complete: a plugin that lost its
        /// callback); a secret that task returns later is cleared unused. So a game that quits
        /// while a prompt is up (Unity's destroyCancellationToken) is never left waiting.
        /// Dispose ends it the same way, at once, with ObjectDisposedException (the request
        /// ends with the lock), whatever check's task does.
        ///
        /// No request is ever left open. The secret array check returns is cleared by the
        /// binding. ArgumentNullException for a null check; ObjectDisposedException. Thread:
        /// any; in Unity, await it from the main thread while the plugin shows its prompt.
        /// </summary>
        public Task<Snapshot> UnlockWithBiometricsAsync(Func<BiometricRequest, Task<byte[]>> check,
                                                        CancellationToken cancellationToken = default(CancellationToken))
        {
            Arguments.NotNull(check, "check");
            CheckUsable();
            return UnlockWithCheck(check, cancellationToken);
        }

        async Task<Snapshot> UnlockWithCheck(Func<BiometricRequest, Task<byte[]>> check, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var request = BeginBiometricUnlock();
            if (disposed) throw Disposed(); // disposed while the begin ran: no prompt for a dead request
            using (cancellationToken.Register(CancelQuietly, request))
            {
                byte[] secret = await HostPart(request, () => check(request), cancellationToken, Wipe).ConfigureAwait(false);
                if (secret == null)
                {
                    request.Dismiss(AuthResult.Failed);
                    throw new InvalidOperationException("the check returned no secret; throw AuthenticationException instead");
                }
                if (cancellationToken.IsCancellationRequested)
                {
                    Wipe(secret);
                    throw new OperationCanceledException(cancellationToken);
                }
                try
                {
                    return request.Finish(AuthResult.Ok, secret);
                }
                catch (InvalidArgumentException) when (cancellationToken.IsCancellationRequested)
                {
                    throw new OperationCanceledException(cancellationToken); // cancelled first
                }
            }
        }

        /// <summary>
        /// Turns the shortcut on with a keystore the host awaits: begins a request
        /// (BeginBiometricEnable), awaits store(request, secret) (keep the 32 bytes behind the
        /// biometric check; the array is the request's, cleared when it ends), and finishes the
        /// request: the shortcut is on only then. If the library refuses after the secret was
        /// stored (a lock, a sign-out or a new passcode after the begin), delete() is awaited,
        /// when given, before the task faults, so no item is left behind. On cancellation the
        /// task ends at once with OperationCanceledException and the request is cancelled; a
        /// store that completes later is followed by delete() (the shortcut never went on).
        /// Dispose ends it the same way, at once, with ObjectDisposedException.
        /// Errors, threads and ArgumentNullException as UnlockWithBiometricsAsync(check).
        /// </summary>
        public Task<Snapshot> EnableBiometricsAsync(Func<BiometricRequest, byte[], Task> store, Func<Task> delete = null,
                                                    CancellationToken cancellationToken = default(CancellationToken))
        {
            Arguments.NotNull(store, "store");
            CheckUsable();
            return EnableWithStore(store, delete, cancellationToken);
        }

        async Task<Snapshot> EnableWithStore(Func<BiometricRequest, byte[], Task> store, Func<Task> delete, CancellationToken cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var request = BeginBiometricEnable();
            if (disposed) throw Disposed(); // disposed while the begin ran: no store for a dead request
            using (cancellationToken.Register(CancelQuietly, request))
            {
                Action<bool> lateStore = null;
                if (delete != null) lateStore = stored => DeleteQuietly(delete);
                await HostPart(request, async () =>
                {
                    var t = store(request, request.Secret);
                    if (t == null) throw new InvalidOperationException("store returned no task");
                    await t.ConfigureAwait(false);
                    return true;
                }, cancellationToken, lateStore).ConfigureAwait(false);
                Exception refused;
                try
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    return request.Finish(AuthResult.Ok);
                }
                catch (Exception e)
                {
                    refused = e;
                }
                // Stored, but not taken: the item must go.
                if (delete != null)
                {
                    try
                    {
                        var t = delete();
                        if (t != null) await t.ConfigureAwait(false);
                    }
                    catch (Exception) { /* the refusal is what the caller needs to hear */ }
                }
                if (cancellationToken.IsCancellationRequested) throw new OperationCanceledException(cancellationToken);
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(refused).Throw();
                throw refused; // not reached
            }
        }

        /// <summary>A CancellationToken's callback: finishes the request as cancelled, and
        /// never throws into the code that cancelled the token.</summary>
        static void CancelQuietly(object request)
        {
            try { ((BiometricRequest)request).Cancel(); }
            catch (Exception) { /* a listener's error: the cancelled task is what matters */ }
        }

        static void Wipe(byte[] secret)
        {
            if (secret != null) Array.Clear(secret, 0, secret.Length);
        }

        static void DeleteQuietly(Func<Task> delete)
        {
            try
            {
                var t = delete();
                if (t != null) Observe(t);
            }
            catch (Exception)
            {
                // the task already ended with OperationCanceledException: nobody to tell
            }
        }

        /// <summary>Marks a task's failure as seen (no UnobservedTaskException for it).</summary>
        internal static void Observe(Task t)
        {
            t.ContinueWith(x => { var unused = x.Exception; }, CancellationToken.None,
                           TaskContinuationOptions.OnlyOnFaulted | TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }

        /// <summary>Awaits the host's part of request, or the cancellation or Dispose, whichever
        /// comes first. AuthenticationException finishes the request with its outcome (the
        /// library's LockUnavailableException propagates); cancellation and any other exception
        /// finish it as cancelled (failed) and propagate. When the cancellation or Dispose comes
        /// first, the part's late result goes to discardLate.</summary>
        async Task<T> HostPart<T>(BiometricRequest request, Func<Task<T>> part, CancellationToken cancellationToken,
                                         Action<T> discardLate)
        {
            AuthResult outcome;
            try
            {
                var task = part();
                if (task == null) throw new InvalidOperationException("the host's part returned no task");
                return await DoneOrCancelled(task, cancellationToken, discardLate).ConfigureAwait(false);
            }
            catch (AuthenticationException e)
            {
                outcome = e.Result;
            }
            catch (OperationCanceledException)
            {
                request.Dismiss(AuthResult.Cancelled);
                throw;
            }
            catch (Exception)
            {
                request.Dismiss(AuthResult.Failed);
                throw;
            }
            if (cancellationToken.IsCancellationRequested) throw new OperationCanceledException(cancellationToken);
            request.Finish(outcome); // throws the library's LockUnavailableException
            throw new InvalidOperationException("a check that did not pass finished a request"); // not reached
        }

        /// <summary>work's result, or OperationCanceledException as soon as cancellationToken
        /// is cancelled, or ObjectDisposedException as soon as the lock is disposed, whether or
        /// not work ever completes (also when work ended meanwhile, with a result or a
        /// failure). An abandoned work's result goes to discardLate when it comes (a secret to
        /// clear, an item to delete); its failure is observed. claim (or null): the
        /// cancellation wins only when it claims the call before the host's answer does
        /// (Callbacks.OnLoadSecret); an answer that claimed it first is in the library, and
        /// the task waits for work's outcome instead.</summary>
        async Task<T> DoneOrCancelled<T>(Task<T> work, CancellationToken cancellationToken, Action<T> discardLate,
                                         AnswerClaim claim = null)
        {
            if (!work.IsCompleted)
            {
                var ended = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
                Action<object> end = state => ((TaskCompletionSource<bool>)state).TrySetResult(true);
                Action<object> cancel = state =>
                {
                    if (claim == null || claim.TryCancel()) ((TaskCompletionSource<bool>)state).TrySetResult(true);
                };
                using (cancellationToken.Register(cancel, ended))
                using (disposing.Token.Register(end, ended))
                {
                    if (await Task.WhenAny(work, ended.Task).ConfigureAwait(false) != work)
                    {
                        Abandon(work, discardLate);
                        if (CancelWins(cancellationToken, claim)) throw new OperationCanceledException(cancellationToken);
                        throw Disposed();
                    }
                }
            }
            bool cancelled = CancelWins(cancellationToken, claim);
            if (cancelled || disposed)
            {
                // Both came; the cancellation (or Dispose) wins, so a caller that cancelled
                // never gets a result, nor the failure the cancellation itself caused
                // (LoadSecret answered Cancelled: LockUnavailableException).
                Abandon(work, discardLate);
                if (cancelled) throw new OperationCanceledException(cancellationToken);
                throw Disposed();
            }
            return await work.ConfigureAwait(false);
        }

        /// <summary>Was cancellationToken cancelled, and does the cancellation own the outcome
        /// (the host's answer did not claim it first)?</summary>
        static bool CancelWins(CancellationToken cancellationToken, AnswerClaim claim)
        {
            return cancellationToken.IsCancellationRequested && (claim == null || claim.TryCancel());
        }

        static void Abandon<T>(Task<T> work, Action<T> discardLate)
        {
            work.ContinueWith(t =>
            {
                if (t.Status == TaskStatus.RanToCompletion)
                {
                    if (discardLate != null)
                    {
                        try { discardLate(t.Result); }
                        catch (Exception) { /* nobody left to tell */ }
                    }
                }
                else if (t.IsFaulted)
                {
                    var unused = t.Exception;
                }
            }, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        }

        static Task<T> Canceled<T>(CancellationToken cancellationToken)
        {
            var tcs = new TaskCompletionSource<T>();
            tcs.SetCanceled();
            return tcs.Task;
        }
    }

    /// <summary>
    /// Who owns the outcome of one UnlockWithBiometricsAsync(cancellationToken) call: the
    /// host's answer (claimed in Callbacks.OnLoadSecret just before the secret goes to the
    /// library) or the cancellation (claimed when the token is cancelled), whichever wins
    /// the compare-and-set. So a task that ends cancelled unlocked nothing, and an answer
    /// that reached the library first makes the cancellation lose.
    /// </summary>
    internal sealed class AnswerClaim
    {
        const int Open = 0, Answered = 1, Cancelled = 2;
        int state;

        /// <summary>The answer is about to reach the library: false when the cancellation owns
        /// the call (answer AuthResult.Cancelled and clear the secret).</summary>
        internal bool TryAnswer() { return Interlocked.CompareExchange(ref state, Answered, Open) != Cancelled; }

        /// <summary>The caller cancelled: false when the answer reached the library first.</summary>
        internal bool TryCancel() { return Interlocked.CompareExchange(ref state, Cancelled, Open) != Answered; }
    }
}
