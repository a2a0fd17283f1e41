using System;
using System.Collections.Generic;

namespace LibIdleLock
{
    /// <summary>A libidlelock call failed. Each status has its subclass; a status this
    /// binding does not know (a newer library's) is thrown as this class. Status is the
    /// C code, Message the library's (idlelock_last_error, read right after the call on
    /// the same thread) or the binding's own, Snapshot the state after the call when the
    /// call reports one (events, unlocks; never for InvalidArgument), else null.</summary>
    public class IdleLockException : Exception
    {
        public IdleLockException(int status, string message, Snapshot snapshot) : base(message)
        {
            Status = status;
            Snapshot = snapshot;
        }

        public int Status { get; private set; }
        public string StatusName { get { return IdleLock.StatusName(Status); } }
        public Snapshot Snapshot { get; private set; }

        internal static IdleLockException For(int status, string message, Snapshot snapshot)
        {
            switch (status)
            {
                case 1: return new InvalidArgumentException(message);
                case 2: return new SessionLockedException(message, snapshot);
                case 3: return new InvalidPasscodeException(message, snapshot);
                case 4: return new LockedOutException(message, snapshot);
                case 5: return new LockUnavailableException(message, snapshot);
                case 6: return new NoPasscodeException(message, snapshot);
                case 7: return new StorageException(message, snapshot);
                case 8: return new NotFoundException(message);
                case 9: return new BufferTooSmallException(message);
                case 10: return new NoMemoryException(message, snapshot);
                case 11: return new InternalException(message, snapshot);
                case 12: return new RetryLaterException(message, snapshot);
                default: return new IdleLockException(status, message, snapshot);
            }
        }
    }

    /// <summary>IDLELOCK_ERR_INVALID_ARGUMENT: a null, malformed or out-of-range argument or
    /// option (the message names it); the call changed nothing. Also the binding's own checks.</summary>
    public class InvalidArgumentException : IdleLockException
    {
        public InvalidArgumentException(string message) : base(1, message, null) { }
    }

    /// <summary>IDLELOCK_ERR_SESSION_LOCKED: the session is locked; also an unlock overtaken by a lock.</summary>
    public class SessionLockedException : IdleLockException
    {
        public SessionLockedException(string message, Snapshot snapshot) : base(2, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_INVALID_PASSCODE: the attempt was counted; AttemptsRemaining says how many remain.</summary>
    public class InvalidPasscodeException : IdleLockException
    {
        public InvalidPasscodeException(string message, Snapshot snapshot) : base(3, message, snapshot) { }
        /// <summary>Wrong passcodes left before LockedOut, or -1 without a snapshot.</summary>
        public int AttemptsRemaining { get { return Snapshot == null ? -1 : Snapshot.AttemptsRemaining; } }
    }

    /// <summary>IDLELOCK_ERR_LOCKED_OUT: only Disable (sign-out) leaves this state.</summary>
    public class LockedOutException : IdleLockException
    {
        public LockedOutException(string message, Snapshot snapshot) : base(4, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_LOCK_UNAVAILABLE: the biometric shortcut is off, unavailable,
    /// failed or was cancelled (the message says which). The passcode still works.</summary>
    public class LockUnavailableException : IdleLockException
    {
        public LockUnavailableException(string message, Snapshot snapshot) : base(5, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_NO_PASSCODE: the lock is not engaged.</summary>
    public class NoPasscodeException : IdleLockException
    {
        public NoPasscodeException(string message, Snapshot snapshot) : base(6, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_STORAGE: the store could not be read or written. From an
    /// event: it locked and the lock could not be saved (LOCKED anyway: Snapshot).</summary>
    public class StorageException : IdleLockException
    {
        public StorageException(string message, Snapshot snapshot) : base(7, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_NOT_FOUND: no secret has that name.</summary>
    public class NotFoundException : IdleLockException
    {
        public NotFoundException(string message) : base(8, message, null) { }
    }

    /// <summary>IDLELOCK_ERR_BUFFER_TOO_SMALL: the binding sizes its buffers itself, so only
    /// a library that breaks its contract produces it.</summary>
    public class BufferTooSmallException : IdleLockException
    {
        public BufferTooSmallException(string message) : base(9, message, null) { }
    }

    /// <summary>IDLELOCK_ERR_NO_MEMORY: Argon2id's memory or secure memory; also a 257th secret.</summary>
    public class NoMemoryException : IdleLockException
    {
        public NoMemoryException(string message, Snapshot snapshot) : base(10, message, snapshot) { }
    }

    /// <summary>IDLELOCK_ERR_INTERNAL: a failure inside the library or libsodium; the message says which step.</summary>
    public class InternalException : IdleLockException
    {
        public InternalException(string message, Snapshot snapshot) : base(11, message, snapshot) { }
    }

    /// <summary>(1.1) IDLELOCK_ERR_RETRY_LATER: an escalating delay is running; not counted.</summary>
    public class RetryLaterException : IdleLockException
    {
        public RetryLaterException(string message, Snapshot snapshot) : base(12, message, snapshot) { }
        /// <summary>Milliseconds until an attempt is accepted again, or -1 without a snapshot.</summary>
        public long MsUntilRetry { get { return Snapshot == null ? -1 : Snapshot.MsUntilRetry; } }
        public TimeSpan RetryAfter { get { return TimeSpan.FromMilliseconds(Math.Max(0, MsUntilRetry)); } }
    }

    /// <summary>A listener, the clock or the authenticator threw while the library ran it
    /// inside a call on this thread. The binding never lets an exception unwind into C
    /// (that would crash Mono and IL2CPP): it catches it, lets the call finish (a clock
    /// that threw reads as the earliest time, so an engaged unlocked session locks with
    /// LockReason.Clock; an authenticator that threw is a failed check), and throws this
    /// from the call. InnerExceptions holds them in order; CallFailure the call's own
    /// failure, when it also failed.</summary>
    public class CallbackException : AggregateException
    {
        public CallbackException(IList<Exception> errors, IdleLockException callFailure)
            : base("a listener, the clock or the authenticator threw: " + errors[0].Message, errors)
        {
            CallFailure = callFailure;
        }

        public IdleLockException CallFailure { get; private set; }
    }

    /// <summary>Thrown by an IAuthenticator for a check that did not release the secret:
    /// Failed, Cancelled or Unavailable (Ok is treated as Failed).</summary>
    public class AuthenticationException : Exception
    {
        public AuthenticationException(AuthResult result, string message) : base(message)
        {
            Result = result == AuthResult.Ok ? AuthResult.Failed : result;
        }

        public AuthResult Result { get; private set; }
    }
}
