# SPDX-License-Identifier: MIT
"""ctypes declarations for libidlelock (``include/idlelock.h`` 1.2, ABI v1).

This module is private: use :mod:`idlelock`. It finds and loads the shared
library, declares ``argtypes``/``restype``/``errcheck`` for every function of
the header (the types, the :class:`ctypes.Structure` mirrors of the structs
and the constants are generated from the header into :mod:`._generated`, by
scripts/gen-bindings.py), and checks the library against them at load time:
its version, and the mirrors' sizes against its size functions.

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
from ctypes import POINTER, c_char_p, c_int, c_size_t, c_void_p
from typing import Any, List, Optional, Tuple

# The header's constants, ctypes mirrors of its structs, its callback types
# and every function's restype and argtypes: generated from
# include/idlelock.h (scripts/gen-bindings.py), re-exported from here.
from ._generated import *  # noqa: F401,F403
from ._generated import FUNCTIONS, HEADER_VERSION_MAJOR, HEADER_VERSION_MINOR, HEADER_VERSION_PATCH, OK, DelayStep

# The C integer ranges the binding checks arguments against.
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1


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


# Every function of the header: a status gets its message read right
# away, a static string is decoded.
_ERRCHECK = {"status": _check_status, "string": _decode_static}
for _name, _restype, _argtypes, _kind in FUNCTIONS:
    _declare(_name, _restype, _argtypes, _ERRCHECK.get(_kind))
del _name, _restype, _argtypes, _kind

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
