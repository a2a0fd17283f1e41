# SPDX-License-Identifier: MIT
"""ctypes declarations for libidlelock (``include/idlelock.h`` 1.2, ABI v1).

This module is private: use :mod:`idlelock`. It finds and loads the shared
library, declares ``argtypes``/``restype``/``errcheck`` for every function of
the header, mirrors ``idlelock_config``, ``idlelock_snapshot`` and
``idlelock_authenticator`` and ``idlelock_delay_step`` as
:class:`ctypes.Structure` subclasses, and
checks those mirrors against the library (and the authenticator's against
the header's layout) at load time.

Library lookup order (the first that exists wins):

1. the environment variable ``IDLELOCK_LIBRARY``: a path to the shared
   library. When it is set it is the *only* place tried: a wrong override
   fails loudly instead of silently loading some other copy;
2. the library bundled in the package, ``<package>/libidlelock.so``: the
   platform wheel (``make wheel``) carries the self-contained variant there,
   libsodium linked in. When the file is there it is the only place tried
   (after step 1): a bundled library that cannot load (another CPU, a glibc
   older than its floor) is an error that says why, never a silent switch to
   a system copy of another version;
3. the repository's build output relative to this package,
   ``<package>/../../../build/libidlelock.so.1``, **only when the package
   really sits in a source checkout**: the package folder is
   ``<repo>/bindings/python/idlelock`` (symlinks resolved) and
   ``<repo>/include/idlelock.h`` exists beside that ``build/`` folder. An
   installed package (``site-packages``, a wheel, a zip) never loads a
   library from a path relative to its own location (other than its own
   bundled copy, step 2); it goes on to step 4;
4. the system loader: ``libidlelock.so.1`` (``LD_LIBRARY_PATH``, ldconfig).

When none loads, :class:`LibraryNotFoundError` (an :class:`ImportError`)
names every place tried and why it failed.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char,
    c_char_p,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any, List, Optional, Tuple

__all__ = [
    "LibraryNotFoundError",
    "lib",
    "library_path",
    "Config",
    "SnapshotStruct",
    "Handle",
    "CLOCK_FN",
    "LISTENER_FN",
    "AuthenticatorStruct",
    "DelayStep",
    "AUTH_IS_AVAILABLE_FN",
    "AUTH_STORE_SECRET_FN",
    "AUTH_LOAD_SECRET_FN",
    "AUTH_DELETE_SECRET_FN",
    "StatusCode",
]

# --------------------------------------------------------------------------
# Constants (the header's macros; bindings cannot read macros)
# --------------------------------------------------------------------------

HEADER_VERSION_MAJOR = 1
HEADER_VERSION_MINOR = 2
HEADER_VERSION_PATCH = 2
HEADER_VERSION_STRING = "1.2.2"
HEADER_VERSION_NUMBER = 10202

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
ERR_RETRY_LATER = 12  # 1.1: an escalating delay is running (snapshot.ms_until_retry)
ERR_REAUTH_REQUIRED = 13  # 1.2: idlelock_require_recent_auth: authenticate again

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

NEVER = INT64_MAX  # IDLELOCK_NEVER
SAME_AS_IDLE = -1  # IDLELOCK_SAME_AS_IDLE

STATE_UNLOCKED = 0
STATE_LOCKED = 1
STATE_LOCKED_OUT = 2

REASON_NONE = 0
REASON_IDLE = 1
REASON_BACKGROUNDED = 2
REASON_STARTUP = 3
REASON_MANUAL = 4
REASON_CLOCK = 5

GRACE_MAX_MS = 60000
MAX_ATTEMPTS_MAX = 100
PASSCODE_MIN_SCALARS = 4
PASSCODE_MAX_BYTES = 1024
SECRET_NAME_MAX_BYTES = 64
SECRET_VALUE_MAX_BYTES = 65536
SECRETS_MAX = 256
LISTENERS_MAX = 64
UNLOCK_REASON_MAX_BYTES = 512
DEVICE_KEY_BYTES = 32
KDF_OPSLIMIT_MIN = 2
KDF_OPSLIMIT_MAX = 10
KDF_MEMLIMIT_MIN = 19 * 1024 * 1024
KDF_MEMLIMIT_MAX = 1024 * 1024 * 1024

# prompt_cap_ms (added in 1.1): 0..PROMPT_CAP_MAX_MS, library default 120000.
# The header states the bound in the field's comment, not as a macro.
PROMPT_CAP_MAX_MS = 600000

# Escalating delays (1.1), also stated in the header's comments, not as
# macros: a step's delay_ms is 1..DELAY_MAX_MS (one day), a schedule has at
# most DELAY_SCHEDULE_MAX_STEPS steps.
DELAY_MAX_MS = 86_400_000
DELAY_SCHEDULE_MAX_STEPS = 32

# idlelock_lifecycle platforms (IDLELOCK_PLATFORM_*, added in 1.1).
PLATFORM_IOS_SCENE_PHASE = 1  # SwiftUI ScenePhase
PLATFORM_IOS_APPLICATION_STATE = 2  # UIApplication.State
PLATFORM_ANDROID_LIFECYCLE_EVENT = 3  # androidx Lifecycle.Event
PLATFORM_FLUTTER_APP_LIFECYCLE_STATE = 4  # Flutter AppLifecycleState
PLATFORM_REACT_NATIVE_APP_STATE = 5  # React Native AppState

# What idlelock_authenticator.load_secret reports (IDLELOCK_AUTH_*).
AUTH_OK = 0  # the check passed; the secret was written
AUTH_FAILED = 1  # the check failed (wrong face/finger, locked sensor)
AUTH_CANCELLED = 2  # the user or the system cancelled the prompt
AUTH_UNAVAILABLE = 3  # no item, no enrolment, no hardware
# The biometric shortcut's bytes: the secret the host keeps in its keystore.
AUTH_SECRET_BYTES = 32
# 1.2: the two-phase pair's purposes (IDLELOCK_BIOMETRIC_*), and how many
# requests may be open on one handle.
BIOMETRIC_UNLOCK = 1
BIOMETRIC_ENABLE = 2
BIOMETRIC_REQUESTS_MAX = 8
# 1.2: the passcode policies' bounds and require_recent_auth's.
PASSCODE_MAX_AGE_MIN_MS = 3_600_000
PASSCODE_MAX_AGE_MAX_MS = 2_592_000_000
BIOMETRIC_MAX_USES_MAX = 1000
RECENT_AUTH_MAX_MS = 2_592_000_000
# The header's names, for code that greps for them.
IDLELOCK_AUTH_OK = AUTH_OK
IDLELOCK_AUTH_FAILED = AUTH_FAILED
IDLELOCK_AUTH_CANCELLED = AUTH_CANCELLED
IDLELOCK_AUTH_UNAVAILABLE = AUTH_UNAVAILABLE
IDLELOCK_AUTH_SECRET_BYTES = AUTH_SECRET_BYTES

# --------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------


class Handle(Structure):
    """``struct idlelock`` (opaque; only ever used through a pointer)."""


HandleP = POINTER(Handle)

# int64_t (*idlelock_clock_fn)(void *ctx)
CLOCK_FN = CFUNCTYPE(c_int64, c_void_p)


# The host authenticator's callbacks (idlelock_authenticator):
# int32_t (*is_available)(void *ctx)
AUTH_IS_AVAILABLE_FN = CFUNCTYPE(c_int32, c_void_p)
# int32_t (*store_secret)(void *ctx, const uint8_t *secret, size_t len)
AUTH_STORE_SECRET_FN = CFUNCTYPE(c_int32, c_void_p, POINTER(c_uint8), c_size_t)
# int32_t (*load_secret)(void *ctx, const char *reason, uint8_t *out, size_t cap,
#                        size_t *out_len)
# `out` is declared c_void_p (same ABI as uint8_t *): the trampoline gets
# the address as an int for ctypes.memmove.
AUTH_LOAD_SECRET_FN = CFUNCTYPE(c_int32, c_void_p, c_char_p, c_void_p, c_size_t, POINTER(c_size_t))
# int32_t (*delete_secret)(void *ctx)
AUTH_DELETE_SECRET_FN = CFUNCTYPE(c_int32, c_void_p)


class AuthenticatorStruct(Structure):
    """Mirror of ``idlelock_authenticator`` (size u32, reserved0 u32, ctx, then
    the four callbacks). 48 bytes on LP64: :func:`_check_abi` checks the
    layout against the C rules (natural alignment) and the size against
    ``idlelock_authenticator_size()`` (1.2)."""

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
    """Mirror of ``idlelock_delay_step`` (1.1): ``failed_attempts`` int32,
    ``reserved0`` int32 (must be 0), ``delay_ms`` int64; 16 bytes.
    :func:`_check_abi` checks the layout against the C rules, the size
    against ``idlelock_delay_step_size()`` (1.2), and the iOS preset the
    library hands out."""

    _fields_ = [
        ("failed_attempts", c_int32),
        ("reserved0", c_int32),
        ("delay_ms", c_int64),
    ]


class Config(Structure):
    """Mirror of ``idlelock_config`` (field order and types as in the 1.2
    header: the 1.0 fields, then 1.1's ``prompt_cap_ms``, ``warn_before_ms``,
    ``delay_schedule`` and ``delay_schedule_len``, then 1.2's
    ``passcode_max_age_ms``, ``passcode_after_reboot`` and
    ``biometric_max_uses``)."""

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
        # ---- added in 1.1 (a 1.0-sized config still works: the library
        # then uses the defaults for what the size does not cover) ----
        ("prompt_cap_ms", c_int64),
        ("warn_before_ms", c_int64),
        ("delay_schedule", POINTER(DelayStep)),
        ("delay_schedule_len", c_size_t),
        # ---- added in 1.2: the passcode policies ----
        ("passcode_max_age_ms", c_int64),
        ("passcode_after_reboot", c_int32),
        ("biometric_max_uses", c_int32),
    ]


class SnapshotStruct(Structure):
    """Mirror of ``idlelock_snapshot`` (1.2: the 1.0 fields, then 1.1's
    ``is_warning``, ``reserved1``, ``ms_until_warning``, ``ms_until_retry``
    and ``ms_until_next_deadline``, then 1.2's ``is_passcode_required``,
    ``reserved2`` and ``last_auth_ms``)."""

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
        # ---- added in 1.1 ----
        ("is_warning", c_int32),
        ("reserved1", c_int32),
        ("ms_until_warning", c_int64),
        ("ms_until_retry", c_int64),
        ("ms_until_next_deadline", c_int64),
        # ---- added in 1.2 ----
        ("is_passcode_required", c_int32),
        ("reserved2", c_int32),
        ("last_auth_ms", c_int64),
    ]


# void (*idlelock_listener_fn)(void *ctx, const idlelock_snapshot *snapshot)
LISTENER_FN = CFUNCTYPE(None, c_void_p, POINTER(SnapshotStruct))


class StatusCode(int):
    """An ``int`` status returned by a wrapped function.

    When the status is not ``IDLELOCK_OK``, :attr:`message` holds
    ``idlelock_last_error()`` as read by the ``errcheck`` hook immediately
    after the failing call returned, on the same thread (the message is
    per thread and is replaced by the thread's next failure).
    """

    message: str

    def __new__(cls, value: int, message: str = "") -> "StatusCode":
        obj = super().__new__(cls, value)
        obj.message = message
        return obj


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

ENV_VAR = "IDLELOCK_LIBRARY"
SONAME = "libidlelock.so.1"
# The self-contained variant a platform wheel carries inside the package.
BUNDLED = "libidlelock.so"


class LibraryNotFoundError(ImportError):
    """libidlelock could not be loaded; the message names every place tried."""

    def __init__(self, tried: List[Tuple[str, str]]) -> None:
        lines = ["libidlelock could not be loaded. Places tried, in order:"]
        for place, why in tried:
            lines.append(f"  - {place}: {why}")
        lines.append(
            "Install the platform wheel (it carries the library), build the "
            f"library (it appears as build/{SONAME}), set {ENV_VAR} to the "
            f"path of {SONAME}, or install it where the system loader finds it."
        )
        super().__init__("\n".join(lines))
        self.tried = tried


def _source_checkout() -> Tuple[Optional[str], str]:
    """``(repo, why)``: the root of the source checkout this package sits in,
    or ``None`` and why the package is not in one.

    The package is in a checkout only when its folder is
    ``<repo>/bindings/python/idlelock`` (after resolving symlinks) and
    ``<repo>/include/idlelock.h`` is a file. An installed copy (for example
    ``.../lib/python3.X/site-packages/idlelock``) fails the folder-name test,
    so the library is never loaded from a path relative to site-packages.
    """
    here = os.path.dirname(os.path.realpath(__file__))
    python_dir = os.path.dirname(here)
    bindings_dir = os.path.dirname(python_dir)
    repo = os.path.dirname(bindings_dir)
    header = os.path.join(repo, "include", "idlelock.h")
    if (
        os.path.basename(here) != "idlelock"
        or os.path.basename(python_dir) != "python"
        or os.path.basename(bindings_dir) != "bindings"
    ):
        return None, f"{here} is not <repo>/bindings/python/idlelock"
    if not os.path.isfile(header):
        return None, f"no {header}"
    return repo, ""


def _repo_build_path() -> str:
    """``<package>/../../../build/libidlelock.so.1`` (whether or not the
    package is in a source checkout: see :func:`_source_checkout`)."""
    here = os.path.dirname(os.path.realpath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "build", SONAME))


def _bundled_path() -> str:
    """``<package>/libidlelock.so``: the library a platform wheel carries."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), BUNDLED)


def _load() -> Tuple[ctypes.CDLL, str]:
    tried: List[Tuple[str, str]] = []
    override = os.environ.get(ENV_VAR)
    if override is not None:
        place = f"${ENV_VAR}={override!r}"
        if not override:
            tried.append((place, "empty path"))
        elif not os.path.exists(override):
            tried.append((place, "no such file"))
        else:
            try:
                return ctypes.CDLL(override), override
            except OSError as exc:
                tried.append((place, str(exc)))
        tried.append(
            ("(other places)", f"not tried because {ENV_VAR} is set; unset it to search")
        )
        raise LibraryNotFoundError(tried)

    bundled = _bundled_path()
    if os.path.exists(bundled):
        try:
            return ctypes.CDLL(bundled), bundled
        except OSError as exc:
            tried.append((f"{bundled} (bundled in the package)", str(exc)))
            tried.append(
                (
                    "(other places)",
                    f"not tried: the package's own library must load; set {ENV_VAR} "
                    "to use another copy, or install the wheel built for this platform",
                )
            )
            raise LibraryNotFoundError(tried) from None
    tried.append((bundled, "not bundled (a wheel from `make wheel` carries it)"))

    checkout, why_not = _source_checkout()
    if checkout is None:
        tried.append(
            (
                "repository build output (build/" + SONAME + ")",
                f"not tried: this package is not in a source checkout ({why_not})",
            )
        )
    else:
        repo = _repo_build_path()
        if os.path.exists(repo):
            try:
                return ctypes.CDLL(repo), repo
            except OSError as exc:
                tried.append((repo, str(exc)))
        else:
            tried.append((repo, "no such file (repository build output; run `make lib`)"))

    try:
        return ctypes.CDLL(SONAME), SONAME
    except OSError as exc:
        tried.append((f"system loader ({SONAME})", str(exc)))
    raise LibraryNotFoundError(tried)


lib, library_path = _load()

# --------------------------------------------------------------------------
# errcheck hooks
# --------------------------------------------------------------------------


def _decode_static(result: Optional[bytes], func: Any, args: Any) -> str:
    if result is None:  # the header promises never NULL
        return ""
    return result.decode("utf-8", errors="replace")


lib.idlelock_last_error.argtypes = []
lib.idlelock_last_error.restype = c_char_p
lib.idlelock_last_error.errcheck = _decode_static  # type: ignore[assignment]


def last_error() -> str:
    """``idlelock_last_error()``: this thread's message for its last failure."""
    return lib.idlelock_last_error()  # type: ignore[no-any-return]


def _check_status(result: int, func: Any, args: Any) -> StatusCode:
    # Read the message right away, on this thread, before anything else can
    # make another failing call on it.
    if result != OK:
        return StatusCode(result, last_error())
    return StatusCode(result)


def _declare(name: str, restype: Any, argtypes: List[Any], errcheck: Any = None) -> None:
    try:
        fn = getattr(lib, name)
    except AttributeError:
        # A library older than the header (a 1.0 library has no
        # idlelock_prompt_begin): say so instead of a bare AttributeError.
        raise ImportError(
            f"libidlelock at {library_path!r} does not match this binding "
            f"(header {HEADER_VERSION_MAJOR}.{HEADER_VERSION_MINOR}."
            f"{HEADER_VERSION_PATCH}): it has no {name}; use a library of "
            f"version {HEADER_VERSION_MAJOR}.{HEADER_VERSION_MINOR} or later"
        ) from None
    fn.restype = restype
    fn.argtypes = argtypes
    if errcheck is not None:
        fn.errcheck = errcheck


_S = POINTER(SnapshotStruct)

# Life cycle
_declare("idlelock_config_init", c_int, [POINTER(Config), c_size_t], _check_status)
_declare("idlelock_create", c_int, [POINTER(Config), POINTER(HandleP)], _check_status)
_declare("idlelock_destroy", None, [HandleP])
# The watcher thread (1.1): IdleLock.watch_start() / watch_stop().
_declare("idlelock_watch_start", c_int, [HandleP], _check_status)
_declare("idlelock_watch_stop", c_int, [HandleP], _check_status)
# Events
for _name in (
    "idlelock_start",
    "idlelock_touch",
    "idlelock_inactive",
    "idlelock_background",
    "idlelock_foreground",
    "idlelock_check",
    "idlelock_lock",
    "idlelock_snapshot_get",
):
    _declare(_name, c_int, [HandleP, _S], _check_status)
# Lifecycle adapters and prompts (1.1)
_declare("idlelock_lifecycle", c_int, [HandleP, c_int32, c_char_p, _S], _check_status)
_declare("idlelock_prompt_begin", c_int, [HandleP, POINTER(c_uint64)], _check_status)
_declare("idlelock_prompt_end", c_int, [HandleP, c_uint64], _check_status)
# Escalating delays (1.1): the iOS-like preset (a static table owned by
# the library).
_declare(
    "idlelock_delay_schedule_ios",
    c_int,
    [POINTER(POINTER(DelayStep)), POINTER(c_size_t)],
    _check_status,
)
# Passcode
_declare("idlelock_set_passcode", c_int, [HandleP, POINTER(c_char), c_size_t], _check_status)
_declare("idlelock_unlock", c_int, [HandleP, POINTER(c_char), c_size_t, _S], _check_status)
# Biometrics
_declare("idlelock_enable_biometrics", c_int, [HandleP], _check_status)
_declare("idlelock_disable_biometrics", c_int, [HandleP], _check_status)
_declare("idlelock_unlock_with_biometrics", c_int, [HandleP, _S], _check_status)
# Sign-out
_declare("idlelock_disable", c_int, [HandleP], _check_status)
# Listeners
_declare(
    "idlelock_subscribe",
    c_int,
    [HandleP, LISTENER_FN, c_void_p, POINTER(c_uint64)],
    _check_status,
)
_declare("idlelock_unsubscribe", c_int, [HandleP, c_uint64], _check_status)
# Secrets and the gate
_declare(
    "idlelock_secret_put",
    c_int,
    [HandleP, c_char_p, POINTER(c_uint8), c_size_t],
    _check_status,
)
_declare(
    "idlelock_secret_get",
    c_int,
    [HandleP, c_char_p, POINTER(c_uint8), POINTER(c_size_t)],
    _check_status,
)
_declare("idlelock_secret_remove", c_int, [HandleP, c_char_p], _check_status)
_declare("idlelock_require_unlocked", c_int, [HandleP], _check_status)
# 1.2: the step-up check and the two-phase biometric pair
_declare("idlelock_require_recent_auth", c_int, [HandleP, c_int64], _check_status)
_declare(
    "idlelock_biometric_begin",
    c_int,
    [HandleP, c_int32, POINTER(c_uint64), POINTER(c_uint8), c_size_t, _S],
    _check_status,
)
_declare(
    "idlelock_biometric_finish",
    c_int,
    [HandleP, c_uint64, c_int32, POINTER(c_uint8), c_size_t, _S],
    _check_status,
)
# Errors and versions
_declare("idlelock_status_name", c_char_p, [c_int], _decode_static)
_declare("idlelock_version", c_char_p, [], _decode_static)
_declare("idlelock_version_number", c_int, [])
_declare("idlelock_config_size", c_size_t, [])
_declare("idlelock_snapshot_size", c_size_t, [])
_declare("idlelock_authenticator_size", c_size_t, [])  # 1.2
_declare("idlelock_delay_step_size", c_size_t, [])  # 1.2
del _name

# IdleLock.touch()'s fast path: the same symbol through a function object of
# its own (``lib[name]`` makes a fresh one), with plain pointer argtypes (the
# handle's address as an int, and None for ``out``: c_void_p converts both
# without the cost of POINTER(...).from_param) and no errcheck: the caller
# checks the status and reads idlelock_last_error() itself.
touch_fast = lib["idlelock_touch"]
touch_fast.argtypes = [c_void_p, c_void_p]
touch_fast.restype = c_int

# --------------------------------------------------------------------------
# Load-time checks: version and struct mirrors
# --------------------------------------------------------------------------


def _abi_error(what: str) -> ImportError:
    return ImportError(
        f"libidlelock at {library_path!r} does not match this binding "
        f"(header {HEADER_VERSION_MAJOR}.{HEADER_VERSION_MINOR}."
        f"{HEADER_VERSION_PATCH}): {what}"
    )


def _check_abi() -> None:
    number = lib.idlelock_version_number()
    string = lib.idlelock_version()
    major, minor = number // 10000, (number // 100) % 100
    if major != HEADER_VERSION_MAJOR:
        raise _abi_error(f"library ABI major is {major} (version {string!r})")
    if minor < HEADER_VERSION_MINOR:
        raise _abi_error(f"library minor {minor} is older than the header's")
    parts = string.split(".")
    if len(parts) != 3 or [int(p) if p.isdigit() else -1 for p in parts] != [
        major,
        minor,
        number % 100,
    ]:
        raise _abi_error(
            f"idlelock_version() {string!r} disagrees with "
            f"idlelock_version_number() {number}"
        )

    ours_cfg, ours_snap = ctypes.sizeof(Config), ctypes.sizeof(SnapshotStruct)
    theirs_cfg, theirs_snap = lib.idlelock_config_size(), lib.idlelock_snapshot_size()
    # Same minor: the structs must be exactly ours. A newer minor may have
    # grown them (sizes only grow); we then pass our smaller size, which the
    # library accepts (it reads only the bytes `size` covers).
    if minor == HEADER_VERSION_MINOR:
        ok = theirs_cfg == ours_cfg and theirs_snap == ours_snap
    else:
        ok = theirs_cfg >= ours_cfg and theirs_snap >= ours_snap
    if not ok:
        raise _abi_error(
            f"struct sizes differ: idlelock_config {theirs_cfg} (binding "
            f"{ours_cfg}), idlelock_snapshot {theirs_snap} (binding {ours_snap})"
        )
    # The two structs the binding builds for the library (1.2 size
    # functions), by the same rule.
    for name, ours, theirs in (
        ("idlelock_authenticator", ctypes.sizeof(AuthenticatorStruct), lib.idlelock_authenticator_size()),
        ("idlelock_delay_step", ctypes.sizeof(DelayStep), lib.idlelock_delay_step_size()),
    ):
        if theirs != ours if minor == HEADER_VERSION_MINOR else theirs < ours:
            raise _abi_error(f"struct sizes differ: {name} {theirs} (binding {ours})")

    # Field layout: config_init must put the documented defaults where the
    # mirror expects them.
    cfg = Config()
    status = lib.idlelock_config_init(ctypes.byref(cfg), ours_cfg)
    if status != OK:
        raise _abi_error(f"idlelock_config_init failed: {status.message}")
    checks = [
        ("size", cfg.size == ours_cfg),
        ("idle_after_ms", cfg.idle_after_ms == NEVER),
        ("background_after_ms", cfg.background_after_ms == SAME_AS_IDLE),
        ("lock_on_start", cfg.lock_on_start in (0, 1)),
        ("inactive_after_ms", cfg.inactive_after_ms >= 0),
        ("grace_ms", 0 <= cfg.grace_ms <= GRACE_MAX_MS),
        ("max_attempts", 1 <= cfg.max_attempts <= MAX_ATTEMPTS_MAX),
        ("reserved0", cfg.reserved0 == 0),
        ("kdf_opslimit", KDF_OPSLIMIT_MIN <= cfg.kdf_opslimit <= KDF_OPSLIMIT_MAX),
        ("kdf_memlimit", KDF_MEMLIMIT_MIN <= cfg.kdf_memlimit <= KDF_MEMLIMIT_MAX),
        ("store_path", cfg.store_path is None),
        ("clock", not cfg.clock),
        ("clock_ctx", cfg.clock_ctx is None),
        ("authenticator", not cfg.authenticator),
        ("unlock_reason", cfg.unlock_reason is None),
        ("device_key", not cfg.device_key),
        ("device_key_len", cfg.device_key_len == 0),
        ("prompt_cap_ms", 0 <= cfg.prompt_cap_ms <= PROMPT_CAP_MAX_MS),
        ("warn_before_ms", cfg.warn_before_ms == 0),
        ("delay_schedule", not cfg.delay_schedule),
        ("delay_schedule_len", cfg.delay_schedule_len == 0),
        ("passcode_max_age_ms", cfg.passcode_max_age_ms == 0),
        ("passcode_after_reboot", cfg.passcode_after_reboot == 0),
        ("biometric_max_uses", cfg.biometric_max_uses == 0),
    ]
    bad = [name for name, good in checks if not good]
    if bad:
        raise _abi_error(
            "idlelock_config_init() defaults land in unexpected fields: " + ", ".join(bad)
        )

    # idlelock_authenticator: the size function says nothing of the order,
    # so check the mirror against the header's layout too: two uint32_t,
    # then five pointers (ctx and the four callbacks), natural alignment.
    ptr = ctypes.sizeof(c_void_p)
    layout = [("size", 0), ("reserved0", 4)] + [
        (name, 8 + i * ptr)
        for i, name in enumerate(
            ("ctx", "is_available", "store_secret", "load_secret", "delete_secret")
        )
    ]
    wrong = [
        name for name, offset in layout if getattr(AuthenticatorStruct, name).offset != offset
    ]
    if [f[0] for f in AuthenticatorStruct._fields_] != [name for name, _ in layout]:
        wrong.append("field order")
    if ctypes.sizeof(AuthenticatorStruct) != 8 + 5 * ptr:
        wrong.append(f"sizeof {ctypes.sizeof(AuthenticatorStruct)} != {8 + 5 * ptr}")
    if wrong:  # pragma: no cover - a broken mirror, caught by the tests
        raise _abi_error("idlelock_authenticator mirror is wrong: " + ", ".join(wrong))

    # idlelock_delay_step: int32, int32, int64.
    layout = [("failed_attempts", 0), ("reserved0", 4), ("delay_ms", 8)]
    wrong = [name for name, offset in layout if getattr(DelayStep, name).offset != offset]
    if [f[0] for f in DelayStep._fields_] != [name for name, _ in layout]:
        wrong.append("field order")
    if ctypes.sizeof(DelayStep) != 16:
        wrong.append(f"sizeof {ctypes.sizeof(DelayStep)} != 16")
    if wrong:  # pragma: no cover - a broken mirror, caught by the tests
        raise _abi_error("idlelock_delay_step mirror is wrong: " + ", ".join(wrong))

    # The iOS preset, read through the mirror, must be a valid schedule
    # (the header's rules): a misread table would be a wrong one.
    steps = ios_delay_schedule()
    if not (
        0 < len(steps) <= DELAY_SCHEDULE_MAX_STEPS
        and all(0 < a < MAX_ATTEMPTS_MAX and 0 < d <= DELAY_MAX_MS for a, d in steps)
        and all(x[0] < y[0] and x[1] <= y[1] for x, y in zip(steps, steps[1:]))
    ):
        raise _abi_error(f"idlelock_delay_schedule_ios() returned a malformed table: {steps}")


def ios_delay_schedule() -> List[Tuple[int, int]]:
    """``idlelock_delay_schedule_ios()`` as ``[(failed_attempts, delay_ms),
    ...]``, read from the library's static table (copied: the library owns
    the table)."""
    steps = POINTER(DelayStep)()
    count = c_size_t(0)
    status = lib.idlelock_delay_schedule_ios(ctypes.byref(steps), ctypes.byref(count))
    if status != OK:
        raise _abi_error(f"idlelock_delay_schedule_ios failed: {status.message}")
    if count.value and not steps:
        raise _abi_error("idlelock_delay_schedule_ios returned NULL steps")
    return [(int(steps[i].failed_attempts), int(steps[i].delay_ms)) for i in range(count.value)]

_check_abi()
