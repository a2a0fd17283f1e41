# SPDX-License-Identifier: MIT
# Generated from include/idlelock.h by scripts/gen-bindings.py; do not edit.
"""The C interface as ctypes sees it (include/idlelock.h 1.2.2): its
constants, its structs as Structures, its callback types, every function's
restype and argtypes, and the tables the idiomatic layer uses. Private:
:mod:`idlelock._ffi` loads the library and declares the functions."""

from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_int, c_int32, c_int64,
                    c_size_t, c_uint8, c_uint32, c_uint64, c_void_p)
from typing import Any, Dict, List, Tuple

# The header's version (the library's own is idlelock_version()).
HEADER_VERSION_MAJOR = 1
HEADER_VERSION_MINOR = 2
HEADER_VERSION_PATCH = 2
HEADER_VERSION_STRING = "1.2.2"
HEADER_VERSION_NUMBER = 10202

# Statuses.
OK = 0
ERR_INVALID_ARGUMENT = 1
ERR_SESSION_LOCKED = 2
ERR_INVALID_PASSCODE = 3
ERR_LOCKED_OUT = 4
ERR_LOCK_UNAVAILABLE = 5
ERR_NO_PASSCODE = 6
ERR_STORAGE = 7
ERR_NOT_FOUND = 8
ERR_BUFFER_TOO_SMALL = 9
ERR_NO_MEMORY = 10
ERR_INTERNAL = 11
ERR_RETRY_LATER = 12
ERR_REAUTH_REQUIRED = 13

# Constants.
NEVER = 9223372036854775807  # INT64_MAX
SAME_AS_IDLE = -1  # ((int64_t)-1)
STATE_UNLOCKED = 0
STATE_LOCKED = 1
STATE_LOCKED_OUT = 2
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
KDF_OPSLIMIT_MIN = 2
KDF_OPSLIMIT_MAX = 10
KDF_MEMLIMIT_MIN = 19922944  # ((uint64_t)19 * 1024 * 1024)
KDF_MEMLIMIT_MAX = 1073741824  # ((uint64_t)1024 * 1024 * 1024)
PASSCODE_MAX_AGE_MIN_MS = 3600000  # ((int64_t)3600000)
PASSCODE_MAX_AGE_MAX_MS = 2592000000  # ((int64_t)2592000000)
BIOMETRIC_MAX_USES_MAX = 1000
RECENT_AUTH_MAX_MS = 2592000000  # ((int64_t)2592000000)
#: the check passed; the secret was written
AUTH_OK = 0
#: the check failed (wrong face/finger, locked sensor)
AUTH_FAILED = 1
#: the user or the system cancelled the prompt
AUTH_CANCELLED = 2
#: no item, no enrolment, no hardware
AUTH_UNAVAILABLE = 3
AUTH_SECRET_BYTES = 32
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
#: unlock (or re-authenticate) with the shortcut
BIOMETRIC_UNLOCK = 1
#: turn the shortcut on
BIOMETRIC_ENABLE = 2
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
