# SPDX-License-Identifier: MIT
"""The lockstep harness shared by test_model.py and test_regressions.py.

- :class:`FakeClock`: the clock the library reads (a Python int we move).
- :class:`FakeKeystore`: the host authenticator every handle is given: always
  available; its ``store_secret`` and ``load_secret`` move the clock as a
  person at the host's sheet would (forward, or a step back) and answer as
  the step says.
- :class:`Library`: one libidlelock handle, driven through raw ctypes
  (``idlelock._ffi``), so every status code and snapshot field is seen as
  the C ABI returns it.
- :class:`Harness`: a :class:`Library` and an :class:`idlelock_model.Model`
  run in lockstep. Every step is applied to both and compared at once
  (status, state, reason, attempts_remaining, ms_until_idle_lock, is_away,
  is_enabled, is_biometrics_enabled, is_biometrics_available,
  last_activity_ms, is_warning, ms_until_warning, ms_until_retry,
  ms_until_next_deadline, is_passcode_required, last_auth_ms, and "the
  clock is read at most once per call", twice for a call with a second half
  after a key derivation or a host check), and the security property
  "nothing but the right passcode, or a passed biometric check that released
  the right secret (the callback's load_secret, or an UNLOCK request of the
  two-phase pair finished with it), turns an engaged, locked session
  unlocked" is checked on the library and on the model. The harness plays
  the host of the pair: it keeps the secret an ENABLE request handed out
  (its keystore item once the finish said OK) and releases it, or another
  one, when it finishes an UNLOCK request. Steps are logged in the format of
  test_regressions.py, so a divergence is reported as a ready-to-paste
  regression case.
- The Hypothesis settings profiles: ``ci`` (the default) and ``long``
  (``IDLELOCK_MODEL_PROFILE=long``).

Every passcode check runs Argon2id at the OWASP floor (2 passes, 19 MiB),
explicitly, so a test's cost does not depend on the library's defaults.
"""

from __future__ import annotations

import ctypes
import dataclasses
import hashlib
import os
import shutil
import tempfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

from hypothesis import HealthCheck, settings

from idlelock import _ffi as ffi

import idlelock_model as M
from idlelock_model import INT64_MIN, NEVER, SAME_AS_IDLE, Reason, State, Status

# ---------------------------------------------------------------------------
# Hypothesis profiles
# ---------------------------------------------------------------------------

# Hypothesis' caches go to the temp folder: no .hypothesis/ in the checkout.
try:
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(os.path.join(tempfile.gettempdir(), "idlelock-model-hypothesis"))
except ImportError:  # pragma: no cover - older Hypothesis
    pass

_COMMON: Dict[str, Any] = dict(
    deadline=None,  # Argon2id and fsync make step times uneven
    database=None,  # no example database: CI and local runs are alike
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    print_blob=False,
)
# CI: a fixed, reproducible set of at least 2,000 sequences.
settings.register_profile(
    "ci", max_examples=2_000, stateful_step_count=30, derandomize=True, **_COMMON
)
# Long: fresh random sequences each run, longer ones, many more of them.
# IDLELOCK_MODEL_EXAMPLES overrides the count.
settings.register_profile(
    "long",
    max_examples=int(os.environ.get("IDLELOCK_MODEL_EXAMPLES", "50000")),
    stateful_step_count=80,
    derandomize=False,
    **_COMMON,
)
PROFILE = os.environ.get("IDLELOCK_MODEL_PROFILE", "ci")
settings.load_profile(PROFILE)

# ---------------------------------------------------------------------------
# Fixed inputs
# ---------------------------------------------------------------------------

KDF_OPSLIMIT = 2  # OWASP's Argon2id floor: 2 passes,
KDF_MEMLIMIT = 19 * 1024 * 1024  # 19 MiB
DEVICE_KEY = bytes(range(1, 33))
T0 = 1_000_000  # a fake clock origin (any fixed origin is valid)

MODES = ("memory", "store", "store+key")

# The config fields a case may set (the rest are the model's defaults).
CONFIG_FIELDS = (
    "idle_after_ms",
    "background_after_ms",
    "inactive_after_ms",
    "grace_ms",
    "max_attempts",
    "lock_on_start",
    # 1.1
    "prompt_cap_ms",
    "warn_before_ms",
    "delay_schedule",  # a tuple of (failed_attempts, delay_ms) pairs
    # 1.2
    "passcode_after_reboot",
    "passcode_max_age_ms",
    "biometric_max_uses",
    # 0: config.authenticator is NULL (the pair needs none); 1 (default):
    # the FakeKeystore's callbacks.
    "authenticator",
)


def model_config(mode: str, fields: Dict[str, Any]) -> M.Config:
    unknown = set(fields) - set(CONFIG_FIELDS)
    if unknown:
        raise ValueError(f"unknown config fields {sorted(unknown)}")
    fields = dict(fields)
    if "delay_schedule" in fields:
        fields["delay_schedule"] = tuple(tuple(step) for step in fields["delay_schedule"])
    authenticator = bool(fields.pop("authenticator", 1))
    return M.Config(
        **fields, has_store=mode != "memory", has_device_key=mode == "store+key",
        has_authenticator=authenticator,
    )


def config_fields(config: M.Config) -> Dict[str, int]:
    """The non-default rule fields of a config (for logs)."""
    default = M.Config()
    fields = {
        name: getattr(config, name)
        for name in CONFIG_FIELDS
        if name != "authenticator" and getattr(config, name) != getattr(default, name)
    }
    if not config.has_authenticator:
        fields["authenticator"] = 0
    return fields


def tmp_base() -> str:
    """Where store folders go: IDLELOCK_MODEL_TMPDIR, else /dev/shm when it is
    a writable folder (a store saves every lock with fsync; on tmpfs that is
    free), else the system temp folder."""
    chosen = os.environ.get("IDLELOCK_MODEL_TMPDIR")
    if chosen:
        return chosen
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK):
        return "/dev/shm"
    return tempfile.gettempdir()


# ---------------------------------------------------------------------------
# The clock and the library
# ---------------------------------------------------------------------------


class FakeClock:
    """The library's clock: `now` is a Python int the test moves. One clock
    is shared by every handle of a sequence (restarts on a store happen on
    the same boot)."""

    def __init__(self, origin: int) -> None:
        self.now = origin
        self.reads = 0
        self.fn = ffi.CLOCK_FN(self._read)  # kept alive with the clock

    def _read(self, ctx: Any) -> int:
        self.reads += 1
        return self.now

    def move(self, dt: int) -> None:
        self.now = M.saturate(self.now + dt)


class FakeKeystore:
    """The host authenticator (`idlelock_authenticator`) of every handle of a
    sequence, like a device's keystore it outlives restarts. Always
    available. `dt` is how far the clock moves while the host's sheet is up
    (set before each biometric call), `outcome` what `load_secret`
    answers (idlelock_model.Model.BIO_OUTCOMES)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.secret: Optional[bytes] = None
        self.dt = 0
        self.outcome = "ok"
        self.struct = ffi.AuthenticatorStruct()
        self.struct.size = ctypes.sizeof(self.struct)
        self.struct.is_available = ffi.AUTH_IS_AVAILABLE_FN(lambda ctx: 1)
        self.struct.store_secret = ffi.AUTH_STORE_SECRET_FN(self._store)
        self.struct.load_secret = ffi.AUTH_LOAD_SECRET_FN(self._load)
        self.struct.delete_secret = ffi.AUTH_DELETE_SECRET_FN(self._delete)

    def _store(self, ctx: Any, secret: Any, length: int) -> int:
        self.clock.move(self.dt)
        self.secret = ctypes.string_at(secret, length)
        return 0

    def _load(self, ctx: Any, reason: Any, out: int, cap: int, out_len: Any) -> int:
        self.clock.move(self.dt)
        outcome = self.outcome
        codes = {"failed": ffi.AUTH_FAILED, "cancelled": ffi.AUTH_CANCELLED,
                 "unavailable": ffi.AUTH_UNAVAILABLE, "unknown_code": 77}
        if outcome in codes:
            return codes[outcome]
        released = self.secret if self.secret is not None else bytes(32)
        if outcome == "wrong_secret":
            released = bytes(b ^ 0x5A for b in released)
        elif outcome == "wrong_length":
            released = released[:31]
        ctypes.memmove(out, released, len(released))
        out_len[0] = len(released)
        return ffi.AUTH_OK

    def _delete(self, ctx: Any) -> int:
        self.secret = None
        return 0


SNAPSHOT_FIELDS = (
    "state",
    "reason",
    "is_enabled",
    "is_biometrics_enabled",
    "is_biometrics_available",
    "is_away",
    "attempts_remaining",
    "last_activity_ms",
    "ms_until_idle_lock",
    # 1.1
    "is_warning",
    "ms_until_warning",
    "ms_until_retry",
    "ms_until_next_deadline",
    # 1.2
    "is_passcode_required",
    "last_auth_ms",
)


class Library:
    """One libidlelock handle through raw ctypes calls."""

    def __init__(self, clock: FakeClock, keystore: Optional[FakeKeystore] = None) -> None:
        self.clock = clock
        self.keystore = keystore if keystore is not None else FakeKeystore(clock)
        self.handle: Any = None
        self._keep: List[Any] = []

    def create(self, config: M.Config, store_path: Optional[str]) -> int:
        cfg = ffi.Config()
        status = ffi.lib.idlelock_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg))
        assert status == ffi.OK, status.message
        cfg.idle_after_ms = config.idle_after_ms
        cfg.background_after_ms = config.background_after_ms
        cfg.inactive_after_ms = config.inactive_after_ms
        cfg.grace_ms = config.grace_ms
        cfg.max_attempts = config.max_attempts
        cfg.lock_on_start = config.lock_on_start
        cfg.prompt_cap_ms = config.prompt_cap_ms
        cfg.warn_before_ms = config.warn_before_ms
        schedule = None
        if config.delay_schedule:
            schedule = (ffi.DelayStep * len(config.delay_schedule))()
            for i, (failed, delay) in enumerate(config.delay_schedule):
                schedule[i].failed_attempts = failed
                schedule[i].delay_ms = delay
            cfg.delay_schedule = ctypes.cast(schedule, ctypes.POINTER(ffi.DelayStep))
            cfg.delay_schedule_len = len(config.delay_schedule)
        cfg.passcode_after_reboot = config.passcode_after_reboot
        cfg.passcode_max_age_ms = config.passcode_max_age_ms
        cfg.biometric_max_uses = config.biometric_max_uses
        cfg.kdf_opslimit = KDF_OPSLIMIT
        cfg.kdf_memlimit = KDF_MEMLIMIT
        cfg.clock = self.clock.fn
        if config.has_store:
            assert store_path is not None
            cfg.store_path = store_path.encode()
        key = None
        if config.has_device_key:
            key = (ctypes.c_uint8 * 32)(*DEVICE_KEY)
            cfg.device_key = ctypes.cast(key, ctypes.POINTER(ctypes.c_uint8))
            cfg.device_key_len = 32
        if config.has_authenticator:
            cfg.authenticator = ctypes.pointer(self.keystore.struct)
        handle = ffi.HandleP()
        status = ffi.lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
        if status == ffi.OK:
            self.handle = handle
        return int(status)

    def destroy(self) -> None:
        if self.handle is not None:
            ffi.lib.idlelock_destroy(self.handle)
            self.handle = None

    @staticmethod
    def _snap() -> ffi.SnapshotStruct:
        snap = ffi.SnapshotStruct()
        snap.size = ctypes.sizeof(snap)
        return snap

    def event(self, name: str) -> Tuple[int, ffi.SnapshotStruct]:
        snap = self._snap()
        status = getattr(ffi.lib, "idlelock_" + name)(self.handle, ctypes.byref(snap))
        return int(status), snap

    def snapshot(self) -> Tuple[int, ffi.SnapshotStruct]:
        return self.event("snapshot_get")

    def set_passcode(self, passcode: bytes) -> int:
        return int(ffi.lib.idlelock_set_passcode(self.handle, passcode, len(passcode)))

    def unlock(self, passcode: bytes) -> Tuple[int, ffi.SnapshotStruct]:
        snap = self._snap()
        status = ffi.lib.idlelock_unlock(self.handle, passcode, len(passcode), ctypes.byref(snap))
        return int(status), snap

    def disable(self) -> int:
        return int(ffi.lib.idlelock_disable(self.handle))

    def require_unlocked(self) -> int:
        return int(ffi.lib.idlelock_require_unlocked(self.handle))

    def enable_biometrics(self) -> int:
        return int(ffi.lib.idlelock_enable_biometrics(self.handle))

    def disable_biometrics(self) -> int:
        return int(ffi.lib.idlelock_disable_biometrics(self.handle))

    def unlock_with_biometrics(self) -> Tuple[int, ffi.SnapshotStruct]:
        snap = self._snap()
        status = ffi.lib.idlelock_unlock_with_biometrics(self.handle, ctypes.byref(snap))
        return int(status), snap

    def prompt_begin(self) -> Tuple[int, int]:
        token = ctypes.c_uint64(0)
        status = ffi.lib.idlelock_prompt_begin(self.handle, ctypes.byref(token))
        return int(status), token.value

    def prompt_end(self, token: int) -> int:
        return int(ffi.lib.idlelock_prompt_end(self.handle, token))

    def lifecycle(self, platform: int, name: str) -> Tuple[int, ffi.SnapshotStruct]:
        snap = self._snap()
        status = ffi.lib.idlelock_lifecycle(self.handle, platform, name.encode(), ctypes.byref(snap))
        return int(status), snap

    # 1.2

    PURPOSES = {"unlock": ffi.BIOMETRIC_UNLOCK, "enable": ffi.BIOMETRIC_ENABLE}

    def biometric_begin(self, purpose: str) -> Tuple[int, int, Optional[bytes], ffi.SnapshotStruct]:
        """idlelock_biometric_begin; for ENABLE with a 32-byte buffer (the
        secret handed out is returned, None otherwise)."""
        snap = self._snap()
        token = ctypes.c_uint64(0)
        if purpose == "enable":
            buf = (ctypes.c_uint8 * 32)()
            status = ffi.lib.idlelock_biometric_begin(
                self.handle, self.PURPOSES[purpose], ctypes.byref(token), buf, 32, ctypes.byref(snap))
            secret: Optional[bytes] = bytes(buf) if status == ffi.OK else None
            ctypes.memset(buf, 0, 32)
        else:
            status = ffi.lib.idlelock_biometric_begin(
                self.handle, self.PURPOSES[purpose], ctypes.byref(token), None, 0, ctypes.byref(snap))
            secret = None
        return int(status), token.value, secret, snap

    def biometric_finish(self, token: int, result: int, secret: Optional[bytes],
                         length: int) -> Tuple[int, ffi.SnapshotStruct]:
        """idlelock_biometric_finish; `secret` None passes NULL (with
        `length`, which may then be wrong on purpose)."""
        snap = self._snap()
        buf = None
        if secret is not None:
            buf = (ctypes.c_uint8 * max(1, len(secret)))(*secret)
        status = ffi.lib.idlelock_biometric_finish(self.handle, token, result, buf, length,
                                                   ctypes.byref(snap))
        return int(status), snap

    def require_recent_auth(self, max_age: int) -> int:
        return int(ffi.lib.idlelock_require_recent_auth(self.handle, max_age))


# ---------------------------------------------------------------------------
# Lockstep
# ---------------------------------------------------------------------------


class Divergence(AssertionError):
    """The library and the model disagree."""


def _fmt_int(value: int) -> str:
    if value == NEVER:
        return "NEVER"
    if value >= NEVER - 10**9:
        return f"NEVER - {NEVER - value}"
    if value <= INT64_MIN + 10**9:
        return f"INT64_MIN + {value - INT64_MIN}" if value != INT64_MIN else "INT64_MIN"
    return repr(value)


def _fmt_value(name: str, value: Any) -> str:
    if isinstance(value, (State, Reason)):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, bool) or not isinstance(value, int):
        return repr(value)
    if name == "background_after_ms" and value == SAME_AS_IDLE:
        return "SAME_AS_IDLE"
    return _fmt_int(value)


def _fmt_dict(fields: Dict[str, Any]) -> str:
    fields = {k: (tuple(tuple(s) for s in v) if k == "delay_schedule" else v)
              for k, v in fields.items()}
    return "dict(" + ", ".join(f"{k}={_fmt_value(k, v)}" for k, v in fields.items()) + ")"


def format_step(step: Sequence[Any]) -> str:
    name = step[0]
    if len(step) == 1:
        return f"({name!r},)"
    if len(step) > 2:
        return "(" + ", ".join(repr(part) for part in step) + ")"
    arg = step[1]
    if isinstance(arg, dict):
        text = _fmt_dict(arg)
    elif isinstance(arg, int) and not isinstance(arg, bool):
        text = _fmt_int(arg)
    else:
        text = repr(arg)
    return f"({name!r}, {text})"


def format_case(mode: str, origin: int, fields: Dict[str, int], steps: List[Tuple[Any, ...]]) -> str:
    lines = [
        "Case(",
        '    "name_me",',
        f"    mode={mode!r},",
        f"    origin={_fmt_int(origin)},",
        f"    config={_fmt_dict(fields)},",
        "    steps=[",
    ]
    lines += [f"        {format_step(step)}," for step in steps]
    lines += ["    ],", ")"]
    return "\n".join(lines)


def _passcode_bytes(value: Any) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


class Harness:
    """A library handle and the model, stepped together.

    `mode`: "memory", "store" (no device key: lock_on_start must be 1) or
    "store+key". `fields`: config fields (see CONFIG_FIELDS). `origin`: the
    fake clock's first reading.
    """

    def __init__(self, mode: str, fields: Dict[str, int], origin: int = T0) -> None:
        assert mode in MODES, mode
        self.mode = mode
        self.origin = origin
        self.fields = dict(fields)
        self.initial_fields = dict(fields)
        self.steps: List[Tuple[Any, ...]] = []
        self.clock = FakeClock(origin)
        self.keystore = FakeKeystore(self.clock)
        self.lib = Library(self.clock, self.keystore)
        # The store's bytes before a damage step, written back by a repair.
        self.sound_store: Optional[bytes] = None
        self.folder: Optional[str] = None
        self.store_path: Optional[str] = None
        self.store: Optional[M.Store] = None
        if mode != "memory":
            self.folder = tempfile.mkdtemp(prefix="idlelock-model-", dir=tmp_base())
            self.store_path = os.path.join(self.folder, "session.idlelock")
            self.store = M.Store()
        self.model: Optional[M.Model] = None
        # The model's prompt tokens (1, 2, ...) -> the library's (opaque).
        self.tokens: Dict[int, int] = {}
        # 1.2, the host of the pair: the model's request tokens -> the
        # library's (kept after the finish, to finish them again); the
        # secret of each biometric wrap (the model's number for it), as the
        # ENABLE request or store_secret handed it out; the tokens of the
        # handles a restart destroyed.
        self.requests: Dict[int, int] = {}
        self.wrap_secrets: Dict[int, bytes] = {}
        self.stale_tokens: List[int] = []
        # The library's latest snapshot (for the security property).
        self.last_snap: Any = None
        self.config = model_config(mode, self.fields)
        self._create(self.config, "create")

    # ------------------------------------------------------------ plumbing

    def close(self) -> None:
        self.lib.destroy()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def regression_case(self) -> str:
        return format_case(self.mode, self.origin, self.initial_fields, self.steps)

    def _fail(self, what: str, problems: List[str]) -> None:
        raise Divergence(
            f"library and model disagree after {what} (clock {_fmt_int(self.clock.now)}):\n  "
            + "\n  ".join(problems)
            + "\n\nAs a regression case for Tests/model/test_regressions.py:\n\n"
            + self.regression_case()
        )

    @property
    def now(self) -> int:
        return self.clock.now

    def _compare(self, what: str, model_status: int, lib_status: int, snap: Any, reads: int,
                 model: Optional[M.Model] = None, reads_allowed: int = 1) -> None:
        """`reads_allowed`: 2 for a call with a second half (after a key
        derivation or a host check), which reads the clock afresh so that
        what it reports is the state when it returns. `model`: the model of
        the handle `snap` came from (default: the sequence's own)."""
        problems: List[str] = []
        if reads > reads_allowed:
            problems.append(f"the clock was read {reads} times in one call (header (conventions; clock steps): once per half)")
        if int(model_status) != lib_status:
            problems.append(
                f"status: library {ffi.lib.idlelock_status_name(lib_status)}, "
                f"model {ffi.lib.idlelock_status_name(int(model_status))}"
            )
        if lib_status == Status.INVALID_ARGUMENT and snap is not None:
            # "the argument is validated before any effect, and the snapshot
            # is filled [...] also when the call failed for a reason other
            # than a bad argument": after a bad argument, look separately.
            self._after(what, with_snapshot=True)
            snap = None
        if snap is not None and model is None:
            self.last_snap = snap
        model = model if model is not None else self.model
        if snap is not None and model is not None:
            expected = model.snapshot(self.now)
            for name in SNAPSHOT_FIELDS:
                want = getattr(expected, name)
                got = getattr(snap, name)
                if isinstance(want, bool):
                    want = int(want)
                if name == "state":
                    got_s, want_s = _enum_name(State, got), _enum_name(State, want)
                elif name == "reason":
                    got_s, want_s = _enum_name(Reason, got), _enum_name(Reason, want)
                else:
                    got_s, want_s = _fmt_int(got), _fmt_int(want)
                if got != want:
                    problems.append(f"{name}: library {got_s}, model {want_s}")
        if problems:
            self._fail(what, problems)

    def _create(self, config: M.Config, what: str) -> None:
        reads = self.clock.reads
        status = self.lib.create(config, self.store_path)
        reads = self.clock.reads - reads
        model_status, model = M.Model.create(config, self.now, self.store)
        if model_status == Status.STORAGE:
            # A damaged store: create fails and leaves it untouched; the
            # sequence goes on once it is repaired (as an operator would).
            self._compare(what, model_status, status, None, reads)
            self.lib.destroy()
            self._repair()
            self._create(config, what + " (after the repair)")
            return
        if model_status != Status.OK:
            self._compare(what, model_status, status, None, reads)
            raise ValueError(f"{what}: the model refuses this config ({config.problem()})")
        self.model = model
        self._compare(what, model_status, status, None, reads)
        self.config = config
        self._after(what, with_snapshot=True)

    def _after(self, what: str, with_snapshot: bool) -> None:
        """Calls without an `out` snapshot are followed by snapshot_get
        (itself a modelled call; at the same clock reading it changes
        nothing) so every step is compared in full."""
        if with_snapshot:
            assert self.model is not None
            reads = self.clock.reads
            status, snap = self.lib.snapshot()
            model_status = self.model.finish_call(self.model.snapshot_get(self.now))
            self._compare(what + " (then snapshot_get)", model_status, status, snap,
                          self.clock.reads - reads)

    # --------------------------------------------------------------- steps

    def run(self, step: Sequence[Any]) -> None:
        """Apply one logged step (the format of test_regressions.py)."""
        name, *args = step
        self.steps.append(tuple(step))
        what = format_step(step)
        model = self.model
        assert model is not None
        if name == "clock":
            (dt,) = args
            self.clock.move(dt)
            return
        if name == "expect":
            (want,) = args
            self._expect(what, want)
            return
        lib_locked = self._lib_engaged_locked()
        model_locked = model.engaged and model.state != State.UNLOCKED
        releases = self._releases_right_secret(step)
        if name in ("restart", "reboot") and self.store is not None and self.store.saved_lock is None:
            # A lock that could not be saved (the store was damaged) does
            # not outlive the process (header ('The store'): "saving it is best effort");
            # the new process judges the restart at its start.
            lib_locked = model_locked = False
        passcode_now = model.passcode
        if name in ("restart", "reboot"):
            fields = dict(args[0]) if args else dict(self.fields)
            self._restart(fields, what, reboot=name == "reboot")
        elif name in ("remove_store", "damage_store", "repair_store"):
            self._store_step(step, what)
        elif name == "second_handle":
            self._second_handle(bool(args[0]), args[1] if len(args) > 1 else "gate", what)
        else:
            self._dispatch(step, what)
        self._check_unlocked_only_by_passcode(step, lib_locked, model_locked, passcode_now, releases)

    def _lib_engaged_locked(self) -> bool:
        snap = self.last_snap
        return snap is not None and bool(snap.is_enabled) and snap.state != State.UNLOCKED

    def _releases_right_secret(self, step: Sequence[Any]) -> bool:
        """The step is a biometric check that releases the right secret:
        load_secret answering with the keystore's item, or the finish of an
        UNLOCK request of this handle with the secret its wrap was made
        with (judged before the step runs)."""
        if step[0] == "unlock_with_biometrics":
            return step[1] == "ok"
        if step[0] == "biometric_finish" and step[2] == "ok" and self.model is not None:
            request = self.model.requests.get(step[1]) if isinstance(step[1], int) else None
            return request is not None and request.purpose == "unlock"
        return False

    def _check_unlocked_only_by_passcode(
        self, step: Sequence[Any], lib_locked: bool, model_locked: bool, passcode: bytes,
        releases: bool,
    ) -> None:
        """The security property: no call but an unlock with the right
        passcode, or a biometric check that released the right secret (the
        callback's, or an UNLOCK request of the pair finished with it),
        turns an engaged, locked session into an engaged, unlocked one (not
        a prompt, a lifecycle name, a clock step, a restart or a reboot, a
        second handle, a store removed, damaged or repaired, an ENABLE
        request, a finish with any other answer or a token not open here,
        the step-up check), in the library and in the model alike. (A
        restart after a lock that could not be saved is the one exception:
        see `run`.)"""
        right = (step[0] == "unlock" and _passcode_bytes(step[1]) == passcode) or releases
        snap = self.last_snap
        lib_unlocked = snap is not None and bool(snap.is_enabled) and snap.state == State.UNLOCKED
        model = self.model
        assert model is not None
        model_unlocked = model.engaged and model.state == State.UNLOCKED
        problems = []
        if lib_locked and lib_unlocked and not right:
            problems.append("the library unlocked a locked session without the right passcode")
        if model_locked and model_unlocked and not right:
            problems.append("the model unlocked a locked session without the right passcode")
        if problems:
            self._fail(format_step(step), problems)

    def _dispatch(self, step: Sequence[Any], what: str) -> None:
        name, *args = step
        model = self.model
        assert model is not None
        reads = self.clock.reads
        now = self.now
        done = model.finish_call
        if name in ("touch", "inactive", "background", "foreground", "check", "lock", "start",
                    "snapshot_get"):
            status, snap = self.lib.event(name)
            model_status = done(getattr(model, name)(now))
            self._compare(what, model_status, status, snap, self.clock.reads - reads)
        elif name == "unlock":
            passcode = _passcode_bytes(args[0])
            status, snap = self.lib.unlock(passcode)
            model_status = done(model.unlock(now, passcode))
            self._compare(what, model_status, status, snap, self.clock.reads - reads, reads_allowed=2)
        elif name == "set_passcode":
            passcode = _passcode_bytes(args[0])
            status = self.lib.set_passcode(passcode)
            model_status = done(model.set_passcode(now, passcode))
            self._compare(what, model_status, status, None, self.clock.reads - reads, reads_allowed=2)
            self._after(what, with_snapshot=True)
        elif name in ("disable", "require_unlocked", "disable_biometrics"):
            # No `out`: compared through the snapshot_get that follows.
            status = getattr(self.lib, name)()
            model_status = done(getattr(model, name)(now))
            self._compare(what, model_status, status, None, self.clock.reads - reads)
            self._after(what, with_snapshot=True)
        elif name == "enable_biometrics":
            (dt,) = args
            self.keystore.dt = dt
            status = self.lib.enable_biometrics()
            model_status = done(model.enable_biometrics(now, M.saturate(now + dt)))
            self.keystore.dt = 0
            self._compare(what, model_status, status, None, self.clock.reads - reads, reads_allowed=2)
            self._after(what, with_snapshot=True)
        elif name == "unlock_with_biometrics":
            outcome, dt = args
            self.keystore.dt, self.keystore.outcome = dt, outcome
            status, snap = self.lib.unlock_with_biometrics()
            model_status = done(model.unlock_with_biometrics(now, M.saturate(now + dt), outcome))
            self.keystore.dt, self.keystore.outcome = 0, "ok"
            self._compare(what, model_status, status, snap, self.clock.reads - reads, reads_allowed=2)
        elif name == "prompt_begin":
            status, lib_token = self.lib.prompt_begin()
            model_status, model_token = model.prompt_begin(now)
            model_status = done(model_status)
            if model_status != Status.OK:
                # "no token is written; nothing to end"
                del model.prompts[model_token]
            problems = []
            if status == Status.OK:
                if lib_token == 0 or lib_token in self.tokens.values():
                    problems.append(f"token {lib_token}: zero or reused on the handle")
                self.tokens[model_token] = lib_token
            if problems:
                self._fail(what, problems)
            self._compare(what, model_status, status, None, self.clock.reads - reads)
            self._after(what, with_snapshot=True)
        elif name == "prompt_end":
            (token,) = args
            status = self.lib.prompt_end(self._lib_token(token))
            model_status = done(model.prompt_end(now, token))
            self._compare(what, model_status, status, None, self.clock.reads - reads)
            self._after(what, with_snapshot=True)
        elif name == "lifecycle":
            platform, state_name = args
            status, snap = self.lib.lifecycle(platform, state_name)
            model_status = done(model.lifecycle(now, platform, state_name))
            self._compare(what, model_status, status, snap, self.clock.reads - reads)
        elif name == "biometric_begin":
            (purpose,) = args
            self._begin(self.lib, model, purpose, what)
        elif name == "biometric_finish":
            token, answer = args
            lib_token, model_token = self._finish_token(token)
            self._finish(self.lib, model, lib_token, model_token, answer, what)
        elif name == "require_recent_auth":
            (max_age,) = args
            status = self.lib.require_recent_auth(max_age)
            model_status = done(model.require_recent_auth(now, max_age))
            self._compare(what, model_status, status, None, self.clock.reads - reads)
            self._after(what, with_snapshot=True)
        else:
            raise ValueError(f"unknown step {step!r}")

    # ------------------------------------------------- 1.2: the pair's host

    def _begin(self, lib: "Library", model: M.Model, purpose: str, what: str) -> Optional[int]:
        """biometric_begin on `lib` and its `model`; returns the model's
        token (None when none was issued). An ENABLE request's secret is
        kept as its wrap's."""
        reads = self.clock.reads
        status, lib_token, secret, snap = lib.biometric_begin(purpose)
        model_status, model_token = model.biometric_begin(self.now, purpose)
        model_status = model.finish_call(model_status)
        if model_token and model_status != Status.OK:
            model.drop_request(model_token)  # "no request is left open"
            model_token = 0
        problems = []
        if status == Status.OK:
            known = set(self.requests.values()) | set(self.stale_tokens)
            if lib_token == 0 or lib_token in known:
                problems.append(f"request token {lib_token:#x}: zero or issued before")
            if model_token:
                if model is self.model:
                    self.requests[model_token] = lib_token
                request = model.requests[model_token]
                if purpose == "enable":
                    if secret is None or len(secret) != 32 or secret == bytes(32):
                        problems.append("begin(ENABLE) handed out no random 32-byte secret")
                    elif request.wrap is not None:
                        self.wrap_secrets[request.wrap] = secret
        if problems:
            self._fail(what, problems)
        self._compare_on(lib, model, what, model_status, status, snap, self.clock.reads - reads)
        if status == Status.OK and model is not self.model:
            return lib_token
        return model_token or None

    def _compare_on(self, lib: "Library", model: M.Model, what: str, model_status: int,
                    status: int, snap: Any, reads: int) -> None:
        """_compare for a call on `lib` (this handle, or a second one): a
        call refused with INVALID_ARGUMENT leaves `out` unwritten, so the
        handle's state is read with snapshot_get."""
        if model is self.model:
            self._compare(what, model_status, status, snap, reads)
            return
        if status == Status.INVALID_ARGUMENT:
            self._compare(what, model_status, status, None, reads, model=model)
            reads = self.clock.reads
            status, snap = lib.snapshot()
            model_status = model.finish_call(model.snapshot_get(self.now))
            what += " (then snapshot_get)"
            reads = self.clock.reads - reads
        self._compare(what, model_status, status, snap, reads, model=model)

    def _finish_token(self, token: Any) -> Tuple[int, Optional[int]]:
        """The library's and the model's token for a step's token: a model
        token of this handle (open, finished or voided; a number not issued
        yet is one never issued), "never" (never issued), or "stale" (issued
        by a handle a restart destroyed; never issued when there is none)."""
        if token == "stale":
            if self.stale_tokens:
                return self.stale_tokens[-1], None
            token = "never"
        if token == "never":
            candidate = 0x5EED_0000_0000_0001
            while candidate in self.requests.values() or candidate in self.stale_tokens:
                candidate += 1
            return candidate, None
        assert isinstance(token, int), token
        if token in self.requests:
            return self.requests[token], token
        return (0x5EED_0000_0000_0000 + token if token else 0), token

    def _finish_args(self, answer: str, request: Optional[M.Request]) -> Tuple[int, Optional[bytes], int]:
        """(result, secret, secret_len) for `answer` (Model.FINISH_ANSWERS
        and FINISH_BAD) as the host passes them for `request` (None: a token
        not open here)."""
        right = None
        if request is not None and request.purpose == "unlock" and request.wrap is not None:
            right = self.wrap_secrets.get(request.wrap)
        if right is None:
            right = self.keystore.secret if self.keystore.secret is not None else bytes(32)
        codes = {"failed": ffi.AUTH_FAILED, "cancelled": ffi.AUTH_CANCELLED,
                 "unavailable": ffi.AUTH_UNAVAILABLE}
        if answer in codes:
            return codes[answer], None, 0
        if answer == "ok":
            if request is not None and request.purpose == "enable":
                return ffi.AUTH_OK, None, 0
            return ffi.AUTH_OK, right, 32
        if answer == "wrong_secret":
            return ffi.AUTH_OK, bytes(b ^ 0x5A for b in right), 32
        if answer == "bad_result":
            return 77, None, 0
        if answer == "bad_length":
            return ffi.AUTH_OK, right[:31], 31
        if answer == "null_secret":
            return ffi.AUTH_OK, None, 32
        if answer == "secret_with_failure":
            return ffi.AUTH_CANCELLED, right, 32
        raise ValueError(f"unknown finish answer {answer!r}")

    def _finish(self, lib: "Library", model: M.Model, lib_token: int, model_token: Optional[int],
                answer: str, what: str) -> None:
        """biometric_finish of `lib_token` on `lib` (its model's token
        `model_token`, None for one that is not the model's). After an
        ENABLE request's OK the host keeps the secret as its item."""
        reads = self.clock.reads
        request = model.requests.get(model_token) if model_token is not None else None
        result, secret, length = self._finish_args(answer, request)
        status, snap = lib.biometric_finish(lib_token, result, secret, length)
        model_status = model.finish_call(model.biometric_finish(self.now, model_token, answer))
        if status == Status.OK and request is not None and request.purpose == "enable":
            assert request.wrap is not None
            self.keystore.secret = self.wrap_secrets[request.wrap]
        self._compare_on(lib, model, what, model_status, status, snap, self.clock.reads - reads)

    # ---------------------------------------------- the store, from outside

    DAMAGE_KINDS = ("short", "empty", "checksum", "newer", "foreign", "fifo")

    def _store_step(self, step: Sequence[Any], what: str) -> None:
        """Another process (or the disk) changes the store file: removed
        (a sign-out elsewhere), damaged in one of DAMAGE_KINDS, repaired
        (its sound bytes written back). Nothing is called on the handle: the
        next calls show what it makes of it."""
        name, *args = step
        assert self.store_path is not None and self.store is not None and self.model is not None
        if name == "remove_store":
            if os.path.lexists(self.store_path):
                os.unlink(self.store_path)
            self.sound_store = None
            self.model.remove_store()
        elif name == "damage_store":
            (kind,) = args
            assert kind in self.DAMAGE_KINDS, kind
            with open(self.store_path, "rb") as f:
                sound = f.read()
            self.sound_store = sound
            data = bytearray(sound)
            if kind == "short":
                data = data[:200]  # the first bytes intact, cut below the header
            elif kind == "empty":
                data = bytearray()
            elif kind == "checksum":
                # The top bit of the generation (never set by the library):
                # the cheap look sees a generation it does not know, reads
                # the whole file, and the MAC no longer matches.
                data[23] ^= 0x80
            elif kind == "newer":
                data[8] = 3  # format version 3 (the library writes 2)
            elif kind == "foreign":
                data[0:8] = b"NOTASTOR"
            os.unlink(self.store_path)
            if kind == "fifo":
                os.mkfifo(self.store_path, 0o600)
            else:
                with open(self.store_path, "wb") as f:
                    f.write(bytes(data))
            self.model.damage_store()
        else:
            self._repair()

    def _repair(self) -> None:
        assert self.store_path is not None and self.store is not None
        if self.sound_store is not None:
            if os.path.lexists(self.store_path):
                os.unlink(self.store_path)
            fd = os.open(self.store_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(self.sound_store)
            self.sound_store = None
        self.store.damaged = False

    SECOND_HANDLE_ACTIONS = ("gate", "pair_unlock", "pair_enable", "foreign_token", "pair_wrong",
                             "disable_biometrics", "passcode_unlock")

    def _second_handle(self, start: bool, action: str, what: str) -> None:
        """Another process (an app extension) opens the store with the same
        config while this handle stays open: header ('Events and the decision rules') "Until its first start, a
        handle that opened a stored, engaged session [...] hands out
        nothing"; then, if `start`, it starts and asks the gate again. Its
        model shares the store with the sequence's. Then `action` (1.2):
        "gate" nothing more; "pair_unlock" / "pair_enable" it unlocks
        through the pair (the count reset and one more biometric use are
        the sign-in's, in the store) or turns on another shortcut (this
        handle sees the new wrap at its next re-check: its UNLOCK requests
        are void); "foreign_token" each handle finishes a token the other
        one issued (INVALID_ARGUMENT, nothing changed: "bound to its
        handle"); "pair_wrong" / "disable_biometrics" it turns the shortcut
        off, by a finish whose secret does not open the wrap or by
        idlelock_disable_biometrics (this handle's requests are void once it
        sees the store, issue 19); "passcode_unlock" it enters the right
        passcode, which renews the sign-in's passcode entry in the store
        (issue 26: a clock step this handle sees later is recorded against
        that entry, whatever this handle remembers)."""
        assert self.store_path is not None and action in self.SECOND_HANDLE_ACTIONS, action
        other = Library(self.clock, self.keystore)
        reads = self.clock.reads
        status = other.create(self.config, self.store_path)
        model_status, model = M.Model.create(self.config, self.now, self.store)
        try:
            self._compare(what + " (create)", model_status, status, None, self.clock.reads - reads)
            if model is None:
                return
            calls = [("require_unlocked", None)]
            if start:
                calls += [("start", None), ("require_unlocked", None)]
            for call, _ in calls:
                reads = self.clock.reads
                if call == "start":
                    status, snap = other.event("start")
                    model_status = model.finish_call(model.start(self.now))
                else:
                    status, snap = other.require_unlocked(), None
                    model_status = model.finish_call(model.require_unlocked(self.now))
                self._compare(f"{what} ({call})", model_status, status, snap,
                              self.clock.reads - reads, model=model)
            if action in ("pair_unlock", "pair_enable", "pair_wrong"):
                purpose = "enable" if action == "pair_enable" else "unlock"
                lib_token = self._begin(other, model, purpose, f"{what} (begin)")
                if lib_token is not None:
                    model_token = max(model.requests)
                    answer = "wrong_secret" if action == "pair_wrong" else "ok"
                    self._finish(other, model, lib_token, model_token, answer, f"{what} (finish)")
            elif action == "passcode_unlock" and model.engaged:
                reads = self.clock.reads
                status, snap = other.unlock(model.passcode)
                model_status = model.finish_call(model.unlock(self.now, model.passcode))
                self._compare(f"{what} (unlock)", model_status, status, snap,
                              self.clock.reads - reads, reads_allowed=2, model=model)
            elif action == "disable_biometrics":
                reads = self.clock.reads
                status = other.disable_biometrics()
                model_status = model.finish_call(model.disable_biometrics(self.now))
                self._compare(f"{what} (disable_biometrics)", model_status, status, None,
                              self.clock.reads - reads, model=model)
            elif action == "foreign_token":
                lib_token = self._begin(other, model, "unlock", f"{what} (begin)")
                if lib_token is not None:
                    # This handle finishes the other's token...
                    mine = self.model
                    assert mine is not None
                    self._finish(self.lib, mine, lib_token, None, "ok", f"{what} (finish here)")
                if self.model is not None and self.model.requests:
                    # ... and the other finishes one of this handle's.
                    token = min(self.model.requests)
                    self._finish(other, model, self.requests[token], None, "cancelled",
                                 f"{what} (finish there)")
        finally:
            other.destroy()

    def _lib_token(self, token: int) -> int:
        """The library token for the model's `token`: the one issued for
        it, or for a token the model never issued (0, or a number past
        the last one) a token the library never issued either."""
        if token in self.tokens:
            return self.tokens[token]
        if token == 0:
            return 0
        candidate = 0x5EED_0000_0000 + token
        while candidate in self.tokens.values():
            candidate += 1
        return candidate

    def _restart(self, fields: Dict[str, int], what: str, reboot: bool = False) -> None:
        """The process ends and a new one opens the same store, on the same
        boot (the same clock); with `reboot`, after the device restarted:
        the store's boot ids are another boot's (the fake clock goes on: its
        origin is any fixed one)."""
        assert self.mode != "memory", "restarts need a store"
        self.lib.destroy()
        self.tokens = {}
        self.stale_tokens += list(self.requests.values())
        self.requests = {}
        self.last_snap = None
        self.fields = dict(fields)
        if reboot:
            assert self.store is not None
            self._stamp_other_boot()
            self.store.reboot()
        self._create(model_config(self.mode, self.fields), what)

    BOOT_ID_OFFSETS = (64, 416)  # docs/STORE_FORMAT.md: saved_activity's, passcode_boot_id

    def _stamp_other_boot(self) -> None:
        """Rewrite the store file's two boot ids with another boot's and
        recompute its integrity check (BLAKE2b-256 of every byte before it,
        keyed with device subkey 1 with a device key: docs/STORE_FORMAT.md),
        as tools/replay/idlelock-replay.c's `reboot` does."""
        assert self.store_path is not None
        if not os.path.isfile(self.store_path):
            return  # signed out: nothing recorded
        with open(self.store_path, "rb") as f:
            data = bytearray(f.read())
        assert len(data) >= 460 + 32 and data[8] == 2, "not a version-2 store"
        self.reboots = getattr(self, "reboots", 0) + 1
        boot = f"model-reboot-{self.reboots:04d}-0000-0000-000000000000".encode()[:36]
        for offset in self.BOOT_ID_OFFSETS:
            data[offset:offset + 36] = boot
        key = b""
        if self.mode == "store+key":
            # crypto_kdf_derive_from_key(subkey, 32, 1, "idlkstor", device key)
            key = hashlib.blake2b(b"", digest_size=32, key=DEVICE_KEY,
                                  salt=(1).to_bytes(8, "little") + bytes(8),
                                  person=b"idlkstor" + bytes(8)).digest()
        data[-32:] = hashlib.blake2b(bytes(data[:-32]), digest_size=32, key=key).digest()
        with open(self.store_path, "wb") as f:
            f.write(bytes(data))

    def _expect(self, what: str, want: Dict[str, Any]) -> None:
        """An explicit expectation of a regression case, checked against the
        library itself (not only the model): a pinned boundary stays pinned
        even if the model were changed by mistake. It is a snapshot_get,
        compared with the model as every step is."""
        assert self.model is not None
        reads = self.clock.reads
        status, snap = self.lib.snapshot()
        model_status = self.model.finish_call(self.model.snapshot_get(self.now))
        self._compare(what, model_status, status, snap, self.clock.reads - reads)
        problems = []
        for key, value in want.items():
            got = getattr(snap, key)
            if isinstance(value, bool):
                value = int(value)
            if got != int(value):
                if key == "state":
                    problems.append(f"state: library {_enum_name(State, got)}, expected {State(value).name}")
                elif key == "reason":
                    problems.append(f"reason: library {_enum_name(Reason, got)}, expected {Reason(value).name}")
                else:
                    problems.append(f"{key}: library {_fmt_int(got)}, expected {_fmt_int(int(value))}")
        if problems:
            self._fail(what, problems)

    # ------------------------------------------------------ conveniences

    def step(self, name: str, *args: Any) -> None:
        self.run((name, *args))


def _enum_name(kind: Any, value: int) -> str:
    try:
        return kind(value).name
    except ValueError:
        return repr(value)


@dataclasses.dataclass
class Case:
    """An explicit sequence: see test_regressions.py."""

    name: str
    mode: str = "memory"
    origin: int = T0
    config: Dict[str, int] = dataclasses.field(default_factory=dict)
    steps: List[Tuple[Any, ...]] = dataclasses.field(default_factory=list)

    def run(self) -> Harness:
        harness = Harness(self.mode, self.config, self.origin)
        try:
            for step in self.steps:
                harness.run(step)
        finally:
            harness.close()
        return harness
