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
  ms_until_next_deadline, and "the clock is read at most once per call",
  twice for a call with a second half after a key derivation or a host
  check), and the security property "nothing but the right passcode, or a
  passed biometric check, turns an engaged, locked session unlocked" is
  checked on the library and on the model. Steps are logged in the format of
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
)


def model_config(mode: str, fields: Dict[str, Any]) -> M.Config:
    unknown = set(fields) - set(CONFIG_FIELDS)
    if unknown:
        raise ValueError(f"unknown config fields {sorted(unknown)}")
    fields = dict(fields)
    if "delay_schedule" in fields:
        fields["delay_schedule"] = tuple(tuple(step) for step in fields["delay_schedule"])
    return M.Config(
        **fields, has_store=mode != "memory", has_device_key=mode == "store+key",
        has_authenticator=True,
    )


def config_fields(config: M.Config) -> Dict[str, int]:
    """The non-default rule fields of a config (for logs)."""
    default = M.Config()
    return {
        name: getattr(config, name)
        for name in CONFIG_FIELDS
        if getattr(config, name) != getattr(default, name)
    }


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
            problems.append(f"the clock was read {reads} times in one call (SPEC §2: once per half)")
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
        if name == "restart" and self.store is not None and self.store.saved_lock is None:
            # A lock that could not be saved (the store was damaged) does
            # not outlive the process (SPEC §7: "saving it is best effort");
            # the new process judges the restart at its start.
            lib_locked = model_locked = False
        passcode_now = model.passcode
        if name == "restart":
            fields = dict(args[0]) if args else dict(self.fields)
            self._restart(fields, what)
        elif name in ("remove_store", "damage_store", "repair_store"):
            self._store_step(step, what)
        elif name == "second_handle":
            self._second_handle(bool(args[0]), what)
        else:
            self._dispatch(step, what)
        self._check_unlocked_only_by_passcode(step, lib_locked, model_locked, passcode_now)

    def _lib_engaged_locked(self) -> bool:
        snap = self.last_snap
        return snap is not None and bool(snap.is_enabled) and snap.state != State.UNLOCKED

    def _check_unlocked_only_by_passcode(
        self, step: Sequence[Any], lib_locked: bool, model_locked: bool, passcode: bytes
    ) -> None:
        """The security property: no call but an unlock with the right
        passcode, or a biometric check that released the right secret,
        turns an engaged, locked session into an engaged, unlocked one (not
        a prompt, a lifecycle name, a clock step, a restart, a second
        handle, a store removed, damaged or repaired), in the library and
        in the model alike. (A restart after a lock that could not be saved
        is the one exception: see `run`.)"""
        right = ((step[0] == "unlock" and _passcode_bytes(step[1]) == passcode)
                 or (step[0] == "unlock_with_biometrics" and step[1] == "ok"))
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
        else:
            raise ValueError(f"unknown step {step!r}")

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

    def _second_handle(self, start: bool, what: str) -> None:
        """Another process (an app extension) opens the store with the same
        config while this handle stays open: §3 "Until its first start, a
        handle that opened a stored, engaged session [...] hands out
        nothing"; then, if `start`, it starts and asks the gate again. Its
        model shares the store with the sequence's."""
        assert self.store_path is not None
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

    def _restart(self, fields: Dict[str, int], what: str) -> None:
        """The process ends and a new one opens the same store, on the same
        boot (the same clock)."""
        assert self.mode != "memory", "restarts need a store"
        self.lib.destroy()
        self.tokens = {}
        self.last_snap = None
        self.fields = dict(fields)
        self._create(model_config(self.mode, self.fields), what)

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
