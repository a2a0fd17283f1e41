// SPDX-License-Identifier: MIT
// The two-phase biometric pair of libidlelock 1.2 (idlelock_biometric_begin /
// idlelock_biometric_finish) as a request object whose Task completes when the
// host finishes it: no thread blocks while a person looks at the sensor.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace LibIdleLock
{
    /// <summary>What a biometric request is for (IDLELOCK_BIOMETRIC_*).</summary>
    public enum BiometricPurpose
    {
        /// <summary>Unlock (or re-authenticate an unlocked session) with the shortcut.</summary>
        Unlock = 1,
        /// <summary>Turn the shortcut on.</summary>
        Enable = 2,
    }

    /// <summary>
    /// An open biometric request (1.2): the one-time token IdleLock.BeginBiometricUnlock or
    /// BeginBiometricEnable handed out, bound to its lock. The host runs its platform's
    /// check however it likes (a plugin callback, a coroutine, a Task) and ends the request
    /// with Finish; Task completes then.
    ///
    /// Lifetime: while open the request is a prompt (IdleLock.PromptBegin): the round trip
    /// through the system's sheet is presence, within PromptCapMs. It lives PromptCapMs
    /// (ms, on the lock's clock) from its begin: a later Finish unlocks nothing
    /// (LockUnavailableException, "expired"); so does a clock step since its begin. Disable,
    /// a new passcode and DisableBiometrics on this lock void every open request: finishing
    /// a request that is no longer open (finished, voided) throws InvalidArgumentException
    /// and changes nothing. A sign-out or new passcode by another process is seen by the
    /// finish itself, which then throws NoPasscodeException, SessionLockedException or
    /// LockUnavailableException and ends the request; never success. At most IdleLock.BiometricRequestsMax (8) are open on a lock: Dispose (a
    /// using block), Cancel or Dismiss ends one you no longer need, and a request the
    /// program drops while it is open is finished as cancelled by its finalizer, so a
    /// forgotten request never holds a slot. After the lock's Dispose, Finish throws
    /// ObjectDisposedException; Cancel, Dismiss and Dispose do nothing; Task faults with
    /// ObjectDisposedException.
    ///
    /// Threads: any. A request may be finished on another thread than the one that began
    /// it, and finished, cancelled or dropped concurrently with anything else on the lock:
    /// the library lets exactly one finish through.
    ///
    /// Secrets: Secret (Enable requests) is the request's own array holding the new 32-byte
    /// secret; keep it behind your biometric check only. The binding clears it (Array.Clear)
    /// when the request ends, however it ends. The array handed to Finish is taken over:
    /// cleared when Finish returns or throws. Clear any copy you make yourself.
    /// </summary>
    public sealed class BiometricRequest : IDisposable
    {
        readonly Core core;

        internal BiometricRequest(Core core, Snapshot begun)
        {
            this.core = core;
            Snapshot = begun;
        }

        /// <summary>A request dropped while open is finished as cancelled (on the finalizer
        /// thread: its listeners run there). Never throws.</summary>
        ~BiometricRequest()
        {
            core.Drop();
        }

        public BiometricPurpose Purpose { get { return core.Purpose; } }

        /// <summary>The library's token: 64 random bits, never 0, bound to this request's lock.</summary>
        public ulong Token { get { return core.Token; } }

        /// <summary>The state right after the begin.</summary>
        public Snapshot Snapshot { get; private set; }

        /// <summary>Enable: the request's own array holding the new 32-byte secret, to keep
        /// behind the biometric check; cleared by the binding when the request ends (read it
        /// before you finish). Unlock: null.</summary>
        public byte[] Secret { get { return core.Secret; } }

        /// <summary>Completes when the request ends: with the snapshot of the finish the
        /// library accepted; faulted with the IdleLockException that finish threw
        /// (LockUnavailableException for a failed, cancelled, expired or refused check), with
        /// the InvalidArgumentException of a finish that found it voided, or with
        /// ObjectDisposedException when the lock was disposed first; cancelled when it was
        /// dropped unfinished. Continuations run asynchronously (never inside Finish). Its
        /// fault is marked observed: a Task nobody awaits raises no UnobservedTaskException.</summary>
        public Task<Snapshot> Task { get { return core.Completion.Task; } }

        /// <summary>True once the request has ended (finished, voided and seen as such,
        /// dropped, or its lock disposed).</summary>
        public bool IsFinished { get { return core.IsEnded; } }

        /// <summary>
        /// Ends the request with the host's outcome (idlelock_biometric_finish) and returns
        /// the state after it. secret: for an Unlock whose check passed (AuthResult.Ok), the
        /// 32 bytes the check released; null otherwise. The binding clears that array when
        /// Finish returns or throws. The request's prompt ends as every prompt ends (the
        /// deadlines are judged first, then the outcome applies, then the end is activity
        /// while unlocked). Never counts a passcode attempt.
        ///
        /// Throws ArgumentNullException (an Unlock finished with Ok and no secret),
        /// LockUnavailableException (the check failed, was cancelled or is
        /// unavailable, the request expired, a passcode policy requires the passcode, or the
        /// secret does not open the shortcut, which then turns off: delete your item),
        /// SessionLockedException (a lock, lockout or sign-out after the begin wins over a
        /// success; for Enable: delete what you stored), StorageException,
        /// InvalidArgumentException (a result that is no AuthResult, a secret that does not fit
        /// the purpose and result: the request stays open; or a request no longer open), ObjectDisposedException (the
        /// lock was disposed), CallbackException (a listener threw; the request did end).
        /// Thread: any.
        /// </summary>
        public Snapshot Finish(AuthResult result, byte[] secret)
        {
            try
            {
                bool releases = core.Purpose == BiometricPurpose.Unlock && result == AuthResult.Ok;
                if (result < AuthResult.Ok || result > AuthResult.Unavailable)
                    throw new InvalidArgumentException("result: " + (int)result + " is not an AuthResult (Ok, Failed, Cancelled, Unavailable)", "result");
                if (releases && secret == null)
                    throw new ArgumentNullException("secret", "secret is null; an Unlock that passed (AuthResult.Ok) hands over the " +
                        IdleLock.AuthSecretBytes + "-byte secret the check released");
                if (releases && secret.Length != IdleLock.AuthSecretBytes)
                    throw new InvalidArgumentException("secret: " + secret.Length + " bytes; an Unlock that passed hands over the " +
                        IdleLock.AuthSecretBytes + "-byte secret the check released", "secret");
                if (!releases && secret != null)
                    throw new InvalidArgumentException("secret: only an Unlock finished with AuthResult.Ok hands over a secret; pass null with " +
                        result + (core.Purpose == BiometricPurpose.Enable ? " (an Enable confirms with no secret)" : ""), "secret");
                return core.Lock.FinishBiometric(core, result, secret);
            }
            finally
            {
                if (secret != null) Array.Clear(secret, 0, secret.Length);
                if (core.IsEnded) GC.SuppressFinalize(this);
            }
        }

        /// <summary>Finish with no secret: an Enable confirmed (Ok), or a check that did not pass.</summary>
        public Snapshot Finish(AuthResult result) { return Finish(result, null); }

        /// <summary>Dismiss(AuthResult.Cancelled): for a screen that goes away without an answer.</summary>
        public Snapshot Cancel() { return Dismiss(AuthResult.Cancelled); }

        /// <summary>Ends the request, if it is still open, with an outcome that releases nothing
        /// (Failed, Cancelled, Unavailable), for a plugin's error callback: the library's
        /// answer (LockUnavailableException, which also faults Task) is expected and not
        /// thrown, nor is anything when the request already ended, was voided, or the lock was
        /// disposed. Returns the state after it, or null when there was nothing to finish.
        /// InvalidArgumentException for AuthResult.Ok (a release goes through Finish).</summary>
        public Snapshot Dismiss(AuthResult outcome)
        {
            if (outcome == AuthResult.Ok || outcome < AuthResult.Ok || outcome > AuthResult.Unavailable)
                throw new InvalidArgumentException("outcome: Dismiss takes Failed, Cancelled or Unavailable, not " + outcome +
                    "; a check that passed goes through Finish(AuthResult.Ok, secret)", "outcome");
            if (core.IsEnded || core.Lock.IsDisposed) return null;
            try
            {
                return Finish(outcome, null);
            }
            catch (LockUnavailableException e)
            {
                return e.Snapshot;
            }
            catch (InvalidArgumentException)
            {
                return null; // voided, or finished meanwhile
            }
            catch (ObjectDisposedException)
            {
                return null; // the lock was disposed meanwhile
            }
        }

        /// <summary>Cancel, for a using block: a request still open at its end is finished as
        /// cancelled. Never throws for a disposed lock.</summary>
        public void Dispose()
        {
            Cancel();
            GC.SuppressFinalize(this);
        }

        public override string ToString()
        {
            return "BiometricRequest(" + Purpose + ", " + (IsFinished ? "finished" : "open") + ")";
        }

        /// <summary>The state of one request, shared by its facade, its lock's registry (for
        /// Dispose) and the facade's finalizer; it never refers to the facade.</summary>
        internal sealed class Core
        {
            internal readonly IdleLock Lock;
            internal readonly ulong Token;
            internal readonly BiometricPurpose Purpose;
            internal readonly byte[] Secret;
            internal readonly TaskCompletionSource<Snapshot> Completion =
                new TaskCompletionSource<Snapshot>(TaskCreationOptions.RunContinuationsAsynchronously);
            readonly object mu = new object();
            int finishing;   // finishes in flight in the library
            bool ended, lockDisposed;

            internal Core(IdleLock owner, ulong token, BiometricPurpose purpose, byte[] secret)
            {
                Lock = owner;
                Token = token;
                Purpose = purpose;
                Secret = secret;
                // Finish throws (or Dispose reports) what faults Task: a request whose Task
                // nobody awaits must not surface as TaskScheduler.UnobservedTaskException.
                IdleLock.Observe(Completion.Task);
            }

            internal bool IsEnded { get { lock (mu) return ended; } }

            internal void EnterFinish() { lock (mu) finishing++; }

            /// <summary>After a finish: reached says it returned from the library with rc. A
            /// status other than INVALID_ARGUMENT means the library finished the request.
            /// INVALID_ARGUMENT (the binding checked the arguments) means the token is not
            /// open: it ended before (then Task already has the outcome) or was voided, which
            /// Task learns unless another finish is still in flight (that one tells).</summary>
            internal void ExitFinish(bool reached, int rc, Snapshot s, Exception failure)
            {
                bool end;
                lock (mu)
                {
                    finishing--;
                    end = reached && !ended && (rc != 1 || finishing == 0);
                    if (end) End();
                }
                if (end)
                {
                    if (failure == null) Completion.TrySetResult(s);
                    else Completion.TrySetException(failure);
                }
                DisposedMeanwhile();
            }

            /// <summary>The lock was disposed: no finish can reach the library any more.</summary>
            internal void LockDisposed()
            {
                lock (mu) lockDisposed = true;
                DisposedMeanwhile();
            }

            void DisposedMeanwhile()
            {
                lock (mu)
                {
                    if (ended || !lockDisposed || finishing > 0) return;
                    End();
                }
                Completion.TrySetException(new ObjectDisposedException("IdleLock",
                    "the IdleLock was disposed before this biometric request finished"));
            }

            /// <summary>With mu held.</summary>
            void End()
            {
                ended = true;
                if (Secret != null) Array.Clear(Secret, 0, Secret.Length);
                Lock.Forget(this);
            }

            /// <summary>The facade was finalized while the request was open.</summary>
            internal void Drop()
            {
                try
                {
                    lock (mu)
                    {
                        if (ended || finishing > 0) return;
                    }
                    if (!Lock.IsDisposed) Lock.FinishBiometric(this, AuthResult.Cancelled, null);
                }
                catch (Exception)
                {
                    // cancelled (LockUnavailable), voided, or disposed meanwhile: over either way
                }
                bool end;
                lock (mu)
                {
                    end = !ended && finishing == 0;
                    if (end) End();
                }
                if (end) Completion.TrySetCanceled();
            }
        }
    }
}
