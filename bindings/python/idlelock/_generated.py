# SPDX-License-Identifier: MIT
# Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
"""The C interface as ctypes sees it (include/idlelock.h 1.2.2): its
constants, its structs as Structures, its callback types, every function's
restype and argtypes, and the tables the idiomatic layer uses. Private:
:mod:`idlelock._ffi` loads the library and declares the functions."""

from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_int, c_int32, c_int64,
                    c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)
from typing import Any, Dict, List, Tuple

# The header's version. idlelock_version() returns the library's version as the string
# "MAJOR.MINOR.PATCH", and idlelock_version_number() returns MAJOR * 10000 + MINOR * 100 + PATCH.
# The ABI major is also the soname's number (libidlelock.so.1). A host may compare
# IDLELOCK_VERSION_NUMBER with idlelock_version_number() at run time: the same major is
# ABI-compatible; a library minor at least the header's has every function the header declares.
HEADER_VERSION_MAJOR = 1
HEADER_VERSION_MINOR = 2
HEADER_VERSION_PATCH = 2
HEADER_VERSION_STRING = "1.2.2"
HEADER_VERSION_NUMBER = 10202

# Success.
OK = 0

# A NULL or malformed argument, a wrong struct size, invalid UTF-8, or a configuration value out of
# range. Nothing was changed.
ERR_INVALID_ARGUMENT = 1

# The session is locked (LOCKED or LOCKED_OUT): secrets and the gate are closed, and a locked
# session cannot replace its own passcode. Also returned by an unlock whose result was overtaken by
# a lock that happened while it ran.
ERR_SESSION_LOCKED = 2

# The passcode did not open the lock. The attempt was counted; the snapshot and the message say how
# many attempts remain.
ERR_INVALID_PASSCODE = 3

# Too many wrong passcodes: the session is LOCKED_OUT and only idlelock_disable() (signing out)
# leaves that state.
ERR_LOCKED_OUT = 4

# The biometric shortcut is not enabled, not available, failed or was cancelled. The passcode still
# works.
ERR_LOCK_UNAVAILABLE = 5

# No passcode is set: the lock is not engaged.
ERR_NO_PASSCODE = 6

# The store could not be read or written, or it is damaged (present but cut short, failing its
# integrity check, foreign, of a newer format, or not a regular file: the session then locks).
ERR_STORAGE = 7

# No secret has that name.
ERR_NOT_FOUND = 8

# The caller's buffer is too small; the needed size was written back.
ERR_BUFFER_TOO_SMALL = 9

# Memory (or secure memory, sodium_malloc) could not be allocated.
ERR_NO_MEMORY = 10

# A failure inside the library or libsodium that is not the caller's; the message says which step.
ERR_INTERNAL = 11

# (1.1) An escalating delay is running after wrong passcodes: try again in out->ms_until_retry ms.
# The attempt was not counted and no key derivation ran.
ERR_RETRY_LATER = 12

# (1.2) idlelock_require_recent_auth: the session is unlocked, but its last successful
# authentication is older than the caller allows. Ask the user again (idlelock_unlock, or the
# biometric shortcut on the unlocked session), then repeat the check.
ERR_REAUTH_REQUIRED = 13

# "No deadline": a timeout of IDLELOCK_NEVER never passes.
NEVER = 9223372036854775807  # INT64_MAX

# background_after_ms only: use the value of idle_after_ms.
SAME_AS_IDLE = -1  # ((int64_t)-1)

# Lock states (idlelock_snapshot.state).
STATE_UNLOCKED = 0
STATE_LOCKED = 1
STATE_LOCKED_OUT = 2

# Why the session is locked (idlelock_snapshot.reason).
#: unlocked, or locked out from unlocked
REASON_NONE = 0
#: idle timeout passed in the foreground
REASON_IDLE = 1
#: away for the background timeout
REASON_BACKGROUNDED = 2
#: lock_on_start, a restart check, or the store (another sign-in's, or damaged)
REASON_STARTUP = 3
#: idlelock_lock() ("Lock now")
REASON_MANUAL = 4
#: the clock read earlier than before
REASON_CLOCK = 5

# Limits, checked with IDLELOCK_ERR_INVALID_ARGUMENT.
GRACE_MAX_MS = 60000
MAX_ATTEMPTS_MAX = 100
#: Unicode scalar values, set_passcode only
PASSCODE_MIN_SCALARS = 4
PASSCODE_MAX_BYTES = 1024
SECRET_NAME_MAX_BYTES = 64
SECRET_VALUE_MAX_BYTES = 65536
#: secrets held by one session
SECRETS_MAX = 256
#: listeners on one handle
LISTENERS_MAX = 64
UNLOCK_REASON_MAX_BYTES = 512
DEVICE_KEY_BYTES = 32

# Argon2id cost bounds. The floor is OWASP's Password Storage Cheat Sheet minimum for Argon2id (19
# MiB, 2 passes); the defaults are libsodium's crypto_pwhash_OPSLIMIT_INTERACTIVE /
# MEMLIMIT_INTERACTIVE (2, 64 MiB).
KDF_OPSLIMIT_MIN = 2
KDF_OPSLIMIT_MAX = 10
KDF_MEMLIMIT_MIN = 19922944  # ((uint64_t)19 * 1024 * 1024)
KDF_MEMLIMIT_MAX = 1073741824  # ((uint64_t)1024 * 1024 * 1024)

# (1.2) The passcode policies' bounds (config.passcode_max_age_ms: 0 or 1 hour .. 30 days;
# config.biometric_max_uses: 0 or 1..1000) and idlelock_require_recent_auth's max_age_ms (1 .. 30
# days).
PASSCODE_MAX_AGE_MIN_MS = 3600000  # ((int64_t)3600000)
PASSCODE_MAX_AGE_MAX_MS = 2592000000  # ((int64_t)2592000000)
BIOMETRIC_MAX_USES_MAX = 1000
RECENT_AUTH_MAX_MS = 2592000000  # ((int64_t)2592000000)

# What idlelock_authenticator.load_secret reports.
#: the check passed; the secret was written
AUTH_OK = 0
#: the check failed (wrong face/finger, locked sensor)
AUTH_FAILED = 1
#: the user or the system cancelled the prompt
AUTH_CANCELLED = 2
#: no item, no enrolment, no hardware
AUTH_UNAVAILABLE = 3

# The biometric shortcut's bytes: the secret the host keeps in its keystore.
AUTH_SECRET_BYTES = 32

# Lifecycle adapters: a platform's own state names, mapped by the library so no host maps them the
# wrong way round (the table and its sources are in docs/LIFECYCLE.md). `platform` is one of:
#: SwiftUI ScenePhase
PLATFORM_IOS_SCENE_PHASE = 1
#: UIApplication.State
PLATFORM_IOS_APPLICATION_STATE = 2
#: androidx Lifecycle.Event
PLATFORM_ANDROID_LIFECYCLE_EVENT = 3
#: Flutter AppLifecycleState
PLATFORM_FLUTTER_APP_LIFECYCLE_STATE = 4
#: React Native AppState
PLATFORM_REACT_NATIVE_APP_STATE = 5

# Purposes of a biometric request.
#: unlock (or re-authenticate) with the shortcut
BIOMETRIC_UNLOCK = 1
#: turn the shortcut on
BIOMETRIC_ENABLE = 2

# Requests open at once on one handle.
BIOMETRIC_REQUESTS_MAX = 8

# Bounds the header states in its prose.
PROMPT_CAP_MAX_MS = 600000
DELAY_MAX_MS = 86400000
DELAY_SCHEDULE_MAX_STEPS = 32


class Handle(Structure):
    """``struct idlelock`` (opaque: only ever used through a pointer)."""


HandleP = POINTER(Handle)

# idlelock_clock_fn
CLOCK_FN = CFUNCTYPE(c_int64, c_void_p)

# idlelock_authenticator.is_available
AUTH_IS_AVAILABLE_FN = CFUNCTYPE(c_int32, c_void_p)
# idlelock_authenticator.store_secret
AUTH_STORE_SECRET_FN = CFUNCTYPE(c_int32, c_void_p, POINTER(c_uint8), c_size_t)
# idlelock_authenticator.load_secret
AUTH_LOAD_SECRET_FN = CFUNCTYPE(c_int32, c_void_p, c_char_p, c_void_p, c_size_t, POINTER(c_size_t))
# idlelock_authenticator.delete_secret
AUTH_DELETE_SECRET_FN = CFUNCTYPE(c_int32, c_void_p)


class AuthenticatorStruct(Structure):
    """Mirror of ``idlelock_authenticator``."""

    _fields_ = [
        ("size", c_uint32),
        ("reserved0", c_uint32),
        ("ctx", c_void_p),
        ("is_available", AUTH_IS_AVAILABLE_FN),
        ("store_secret", AUTH_STORE_SECRET_FN),
        ("load_secret", AUTH_LOAD_SECRET_FN),
        ("delete_secret", AUTH_DELETE_SECRET_FN),
    ]


class DelayStep(Structure):
    """Mirror of ``idlelock_delay_step``."""

    _fields_ = [
        ("failed_attempts", c_int32),
        ("reserved0", c_int32),
        ("delay_ms", c_int64),
    ]


class Config(Structure):
    """Mirror of ``idlelock_config``."""

    _fields_ = [
        ("size", c_uint32),
        ("lock_on_start", c_int32),
        ("idle_after_ms", c_int64),
        ("background_after_ms", c_int64),
        ("inactive_after_ms", c_int64),
        ("grace_ms", c_int64),
        ("max_attempts", c_int32),
        ("reserved0", c_uint32),
        ("kdf_opslimit", c_uint64),
        ("kdf_memlimit", c_uint64),
        ("store_path", c_char_p),
        ("clock", CLOCK_FN),
        ("clock_ctx", c_void_p),
        ("authenticator", POINTER(AuthenticatorStruct)),
        ("unlock_reason", c_char_p),
        ("device_key", POINTER(c_uint8)),
        ("device_key_len", c_size_t),
        ("prompt_cap_ms", c_int64),
        ("warn_before_ms", c_int64),
        ("delay_schedule", POINTER(DelayStep)),
        ("delay_schedule_len", c_size_t),
        ("passcode_max_age_ms", c_int64),
        ("passcode_after_reboot", c_int32),
        ("biometric_max_uses", c_int32),
    ]


class SnapshotStruct(Structure):
    """Mirror of ``idlelock_snapshot``."""

    _fields_ = [
        ("size", c_uint32),
        ("state", c_int32),
        ("seq", c_uint64),
        ("reason", c_int32),
        ("is_enabled", c_int32),
        ("is_biometrics_enabled", c_int32),
        ("is_biometrics_available", c_int32),
        ("is_away", c_int32),
        ("attempts_remaining", c_int32),
        ("last_activity_ms", c_int64),
        ("ms_until_idle_lock", c_int64),
        ("is_warning", c_int32),
        ("reserved1", c_int32),
        ("ms_until_warning", c_int64),
        ("ms_until_retry", c_int64),
        ("ms_until_next_deadline", c_int64),
        ("is_passcode_required", c_int32),
        ("reserved2", c_int32),
        ("last_auth_ms", c_int64),
    ]

# idlelock_listener_fn
LISTENER_FN = CFUNCTYPE(None, c_void_p, POINTER(SnapshotStruct))

# The mirrors by their C names.
STRUCTS: Dict[str, Any] = {
    "idlelock_authenticator": AuthenticatorStruct,
    "idlelock_delay_step": DelayStep,
    "idlelock_config": Config,
    "idlelock_snapshot": SnapshotStruct,
}

# Every function: (name, restype, argtypes, kind); kind is "status" (an
# IDLELOCK_* status), "string" (a static C string), "value" or "void".
FUNCTIONS: List[Tuple[str, Any, List[Any], str]] = [
    ("idlelock_delay_schedule_ios", c_int, [POINTER(POINTER(DelayStep)), POINTER(c_size_t)], "status"),
    ("idlelock_config_init", c_int, [POINTER(Config), c_size_t], "status"),
    ("idlelock_create", c_int, [POINTER(Config), POINTER(HandleP)], "status"),
    ("idlelock_destroy", None, [HandleP], "void"),
    ("idlelock_watch_start", c_int, [HandleP], "status"),
    ("idlelock_watch_stop", c_int, [HandleP], "status"),
    ("idlelock_start", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_touch", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_inactive", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_background", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_foreground", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_check", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_lock", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_lifecycle", c_int, [HandleP, c_int32, c_char_p, POINTER(SnapshotStruct)], "status"),
    ("idlelock_prompt_begin", c_int, [HandleP, POINTER(c_uint64)], "status"),
    ("idlelock_prompt_end", c_int, [HandleP, c_uint64], "status"),
    ("idlelock_snapshot_get", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_set_passcode", c_int, [HandleP, POINTER(c_char), c_size_t], "status"),
    ("idlelock_unlock", c_int, [HandleP, POINTER(c_char), c_size_t, POINTER(SnapshotStruct)], "status"),
    ("idlelock_enable_biometrics", c_int, [HandleP], "status"),
    ("idlelock_disable_biometrics", c_int, [HandleP], "status"),
    ("idlelock_unlock_with_biometrics", c_int, [HandleP, POINTER(SnapshotStruct)], "status"),
    ("idlelock_biometric_begin", c_int, [HandleP, c_int32, POINTER(c_uint64), POINTER(c_uint8), c_size_t, POINTER(SnapshotStruct)], "status"),
    ("idlelock_biometric_finish", c_int, [HandleP, c_uint64, c_int32, POINTER(c_uint8), c_size_t, POINTER(SnapshotStruct)], "status"),
    ("idlelock_require_recent_auth", c_int, [HandleP, c_int64], "status"),
    ("idlelock_disable", c_int, [HandleP], "status"),
    ("idlelock_subscribe", c_int, [HandleP, LISTENER_FN, c_void_p, POINTER(c_uint64)], "status"),
    ("idlelock_unsubscribe", c_int, [HandleP, c_uint64], "status"),
    ("idlelock_secret_put", c_int, [HandleP, c_char_p, POINTER(c_uint8), c_size_t], "status"),
    ("idlelock_secret_get", c_int, [HandleP, c_char_p, POINTER(c_uint8), POINTER(c_size_t)], "status"),
    ("idlelock_secret_remove", c_int, [HandleP, c_char_p], "status"),
    ("idlelock_require_unlocked", c_int, [HandleP], "status"),
    ("idlelock_status_name", c_char_p, [c_int], "string"),
    ("idlelock_last_error", c_char_p, [], "string"),
    ("idlelock_version", c_char_p, [], "string"),
    ("idlelock_version_number", c_int, [], "value"),
    ("idlelock_config_size", c_size_t, [], "value"),
    ("idlelock_snapshot_size", c_size_t, [], "value"),
    ("idlelock_authenticator_size", c_size_t, [], "value"),
    ("idlelock_delay_step_size", c_size_t, [], "value"),
]

# C name -> Python's, for the library's messages (bindings/names.txt).
NAMES: Dict[str, str] = {
    "IDLELOCK_PLATFORM_FLUTTER_APP_LIFECYCLE_STATE": "Platform.FLUTTER_APP_LIFECYCLE_STATE",
    "IDLELOCK_PLATFORM_ANDROID_LIFECYCLE_EVENT": "Platform.ANDROID_LIFECYCLE_EVENT",
    "IDLELOCK_PLATFORM_REACT_NATIVE_APP_STATE": "Platform.REACT_NATIVE_APP_STATE",
    "IDLELOCK_PLATFORM_IOS_APPLICATION_STATE": "Platform.IOS_APPLICATION_STATE",
    "IDLELOCK_PLATFORM_IOS_SCENE_PHASE": "Platform.IOS_SCENE_PHASE",
    "IDLELOCK_BIOMETRIC_REQUESTS_MAX": "BIOMETRIC_REQUESTS_MAX",
    "idlelock_unlock_with_biometrics": "unlock_with_biometrics()",
    "IDLELOCK_REASON_BACKGROUNDED": "Reason.BACKGROUNDED",
    "idlelock_disable_biometrics": "disable_biometrics()",
    "IDLELOCK_AUTH_SECRET_BYTES": "AUTH_SECRET_BYTES",
    "idlelock_enable_biometrics": "enable_biometrics()",
    "IDLELOCK_AUTH_UNAVAILABLE": "AuthResult.UNAVAILABLE",
    "IDLELOCK_BIOMETRIC_ENABLE": "BiometricPurpose.ENABLE",
    "IDLELOCK_BIOMETRIC_UNLOCK": "BiometricPurpose.UNLOCK",
    "IDLELOCK_STATE_LOCKED_OUT": "State.LOCKED_OUT",
    "idlelock_biometric_finish": "BiometricRequest.finish()",
    "idlelock_biometric_begin": "begin_biometric_unlock()",
    "IDLELOCK_AUTH_CANCELLED": "AuthResult.CANCELLED",
    "IDLELOCK_REASON_STARTUP": "Reason.STARTUP",
    "IDLELOCK_STATE_UNLOCKED": "State.UNLOCKED",
    "IDLELOCK_REASON_MANUAL": "Reason.MANUAL",
    "IDLELOCK_REASON_CLOCK": "Reason.CLOCK",
    "IDLELOCK_SAME_AS_IDLE": "SAME_AS_IDLE",
    "IDLELOCK_STATE_LOCKED": "State.LOCKED",
    "idlelock_prompt_begin": "prompt_begin()",
    "idlelock_set_passcode": "set_passcode()",
    "IDLELOCK_AUTH_FAILED": "AuthResult.FAILED",
    "IDLELOCK_BIOMETRIC_*": "BiometricPurpose",
    "IDLELOCK_REASON_IDLE": "Reason.IDLE",
    "IDLELOCK_REASON_NONE": "Reason.NONE",
    "IDLELOCK_PLATFORM_*": "Platform",
    "idlelock_prompt_end": "prompt_end()",
    "idlelock_lifecycle": "lifecycle()",
    "IDLELOCK_REASON_*": "Reason",
    "IDLELOCK_AUTH_OK": "AuthResult.OK",
    "IDLELOCK_STATE_*": "State",
    "idlelock_disable": "disable()",
    "IDLELOCK_AUTH_*": "AuthResult",
    "idlelock_unlock": "unlock()",
    "IDLELOCK_NEVER": "None (never)",
    "idlelock_check": "check()",
    "idlelock_start": "start()",
    "idlelock_lock": "lock()",
    "secret_len": "the secret's length",
}

# Status -> the name of its exception class (errors.py).
STATUS_CLASSES: Dict[int, str] = {
    1: "InvalidArgumentError",  # IDLELOCK_ERR_INVALID_ARGUMENT
    2: "SessionLockedError",  # IDLELOCK_ERR_SESSION_LOCKED
    3: "InvalidPasscodeError",  # IDLELOCK_ERR_INVALID_PASSCODE
    4: "LockedOutError",  # IDLELOCK_ERR_LOCKED_OUT
    5: "LockUnavailableError",  # IDLELOCK_ERR_LOCK_UNAVAILABLE
    6: "NoPasscodeError",  # IDLELOCK_ERR_NO_PASSCODE
    7: "StorageError",  # IDLELOCK_ERR_STORAGE
    8: "NotFoundError",  # IDLELOCK_ERR_NOT_FOUND
    9: "BufferTooSmallError",  # IDLELOCK_ERR_BUFFER_TOO_SMALL
    10: "NoMemoryError",  # IDLELOCK_ERR_NO_MEMORY
    11: "InternalError",  # IDLELOCK_ERR_INTERNAL
    12: "RetryLaterError",  # IDLELOCK_ERR_RETRY_LATER
    13: "ReauthRequiredError",  # IDLELOCK_ERR_REAUTH_REQUIRED
}
