// SPDX-License-Identifier: MIT
//
// The exceptions of the binding. The hierarchy follows .NET's own rules:
//
//   ArgumentNullException              a null argument (ParamName names it)
//   ArgumentException
//     ArgumentOutOfRangeException      a negative offset or count
//     InvalidArgumentException         an invalid value: the library's status 1
//                                      (IDLELOCK_ERR_INVALID_ARGUMENT) and the
//                                      binding's own checks
//   IdleLockException                  every other status of the library, one
//     SessionLockedException, ...      subclass per status
//
// Every exception that carries a status (InvalidArgumentException and every
// IdleLockException) implements IIdleLockError, so one clause catches all of
// them: catch (Exception e) when (e is IIdleLockError).
using System;
using System.Collections.Generic;

namespace LibIdleLock
{
    /// <summary>What every exception that reports a library status has: InvalidArgumentException
    /// (an ArgumentException) and IdleLockException (every other status). Catch them all with
    /// <c>catch (Exception e) when (e is IIdleLockError)</c>.</summary>
    public interface IIdleLockError
    {
        /// <summary>The C status (IDLELOCK_ERR_*): 1 for InvalidArgumentException.</summary>
        int Status { get; }
        /// <summary>The status's fixed name ("IDLELOCK_ERR_SESSION_LOCKED").</summary>
        string StatusName { get; }
        /// <summary>The state after the call, for the calls that report one; else null
        /// (always null for InvalidArgumentException: the call changed nothing).</summary>
        Snapshot Snapshot { get; }
    }

    /// <summary>A libidlelock call failed with a status other than INVALID_ARGUMENT (which is
    /// InvalidArgumentException, an ArgumentException). Each status has its subclass; a status
    /// this binding does not know (a newer library's) is thrown as this class. Status is the
    /// C code, Message the library's (idlelock_last_error, read right after the call on
    /// the same thread, in the binding's names) or the binding's own, Snapshot the state
    /// after the call when the call reports one (events, unlocks), else null.</summary>
    public class IdleLockException : Exception, IIdleLockError
    {
        public IdleLockException(int status, string message, Snapshot snapshot) : base(message)
        {
            Status = status;
            Snapshot = snapshot;
        }

        public int Status { get; private set; }
        public string StatusName { get { return IdleLock.StatusName(Status); } }
        public Snapshot Snapshot { get; private set; }

        /// <summary>The exception for a status (1: InvalidArgumentException); message
        /// is the library's, translated here into the binding's names.</summary>
        internal static Exception For(int status, string message, Snapshot snapshot)
        {
            message = Messages.Translate(message);
            return HeaderTables.ExceptionFor(status, message, snapshot);
        }
    }

    /// <summary>IDLELOCK_ERR_INVALID_ARGUMENT: a malformed or out-of-range argument or option
    /// (the message names it in the binding's words; ParamName too where the binding knows it);
    /// the call changed nothing. Also the binding's own checks of values. An ArgumentException,
    /// as .NET's own invalid arguments are; a null argument is ArgumentNullException instead.
    /// Not an IdleLockException (a class has one base): IIdleLockError is what both share.</summary>
    public class InvalidArgumentException : ArgumentException, IIdleLockError
    {
        public InvalidArgumentException(string message) : base(message) { }
        public InvalidArgumentException(string message, string paramName) : base(message, paramName) { }

        /// <summary>1 (IDLELOCK_ERR_INVALID_ARGUMENT).</summary>
        public int Status { get { return 1; } }
        public string StatusName { get { return IdleLock.StatusName(1); } }
        /// <summary>Always null: a call refused for its arguments changed nothing.</summary>
        public Snapshot Snapshot { get { return null; } }
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

    /// <summary>(1.2) IDLELOCK_ERR_REAUTH_REQUIRED (idlelock_require_recent_auth): the last
    /// successful authentication is older than the caller allows; ask again.</summary>
    public class ReauthRequiredException : IdleLockException
    {
        public ReauthRequiredException(string message, Snapshot snapshot) : base(13, message, snapshot) { }
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
        public CallbackException(IList<Exception> errors, Exception callFailure)
            : base("a listener, the clock or the authenticator threw: " + errors[0].Message, errors)
        {
            CallFailure = callFailure;
        }

        /// <summary>The call's own failure (an IdleLockException or InvalidArgumentException),
        /// or null when the call itself succeeded.</summary>
        public Exception CallFailure { get; private set; }
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
