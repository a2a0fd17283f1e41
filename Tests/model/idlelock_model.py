# SPDX-License-Identifier: MIT
"""A reference model of libidlelock's decision rules, in plain Python.

Written from the behaviour contract, include/idlelock.h (its conventions,
"Events and the decision rules", "Passcode", the 1.1 additions) and
docs/RULES.md, with the header's blocks "The store (config.store_path)",
"Prompts", the 1.1 config and snapshot fields and `idlelock_delay_step`,
never from the Swift sources. It is meant to be read:
every rule is one small method, and the comments quote the contract.

The model knows nothing about ctypes, files or Argon2id. A caller (the
Hypothesis state machine in test_model.py, the explicit sequences in
test_regressions.py) gives every call the clock reading the library would
take ("the clock is read once per call; every rule in that call uses that
reading") and compares the library's snapshot with :meth:`Model.snapshot`.

What is modelled:

- the configuration fields that drive the rules and their bounds (header (idlelock_config's bounds));
- state, reason, engaged, last activity, the departure (with "reached the
  background"), whether ``start`` was used, the attempt count;
- the clock-step rule, judging, every event, ``lock``, ``start``,
  ``set_passcode``, ``unlock`` (right and wrong), ``disable``, the gate
  (``require_unlocked``) and ``snapshot_get``;
- a store shared across restarts of the process (:class:`Store`): passcode,
  count, ``max_attempts`` as stored by ``set_passcode``, the latest saved lock,
  the last saved activity and the running escalating delay;
- header (1.1: prompts, warnings, delays, lifecycle names): prompts (``prompt_begin`` / ``prompt_end``, tokens, nesting, the cap,
  inert prompts, the absence a prompt covers), the warning before the idle
  lock (``is_warning``, ``ms_until_warning``), escalating delays
  (``RETRY_LATER``, ``ms_until_retry``, restarts and clock steps), the
  lifecycle names (``idlelock_lifecycle``) and ``ms_until_next_deadline``.

- header ("Biometric shortcut") the biometric shortcut through a host authenticator that is always
  available: ``enable_biometrics``, ``unlock_with_biometrics`` (every
  outcome of ``load_secret``) and ``disable_biometrics``; the host's
  ``store_secret`` and ``load_secret`` run as prompts the library opens
  itself (header (1.1: prompts, warnings, delays, lifecycle names)) and may take time or see the clock step: their end is judged
  at its own clock reading before it counts as activity;
- header ("Events and the decision rules") "Creation and start": a stored, engaged session hands out nothing
  (the gate, ``set_passcode``, ``enable_biometrics``) until the handle's
  first ``start``; a second handle opened on the store (another process);
- header ("The store") the store as other processes and damage change it: removed (a
  sign-out elsewhere, seen at the next call that re-checks the store) or
  damaged (STORAGE at every call that re-checks it, and the session locks;
  every lock's save fails), and repaired;
- 1.2 (header: "Biometrics for asynchronous hosts", "Passcode policies and
  step-up checks"): the two-phase pair (``biometric_begin`` /
  ``biometric_finish``, UNLOCK and ENABLE, request tokens that finish once,
  voided by a sign-out, a new passcode and ``disable_biometrics``, expired
  past ``prompt_cap_ms``, at most IDLELOCK_BIOMETRIC_REQUESTS_MAX open), on
  the same rules as the callback authenticator (which may be absent); the
  passcode policies (``passcode_after_reboot`` with the store's boot,
  ``passcode_max_age_ms``, ``biometric_max_uses``), their state shared
  through the store by every handle of the sign-in, and
  ``is_passcode_required``; ``require_recent_auth`` and ``last_auth_ms``.

Not modelled: secrets (header ("Sealed secrets and the gate")), listeners (so not "listeners hear the
warning"), the watcher thread, threads, another sign-in's store, other
processes' attempts, I/O failures.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple

# --------------------------------------------------------------------------
# Constants (the header's values)
# --------------------------------------------------------------------------

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

NEVER = INT64_MAX  # "no deadline": a NEVER timeout never passes
# The store's passcode_entered_at for "an entry in this boot whose time is
# unknown" (a clock step was seen since; docs/STORE_FORMAT.md): later than
# every reading but INT64_MAX itself.
UNKNOWN_ENTRY = INT64_MAX
SAME_AS_IDLE = -1  # background_after_ms only: take idle_after_ms

GRACE_MAX_MS = 60_000
MAX_ATTEMPTS_MAX = 100
PASSCODE_MIN_SCALARS = 4
PASSCODE_MAX_BYTES = 1024
PROMPT_CAP_MAX_MS = 600_000  # config comment: prompt_cap_ms 0..600000
DELAY_MAX_MS = 86_400_000  # idlelock_delay_step: delay_ms 1..86400000
DELAY_SCHEDULE_MAX_STEPS = 32  # config comment: at most 32 steps
# 1.2 (header): the passcode policies' bounds, the step-up check's, and the
# open biometric requests a handle holds at most.
PASSCODE_MAX_AGE_MIN_MS = 3_600_000  # 1 hour
PASSCODE_MAX_AGE_MAX_MS = 2_592_000_000  # 30 days
BIOMETRIC_MAX_USES_MAX = 1_000
RECENT_AUTH_MAX_MS = 2_592_000_000  # 30 days
BIOMETRIC_REQUESTS_MAX = 8


class State(enum.IntEnum):
    UNLOCKED = 0
    LOCKED = 1
    LOCKED_OUT = 2


class Reason(enum.IntEnum):
    NONE = 0
    IDLE = 1
    BACKGROUNDED = 2
    STARTUP = 3
    MANUAL = 4
    CLOCK = 5


class Status(enum.IntEnum):
    OK = 0
    INVALID_ARGUMENT = 1
    SESSION_LOCKED = 2
    INVALID_PASSCODE = 3
    LOCKED_OUT = 4
    LOCK_UNAVAILABLE = 5
    NO_PASSCODE = 6
    STORAGE = 7
    NOT_FOUND = 8
    BUFFER_TOO_SMALL = 9
    NO_MEMORY = 10
    INTERNAL = 11
    RETRY_LATER = 12  # 1.1
    REAUTH_REQUIRED = 13  # 1.2


# --------------------------------------------------------------------------
# header (conventions; clock steps) Time
# --------------------------------------------------------------------------


def saturate(value: int) -> int:
    """"Arithmetic saturates; nothing wraps." """
    return max(INT64_MIN, min(INT64_MAX, value))


def elapsed(now: int, since: int) -> int:
    """Milliseconds from `since` to `now`, saturated to int64."""
    return saturate(now - since)


def has_passed(elapsed_ms: int, timeout: int) -> bool:
    """"A timeout of T has passed" means elapsed >= T; a NEVER timeout never
    passes (not even after a saturated INT64_MAX of elapsed time)."""
    return timeout != NEVER and elapsed_ms >= timeout


def clamp_ms(value: int) -> int:
    """A duration for the snapshot: exact arithmetic on Python ints, then
    0 when due and at most INT64_MAX (IDLELOCK_NEVER)."""
    return max(0, min(INT64_MAX, value))


# --------------------------------------------------------------------------
# header (1.1: prompts, warnings, delays, lifecycle names) Lifecycle adapters (header: idlelock_lifecycle; README's table)
# --------------------------------------------------------------------------

PLATFORM_IOS_SCENE_PHASE = 1
PLATFORM_IOS_APPLICATION_STATE = 2
PLATFORM_ANDROID_LIFECYCLE_EVENT = 3
PLATFORM_FLUTTER_APP_LIFECYCLE_STATE = 4
PLATFORM_REACT_NATIVE_APP_STATE = 5

# platform -> {the platform's own case-sensitive name: the call it is}.
# "check": a name that carries no presence change "only judges the
# deadlines, as idlelock_check".
LIFECYCLE_NAMES = {
    PLATFORM_IOS_SCENE_PHASE: {
        "active": "foreground", "inactive": "inactive", "background": "background",
    },
    PLATFORM_IOS_APPLICATION_STATE: {
        "active": "foreground", "inactive": "inactive", "background": "background",
    },
    PLATFORM_ANDROID_LIFECYCLE_EVENT: {
        "ON_RESUME": "foreground", "ON_PAUSE": "inactive", "ON_STOP": "background",
        "ON_CREATE": "check", "ON_START": "check", "ON_DESTROY": "check",
    },
    PLATFORM_FLUTTER_APP_LIFECYCLE_STATE: {
        "resumed": "foreground", "inactive": "inactive", "hidden": "background",
        "paused": "background", "detached": "check",
    },
    PLATFORM_REACT_NATIVE_APP_STATE: {
        "active": "foreground", "inactive": "inactive", "background": "background",
        "unknown": "check", "extension": "check",
    },
}


# --------------------------------------------------------------------------
# Configuration (header (idlelock_config's bounds))
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """The fields that drive the rules, with `idlelock_config_init`'s
    defaults. `has_store` / `has_device_key` stand for `store_path` and
    `device_key` being given (the model needs only whether they are)."""

    idle_after_ms: int = NEVER
    background_after_ms: int = SAME_AS_IDLE
    inactive_after_ms: int = 30_000
    grace_ms: int = 1_500
    max_attempts: int = 5
    lock_on_start: int = 1
    has_store: bool = False
    has_device_key: bool = False
    # 1.1
    prompt_cap_ms: int = 120_000
    warn_before_ms: int = 0
    # idlelock_delay_step pairs (failed_attempts, delay_ms); () = NULL, 0.
    delay_schedule: Tuple[Tuple[int, int], ...] = ()
    # config.authenticator is set (a host keystore that is always
    # available and always stores what it is given).
    has_authenticator: bool = False
    # 1.2: the passcode policies (0: off).
    passcode_after_reboot: int = 0
    passcode_max_age_ms: int = 0
    biometric_max_uses: int = 0

    @property
    def background_timeout(self) -> int:
        """`background_after_ms`, with SAME_AS_IDLE resolved."""
        if self.background_after_ms == SAME_AS_IDLE:
            return self.idle_after_ms
        return self.background_after_ms

    def problem(self) -> Optional[str]:
        """The field a create with this config is INVALID_ARGUMENT for, or
        None when the config is valid."""
        if self.idle_after_ms <= 0:
            return "idle_after_ms"
        if self.background_after_ms < 0 and self.background_after_ms != SAME_AS_IDLE:
            return "background_after_ms"
        if self.inactive_after_ms < 0:
            return "inactive_after_ms"
        if not 0 <= self.grace_ms <= GRACE_MAX_MS:
            return "grace_ms"
        if not 1 <= self.max_attempts <= MAX_ATTEMPTS_MAX:
            return "max_attempts"
        if self.lock_on_start not in (0, 1):
            return "lock_on_start"
        if not 0 <= self.prompt_cap_ms <= PROMPT_CAP_MAX_MS:
            return "prompt_cap_ms"
        # "0 (default, off) or 1..idle_after_ms-1"
        if self.warn_before_ms != 0 and not 1 <= self.warn_before_ms <= self.idle_after_ms - 1:
            return "warn_before_ms"
        if self.schedule_problem() is not None:
            return "delay_schedule"
        # 1.2: "0 (default, off) or 3600000..2592000000"; "0 or 1";
        # "0 (default, off) or 1..1000".
        if self.passcode_max_age_ms != 0 and not (
                PASSCODE_MAX_AGE_MIN_MS <= self.passcode_max_age_ms <= PASSCODE_MAX_AGE_MAX_MS):
            return "passcode_max_age_ms"
        if self.passcode_after_reboot not in (0, 1):
            return "passcode_after_reboot"
        if not 0 <= self.biometric_max_uses <= BIOMETRIC_MAX_USES_MAX:
            return "biometric_max_uses"
        # "create is INVALID_ARGUMENT (naming idle_after_ms) until at least
        # one of the two is finite; a lock that never times out is refused"
        if self.idle_after_ms == NEVER and self.background_timeout == NEVER:
            return "idle_after_ms"
        # "With a store and no device_key, lock_on_start 0 is
        # INVALID_ARGUMENT at create"
        if self.has_store and not self.has_device_key and self.lock_on_start == 0:
            return "lock_on_start"
        return None

    def schedule_problem(self) -> Optional[str]:
        """idlelock_delay_step: "delay_ms (1..86400000) [...] Steps are
        strictly increasing in failed_attempts (1..max_attempts-1) and
        non-decreasing in delay_ms"; at most 32 steps."""
        steps = self.delay_schedule
        if len(steps) > DELAY_SCHEDULE_MAX_STEPS:
            return "too many steps"
        for i, (failed, delay) in enumerate(steps):
            if not 1 <= failed <= self.max_attempts - 1:
                return f"step {i}: failed_attempts {failed}"
            if not 1 <= delay <= DELAY_MAX_MS:
                return f"step {i}: delay_ms {delay}"
            if i and failed <= steps[i - 1][0]:
                return f"step {i}: failed_attempts not increasing"
            if i and delay < steps[i - 1][1]:
                return f"step {i}: delay_ms decreasing"
        return None

    def delay_after(self, count: int) -> int:
        """The delay once `count` wrong passcodes are counted: the step with
        the highest failed_attempts <= count ("once failed_attempts wrong
        passcodes are counted"), 0 when none applies."""
        delay = 0
        for failed, step_delay in self.delay_schedule:
            if failed <= count:
                delay = step_delay
        return delay

    def absence_timeout(self, reached_background: bool) -> int:
        """Rule 3: `background_after_ms` if the absence reached the
        background, else the longer of it and `inactive_after_ms` (the app
        stayed on screen in the owner's hand)."""
        if reached_background:
            return self.background_timeout
        return max(self.background_timeout, self.inactive_after_ms)


# --------------------------------------------------------------------------
# header ("Passcode") Passcode arguments
# --------------------------------------------------------------------------


def passcode_is_valid(passcode: bytes, for_set: bool) -> bool:
    """Valid UTF-8 of 1..1024 bytes; `set_passcode` also needs at least 4
    Unicode scalar values. (Python's strict UTF-8 decoder refuses
    surrogates and overlong forms, as a UTF-8 validator must.)"""
    if not 1 <= len(passcode) <= PASSCODE_MAX_BYTES:
        return False
    try:
        text = passcode.decode("utf-8", errors="strict")
    except UnicodeDecodeError:
        return False
    return not for_set or len(text) >= PASSCODE_MIN_SCALARS


# --------------------------------------------------------------------------
# The store: what outlives the process
# --------------------------------------------------------------------------


@dataclass
class Store:
    """The store file as the model sees it. `engaged` False means there is
    no file (never written, or deleted by `disable`)."""

    engaged: bool = False
    passcode: bytes = b""
    count: int = 0
    max_attempts: int = 5  # stored by set_passcode; governs from then on
    saved_lock: Optional[Reason] = None  # "the latest lock or unlock"
    saved_activity: int = 0  # saved by unlock, set_passcode and each lock
    # idlelock_delay_step: "the delay an attempt would start is saved
    # together with its raised count, before the passcode is checked [...]
    # a process that does not follow a period yet (every create [...]) runs
    # the whole period from its own clock reading". The model saves it when
    # a wrong passcode starts it (no process is killed during a check here)
    # and forgets it when the count is reset; 0: none.
    delay_ms: int = 0
    delay_start: int = 0  # the clock reading the saved period started at
    # The biometric wrap that is saved (the model's number for it; None:
    # the shortcut is off). Each enable makes a new one: a secret released
    # for an older one does not open it.
    bio_wrap: Optional[int] = None
    # 1.2, the passcode policies' state (header: "the entry's time and boot
    # and the count are kept in the store and shared by every process of
    # the sign-in"): the last passcode entry's clock reading, whether it
    # was stamped in this boot, and the biometric unlocks since it
    # (saturating at BIOMETRIC_MAX_USES_MAX). `activity_this_boot`: the
    # saved activity's boot is this one. A reboot (the harness rewrites the
    # file's boot ids) makes both False; every write stamps this boot.
    passcode_entered_at: int = 0
    passcode_this_boot: bool = False
    biometric_uses: int = 0
    activity_this_boot: bool = True
    # header ("The store"): the file is present but damaged (cut short, failing its checksum,
    # foreign, of a newer format, not a regular file). The fields above are
    # what it held before, and holds again once repaired: nothing can be
    # written to it meanwhile.
    damaged: bool = False

    def writable(self) -> bool:
        """A durable step can be saved: the file is present and sound."""
        return self.engaged and not self.damaged

    def remove(self) -> None:
        """The file is deleted (idlelock_disable here or in another
        process): nothing of the sign-in is left."""
        self.engaged = False
        self.damaged = False
        self.passcode = b""
        self.count = 0
        self.saved_lock = None
        self.delay_ms = 0
        self.bio_wrap = None
        self.passcode_entered_at = 0
        self.passcode_this_boot = False
        self.biometric_uses = 0

    def reboot(self) -> None:
        """The device restarted: what the file recorded is from another
        boot (header: "The boot is known from the store's boot id")."""
        self.passcode_this_boot = False
        self.activity_this_boot = False

    @property
    def bio_enabled(self) -> bool:
        return self.bio_wrap is not None


# --------------------------------------------------------------------------
# The session
# --------------------------------------------------------------------------


@dataclass
class Departure:
    """The moment the app first left the foreground, and whether that
    absence reached the background. header (1.1: prompts, warnings, delays, lifecycle names): `covered` when the absence began
    while a prompt deferred the rules ("an absence that begins while a
    prompt is open"), and `prompt_ended` the moment the last such prompt
    ended (the start of the prompt's grace window)."""

    at: int
    reached_background: bool
    covered: bool = False
    prompt_ended: Optional[int] = None


@dataclass
class Prompt:
    """An open prompt. `live` False: inert ("a lock makes every open prompt
    inert (it defers nothing any more), and a prompt opened on a locked
    session is inert")."""

    begun: int
    live: bool


@dataclass
class Delay:
    """A running (or run out) escalating-delay period. idlelock_delay_step
    (1.2.2): a clock step carries the period over: from the landing reading
    it runs for what it had left at the previous reading, no more, no less
    (`carry`)."""

    start: int
    length: int

    def left(self, now: int) -> int:
        """ms left at `now`, 0..length."""
        return max(0, min(self.length, self.start + self.length - now))

    def carry(self, previous: int, now: int) -> None:
        """Across a step from `previous` to `now`."""
        self.start = now - (self.length - self.left(previous))


@dataclass
class Request:
    """An open biometric request (1.2, the two-phase pair): what its begin
    started from. `prompt`: the key of the prompt it runs under (in
    Model.prompts, below zero as the library's own); `wrap`: for UNLOCK the
    shortcut at begin, for ENABLE the new one it would turn on."""

    purpose: str  # "unlock" or "enable"
    prompt: int
    epoch: int
    passcode_gen: int
    opened_at: int
    wrap: Optional[int]
    # A clock step seen since its begin, by any call of the handle.
    stepped: bool = False


_WRAPS = [0]


def _new_wrap() -> int:
    """A number for a new biometric wrap (a new random secret)."""
    _WRAPS[0] += 1
    return _WRAPS[0]


@dataclass(frozen=True)
class Snapshot:
    state: State
    reason: Reason
    is_enabled: bool
    is_biometrics_enabled: bool
    is_biometrics_available: bool
    is_away: bool
    attempts_remaining: int
    last_activity_ms: int
    ms_until_idle_lock: int
    # 1.1
    is_warning: bool
    ms_until_warning: int
    ms_until_retry: int
    ms_until_next_deadline: int
    # 1.2
    is_passcode_required: bool
    last_auth_ms: int


@dataclass
class Model:
    """One handle. Build it with :meth:`create`; every other public method is
    one library call, given the clock reading of that call."""

    config: Config
    last_activity: int
    store: Optional[Store] = None  # None: memory only
    state: State = State.UNLOCKED
    reason: Reason = Reason.NONE
    engaged: bool = False
    passcode: bytes = b""
    count: int = 0  # attempts counted against the passcode
    max_attempts: int = 5  # the one that governs the engaged session
    departure: Optional[Departure] = None
    started: bool = False
    restored: bool = False  # create found an engaged session in the store
    # header (1.1: prompts, warnings, delays, lifecycle names) prompts: token -> prompt, for the tokens issued and not yet ended.
    # Tokens are the model's own numbers 1, 2, 3, ... (the harness maps them
    # to the library's tokens, which are opaque).
    prompts: Dict[int, Prompt] = field(default_factory=dict)
    tokens_issued: int = 0
    # header (1.1: prompts, warnings, delays, lifecycle names) escalating delays: the current period, None when there is none.
    delay: Optional[Delay] = None
    # header (conventions; clock steps): the latest clock reading a call of this handle judged at (a
    # reading earlier than it is a clock step). Set at create.
    latest: int = 0
    # header ("Biometric shortcut"): the biometric shortcut's wrap (None: off); see Store.bio_wrap.
    bio_wrap: Optional[int] = None
    # Raised by every new passcode and every sign-out: an attempt, or a
    # biometric request, begun against the old passcode is void.
    passcode_gen: int = 0
    # 1.2 the two-phase pair: token -> open request. Tokens are the model's
    # own numbers 1, 2, 3, ... (the harness maps them to the library's
    # random ones); a finished or voided token is no longer here.
    requests: Dict[int, Request] = field(default_factory=dict)
    requests_issued: int = 0
    # 1.2 the passcode policies' state on this handle: a passcode entry in
    # this boot; the last entry's reading (None: unknown on this clock:
    # another boot, a clock step since, none); the reading a clock step made
    # unknown (it stays unknown when read back from the store); the
    # biometric unlocks since the entry.
    entered_this_boot: bool = False
    entered_at: Optional[int] = None
    distrusted: Optional[int] = None
    bio_uses: int = 0
    # 1.2: the last successful authentication on this handle (NEVER: none).
    last_auth: int = NEVER
    # Raised by every lock, lockout and sign-out: a host check whose answer
    # arrives after a lock is overtaken (header ("Passcode")'s lock epoch).
    lock_epoch: int = 0
    # Locks taken during the current call (their save fails on a damaged
    # store).
    locks_in_call: int = 0
    # A clock step this handle saw that the store could not be told of (a
    # damaged store): told at the end of a later call whose write succeeds,
    # or made moot by a passcode entry.
    step_untold: bool = False
    # The library's own prompts (host checks) have keys below zero.
    host_checks: int = 0
    # The last saved activity this handle knows: read at create, then each
    # one it saves itself (another process's saves after create are not
    # re-read by start: it judges from the one it knows, never later than
    # the store's, which errs toward locking), and whether it is from this
    # boot.
    known_saved_activity: int = 0
    known_activity_this_boot: bool = True

    @property
    def bio_enabled(self) -> bool:
        return self.bio_wrap is not None

    # ---------------------------------------------------------------- create

    @classmethod
    def create(
        cls, config: Config, now: int, store: Optional[Store] = None
    ) -> "tuple[Status, Optional[Model]]":
        """`idlelock_create`. "The lock starts UNLOCKED and not engaged,
        last activity = now." With a store it loads what an earlier process
        left: "a lockout or a lock saved by an earlier process is in force
        from create"."""
        if config.problem() is not None:
            return Status.INVALID_ARGUMENT, None
        if store is not None and store.damaged:
            # "A damaged, foreign or future-version file makes create fail
            # with STORAGE and is left untouched."
            return Status.STORAGE, None
        model = cls(config=config, last_activity=now, store=store,
                    max_attempts=config.max_attempts, latest=now)
        if store is not None and store.engaged:
            model.engaged = True
            model.restored = True
            model.passcode = store.passcode
            model.count = store.count
            model.max_attempts = store.max_attempts
            model.bio_wrap = store.bio_wrap
            model.known_saved_activity = store.saved_activity
            model.known_activity_this_boot = store.activity_this_boot
            model._adopt_policy_record()
            if store.saved_lock is not None:
                # "Create adopts a saved lock with its reason."
                model.state, model.reason = State.LOCKED, store.saved_lock
            elif not config.has_device_key:
                # Header: "Without a device key the session key can only be
                # opened by an unlock, so a stored session is LOCKED
                # (REASON_STARTUP) from create."
                model.state, model.reason = State.LOCKED, Reason.STARTUP
            if model.count >= model.max_attempts:
                # "locked out means exactly: count == max_attempts";
                # LOCKED_OUT keeps the reason of the state it came from.
                model.state = State.LOCKED_OUT
            elif store.delay_ms > 0:
                # "a restart (every create) [...] restarts the current
                # period from its start instead of forgiving it": the whole
                # saved period, from create's reading. The saved start is a
                # reading of another process's clock (maybe of another
                # origin): never a time on this one.
                model.delay = Delay(start=now, length=store.delay_ms)
        return Status.OK, model

    # ----------------------------------------------------------- snapshot

    def snapshot(self, now: int) -> Snapshot:
        return Snapshot(
            state=self.state,
            reason=self.reason,
            is_enabled=self.engaged,
            is_biometrics_enabled=self.bio_enabled,
            is_biometrics_available=self.config.has_authenticator,
            is_away=self.departure is not None,
            attempts_remaining=self.attempts_remaining(),
            last_activity_ms=self.last_activity,
            ms_until_idle_lock=self.ms_until_idle_lock(now),
            is_warning=self.is_warning(now),
            ms_until_warning=self.ms_until_warning(now),
            ms_until_retry=self.ms_until_retry(now),
            ms_until_next_deadline=self.ms_until_next_deadline(now),
            is_passcode_required=self.is_passcode_required(now),
            last_auth_ms=self.last_auth,
        )

    def attempts_remaining(self) -> int:
        """`max_attempts` minus the count (0 when locked out), and
        `max_attempts` when not engaged."""
        if not self.engaged:
            return self.config.max_attempts
        if self.state == State.LOCKED_OUT:
            return 0
        return self.max_attempts - self.count

    def _timing(self) -> bool:
        """The idle deadline and the warning exist: engaged, unlocked and a
        finite idle timeout."""
        return (self.engaged and self.state == State.UNLOCKED
                and self.config.idle_after_ms != NEVER)

    def _idle_deadline(self) -> int:
        return self.last_activity + self.config.idle_after_ms  # exact

    def ms_until_idle_lock(self, now: int) -> int:
        """"Time until the idle deadline, 0 when due, IDLELOCK_NEVER when the
        idle timeout is NEVER or the session is locked or not engaged."
        The deadline itself: a prompt that defers the idle rule does not
        move it (the snapshot has ms_until_warning and
        ms_until_next_deadline for that)."""
        if not self._timing():
            return NEVER
        return clamp_ms(self._idle_deadline() - now)

    # ------------------------------------------------------- header (1.1: prompts, warnings, delays, lifecycle names) warning

    def _warning_start(self) -> int:
        """The warning window opens warn_before_ms before the idle
        deadline (exact arithmetic: the start is never lost to a deadline
        that saturates)."""
        return self._idle_deadline() - self.config.warn_before_ms

    def is_warning(self, now: int) -> bool:
        """"1 within warn_before_ms of the idle lock (not while a prompt
        defers the idle rule); [...] activity ends it"."""
        if not self._timing() or self.config.warn_before_ms == 0:
            return False
        if self._prompt_defers(now):
            return False
        return now >= self._warning_start()

    def ms_until_warning(self, now: int) -> int:
        """"ms until is_warning opens, 0 when open, IDLELOCK_NEVER without a
        warning". While a prompt defers the idle rule the warning cannot
        open before the prompts' cap."""
        if not self._timing() or self.config.warn_before_ms == 0:
            return NEVER
        start = self._warning_start()
        cap = self._cap()
        if cap is not None and now < cap:
            start = max(start, cap)
        return clamp_ms(start - now)

    # ------------------------------------------------------- header (1.1: prompts, warnings, delays, lifecycle names) delays

    def ms_until_retry(self, now: int) -> int:
        """"ms until a passcode attempt is accepted again (an escalating
        delay), 0 when it is"."""
        if self.delay is None or self.state == State.LOCKED_OUT:
            return 0
        return self.delay.left(now)

    def _delay_running(self, now: int) -> bool:
        return self.ms_until_retry(now) > 0

    # ------------------------------------------------------- header (1.1: prompts, warnings, delays, lifecycle names) deadlines

    def ms_until_next_deadline(self, now: int) -> int:
        """"ms until the earliest moment anything can change (the idle
        deadline, the warning, the end of the grace window while away, the
        absence's timeout, a prompt's cap) [...] 0 when due now,
        IDLELOCK_NEVER when nothing is due. It may wake a host early, never
        late."

        The model lists exactly those moments, each at its own time (a
        deadline a prompt defers is listed where it would fall without the
        prompt: early, never late), plus the end of a prompt's grace window
        while away and the end of an escalating delay. Every call judges
        before it reports, so a moment at or before `now` has been dealt
        with: only later ones count. The end of a grace window is the first
        millisecond past it (away <= grace_ms is within it). A moment at or
        past INT64_MAX never comes."""
        moments = []
        if self.delay is not None and self.state != State.LOCKED_OUT:
            if self.delay.left(now):
                moments.append(now + self.delay.left(now))
        # 1.2: "the moment a passcode policy starts to require the
        # passcode", in every state of an engaged session (the lock screen
        # changes then).
        policy_moment = self._policy_moment()
        if self.engaged and policy_moment is not None:
            moments.append(policy_moment)
        if self.engaged and self.state == State.UNLOCKED:
            if self.config.idle_after_ms != NEVER:
                moments.append(self._idle_deadline())
                if self.config.warn_before_ms:
                    moments.append(self._warning_start())
            cap = self._cap()
            if cap is not None:
                moments.append(cap)
            departure = self.departure
            if departure is not None:
                moments.append(departure.at + self.config.grace_ms + 1)
                timeout = self.config.absence_timeout(departure.reached_background)
                if timeout != NEVER:
                    moments.append(departure.at + timeout)
                if departure.prompt_ended is not None:
                    moments.append(departure.prompt_ended + self.config.grace_ms + 1)
        # "a deadline that would fall past INT64_MAX never comes" (header,
        # conventions): the clock never reads past INT64_MAX.
        later = [moment - now for moment in moments if now < moment < INT64_MAX]
        return clamp_ms(min(later)) if later else NEVER

    # ---------------------------------------------------- header (1.1: prompts, warnings, delays, lifecycle names) prompts

    def _live_prompts(self) -> "list[Prompt]":
        return [prompt for prompt in self.prompts.values() if prompt.live]

    def _cap(self) -> Optional[int]:
        """"never past prompt_cap_ms from the earliest prompt still open":
        the moment the open (live) prompts stop deferring anything, None
        when none is open. Inert prompts defer nothing, so they do not
        count."""
        live = self._live_prompts()
        if not live:
            return None
        return min(prompt.begun for prompt in live) + self.config.prompt_cap_ms

    def _prompt_defers(self, now: int) -> bool:
        """A prompt is open and its cap has not passed ("a timeout of T has
        passed means elapsed >= T")."""
        cap = self._cap()
        return cap is not None and now < cap

    def _absence_covered(self, now: int) -> bool:
        """"An absence that begins while a prompt is open and ends before
        the prompt's end plus grace_ms is presence [...] but never past
        prompt_cap_ms from the earliest prompt still open: past the cap the
        rules apply as if no prompt had been opened, measured from the real
        departure." While covered, the absence is not judged."""
        departure = self.departure
        if departure is None or not departure.covered:
            return False
        if self._prompt_defers(now):
            return True
        return (not self._live_prompts() and departure.prompt_ended is not None
                and now - departure.prompt_ended <= self.config.grace_ms)

    def _make_prompts_inert(self) -> None:
        """"A lock, or a sign-out (idlelock_disable), makes every open prompt
        inert (it defers nothing any more)": nor does the grace window after
        an ended one cover the absence any more."""
        for prompt in self.prompts.values():
            prompt.live = False
        if self.departure is not None:
            # The absence is no longer one that began under a live prompt
            # (a prompt opened later does not cover it either).
            self.departure.covered = False
            self.departure.prompt_ended = None

    # ---------------------------------------------------- the common steps

    def _lock(self, reason: Reason) -> None:
        """A lock. "Locks never overwrite each other": only an engaged,
        unlocked session locks. Every lock is saved with the store, and
        makes every open prompt inert."""
        if not self.engaged or self.state != State.UNLOCKED:
            return
        self.state, self.reason = State.LOCKED, reason
        self.lock_epoch += 1
        self.locks_in_call += 1
        self._make_prompts_inert()
        if self.store is not None and self.store.writable():
            # header ("The store"): "Every durable step [...] re-reads the store, applies
            # itself and replaces the store": what other processes changed
            # is taken on here too.
            self._absorb()
            self.store.saved_lock = reason
            self._save_activity(self.last_activity)

    def _save_activity(self, activity: int) -> None:
        assert self.store is not None
        self.store.saved_activity = activity
        self.store.activity_this_boot = True  # stamped with this boot
        self.known_saved_activity = activity
        self.known_activity_this_boot = True

    def _clock_step(self, now: int) -> None:
        """header (conventions; clock steps): "Once a passcode is set, a clock that reads earlier than a
        recorded activity or departure never extends a session: that call
        locks with reason CLOCK. [...] Before a passcode is set, such a step
        just resets the bookkeeping to now." Header: a step is also a
        reading earlier than the latest one a call of this handle judged at
        (a step back that lands after the last activity and the departure
        would otherwise extend the session by the step).

        Header ("Events and the decision rules", clock steps): "In every
        state a step makes every age the handle measures on its clock
        unknown, wherever the reading lands, and the strict answer follows;
        a step never re-opens what an age had closed: the last passcode
        entry counts as too old (passcode_max_age_ms) until the passcode is
        entered again; last_auth_ms is forgotten [...]; open biometric
        requests expire."

        1.2.2 (header; docs/RULES.md "Clock steps"): "A step is seen once":
        the recorded activity and departure move to the landing reading, in
        every state, so a later reading before the old activity is no new
        step. idlelock_delay_step: a step carries a running period over
        ("never lengthens [...] beyond what it had left at the previous
        reading, and never forgives any of it"). With a store, every step
        an engaged handle sees is recorded against the store's current
        entry, "whatever the handle remembers"."""
        stepped_back = now < self.latest or now < self.last_activity or (
            self.departure is not None and now < self.departure.at
        )
        previous = self.latest
        if now < previous:
            # Header: "a clock that reads earlier than its begin, or a clock
            # step any call of the handle saw since, expires it too" (a
            # reading earlier than the latest one: a step not seen before).
            for request in self.requests.values():
                request.stepped = True
        self.latest = now
        if not stepped_back:
            return
        if self.delay is not None:
            self.delay.carry(previous, now)
        if self.entered_at is not None:
            self.distrusted, self.entered_at = self.entered_at, None
        self.last_auth = NEVER
        if self.engaged:
            self._lock(Reason.CLOCK)  # nothing when already locked
            self._tell_store_of_step()
        else:
            # "just resets the bookkeeping to now": the prompts' openings and
            # a prompt's end too, so a cap is never measured from a reading
            # later than the clock.
            if self.departure is not None:
                if self.departure.prompt_ended is not None and self.departure.prompt_ended > now:
                    self.departure.prompt_ended = now
            for prompt in self.prompts.values():
                prompt.begun = min(prompt.begun, now)
        # Seen once: the activity and the departure move to the landing.
        self.last_activity = now
        if self.departure is not None:
            self.departure.at = now

    def _tell_store_of_step(self) -> None:
        """Header ("The store"): the passcode entry the store records in this
        boot is recorded as unknown (passcode_entered_at IDLELOCK_NEVER,
        docs/STORE_FORMAT.md) in the durable step that saves the call's lock
        (or its own one), whatever this handle remembers of it: another
        process may have renewed it meanwhile. No status of its own; this
        handle never trusts that entry again. Like every durable step it
        re-reads the store first (what other processes changed is taken
        on). A store that cannot be written (damaged) is told at the end of
        a later call whose write succeeds (`finish_call`): the step is not
        dropped."""
        store = self.store
        if store is not None and store.damaged:
            self.step_untold = True
            return
        self.step_untold = False
        if store is None or not store.writable():
            return
        self._absorb()
        if store.passcode_this_boot and store.passcode_entered_at != UNKNOWN_ENTRY:
            self.distrusted = store.passcode_entered_at
            store.passcode_entered_at = UNKNOWN_ENTRY
            self._adopt_policy_record()

    def _idle_has_passed(self, now: int) -> bool:
        """Rule 4's test. header (1.1: prompts, warnings, delays, lifecycle names): "the idle rule waits while a prompt is open,
        but never past prompt_cap_ms from the earliest prompt still open"."""
        if self._prompt_defers(now):
            return False
        return has_passed(elapsed(now, self.last_activity), self.config.idle_after_ms)

    def _judge(self, now: int) -> None:
        """`check`: "Judging happens only while engaged and UNLOCKED. While
        away and within the grace window, nothing. While away past the grace
        window: rules 3 then 4. Not away: rule 4." header (1.1: prompts, warnings, delays, lifecycle names): an absence a prompt
        covers is not judged."""
        if not self.engaged or self.state != State.UNLOCKED:
            return
        if self.departure is not None:
            if self._absence_covered(now):
                return
            away = elapsed(now, self.departure.at)
            if away <= self.config.grace_ms:
                return
            timeout = self.config.absence_timeout(self.departure.reached_background)
            if has_passed(away, timeout):  # rule 3
                self._lock(Reason.BACKGROUNDED)
                return
        if self._idle_has_passed(now):  # rule 4
            self._lock(Reason.IDLE)

    def _enter(self, now: int) -> None:
        """The first steps of every call that reads the clock: the clock-step
        check (against the times as they stood before the call), then "judges
        the deadlines that are due (as check does)"."""
        self._clock_step(now)
        self._judge(now)

    # ------------------------------------------------------------- events

    def touch(self, now: int) -> Status:
        """User activity: "while locked, nothing (a tap on the lock screen is
        not activity). Otherwise judge, and if still unlocked, last activity
        = now." """
        self._enter(now)
        if self.state == State.UNLOCKED:
            self.last_activity = now
        return Status.OK

    def inactive(self, now: int) -> Status:
        return self._leave(now, reached_background=False)

    def background(self, now: int) -> Status:
        return self._leave(now, reached_background=True)

    def _leave(self, now: int, reached_background: bool) -> Status:
        """`inactive` / `background`: "If no departure is recorded, record
        departure = now; a background marks the absence as having reached the
        background (the first departure wins). Then, if unlocked and engaged:
        if this call recorded the departure and the idle timeout has passed,
        lock with IDLE on the way out; otherwise judge." Presence is tracked
        in every state. header (1.1: prompts, warnings, delays, lifecycle names): an absence that begins while a prompt defers the
        rules is covered by it."""
        self._enter(now)
        recorded = False
        if self.departure is None:
            self.departure = Departure(at=now, reached_background=reached_background,
                                       covered=self._prompt_defers(now))
            recorded = True
        elif reached_background:
            self.departure.reached_background = True
        if self.engaged and self.state == State.UNLOCKED:
            if recorded and self._idle_has_passed(now):
                self._lock(Reason.IDLE)
            else:
                self._judge(now)
        return Status.OK

    def foreground(self, now: int) -> Status:
        """"Take and clear the recorded departure. Then, if unlocked and
        engaged:" rules 1 to 5. header (1.1: prompts, warnings, delays, lifecycle names): an absence a prompt covers is presence
        (last activity = now)."""
        self._enter(now)
        departure, self.departure = self.departure, None
        if not self.engaged or self.state != State.UNLOCKED:
            return Status.OK
        if departure is None:
            # 1. a stray or first "active" event: the idle timeout only.
            if self._idle_has_passed(now):
                self._lock(Reason.IDLE)
            return Status.OK
        self.departure = departure  # for _absence_covered
        covered = self._absence_covered(now)
        self.departure = None
        away = elapsed(now, departure.at)
        if covered or away <= self.config.grace_ms:
            # 2. a round trip through a system prompt (or one the app
            # opened itself): presence.
            self.last_activity = now
        elif has_passed(away, self.config.absence_timeout(departure.reached_background)):
            self._lock(Reason.BACKGROUNDED)  # 3.
        elif self._idle_has_passed(now):
            self._lock(Reason.IDLE)  # 4.
        # 5. otherwise stay unlocked, last activity unchanged.
        return Status.OK

    def check(self, now: int) -> Status:
        self._enter(now)
        return Status.OK

    def snapshot_get(self, now: int) -> Status:
        self._enter(now)
        return Status.OK

    def require_unlocked(self, now: int) -> Status:
        """The gate: OK when unlocked after judging (or not engaged), and,
        for a session found in the store at create, after the first start
        (header ("Events and the decision rules"): "Until its first start, a handle that opened a stored, engaged
        session [...] hands out nothing")."""
        self._enter(now)
        status = self._recheck()
        if status is not None:
            return status
        return Status.OK if self._hands_out() else Status.SESSION_LOCKED

    def _hands_out(self) -> bool:
        return self.state == State.UNLOCKED and not (self.restored and not self.started)

    # -------------------------------------------------- header ("The store") the store

    def _recheck(self) -> Optional[Status]:
        """header ("The store"): "Calls that authenticate or touch secrets [...] first re-check
        the store": one that finds the store gone (signed out elsewhere)
        wipes its secrets and disengages; "only a store that is absent is a
        sign-out: one that is present but [...] damaged [...] is answered
        with STORAGE while the session locks (or stays locked)". The lock's
        reason is STARTUP (as for a store that changed under the session)."""
        store = self.store
        if store is None:
            return None
        if store.damaged:
            self._lock(Reason.STARTUP)
            return Status.STORAGE
        if not store.engaged and self.engaged:
            self._forget_session()
        elif store.engaged and self.engaged:
            self._absorb()
        return None

    def _set_shortcut(self, wrap: Optional[int]) -> None:
        """The shortcut is now `wrap` (None: off), in memory. Header,
        "Requests": "Every open request is void when the shortcut turns
        off, whatever turns it off [...]. When the shortcut is replaced [...],
        the UNLOCK requests begun under the old one are void; the ENABLE
        requests stay open."""
        if wrap == self.bio_wrap:
            return
        self.bio_wrap = wrap
        if wrap is None:
            self._void_requests()
            return
        for key, request in list(self.requests.items()):
            if request.purpose == "unlock" and request.wrap != wrap:
                self._discard_prompt(request.prompt)
                del self.requests[key]

    def _absorb(self) -> None:
        """What other processes of the sign-in changed in the store, taken
        on at a re-check and at every durable step (a second handle's
        biometric unlock: the count reset, one more biometric use; its
        enable: another wrap). Nothing else of theirs is modelled."""
        store = self.store
        assert store is not None
        self.count = store.count
        self.max_attempts = store.max_attempts
        if self.count >= self.max_attempts and self.state != State.LOCKED_OUT:
            self.state = State.LOCKED_OUT
            self.lock_epoch += 1
            self._make_prompts_inert()
        self._set_shortcut(store.bio_wrap)
        self._adopt_policy_record()

    def _forget_session(self) -> None:
        """A sign-out in memory (disable, or one seen in the store):
        passcode, shortcut, count, delay and lockout forgotten; UNLOCKED,
        NONE, not engaged. Presence and last activity stay."""
        self._void_requests()
        self._make_prompts_inert()
        self.engaged = False
        self.state, self.reason = State.UNLOCKED, Reason.NONE
        self.lock_epoch += 1
        self.passcode_gen += 1
        self.passcode = b""
        self.count = 0
        self.delay = None
        self.max_attempts = self.config.max_attempts
        self.restored = False
        self.bio_wrap = None
        # 1.2: nothing is known of a passcode that no longer exists, and
        # last_auth_ms is "IDLELOCK_NEVER when [...] it was forgotten:
        # sign-out".
        self.entered_this_boot = False
        self.entered_at = None
        self.distrusted = None
        self.bio_uses = 0
        self.last_auth = NEVER

    def remove_store(self) -> None:
        """Another process signs out: the file is deleted. This handle
        notices at its next call that re-checks the store."""
        assert self.store is not None
        self.store.remove()

    def damage_store(self) -> None:
        assert self.store is not None and self.store.engaged
        self.store.damaged = True

    def repair_store(self) -> None:
        assert self.store is not None
        self.store.damaged = False

    def finish_call(self, status: Status) -> Status:
        """The end of every call: "a lock always takes effect in memory
        first; saving it is best effort [...] a failed save returns STORAGE
        with the state LOCKED". Only a damaged store makes a save fail here
        (an absent one has nothing to save to)."""
        locked, self.locks_in_call = self.locks_in_call, 0
        if self.step_untold:
            self._tell_store_of_step()
        store = self.store
        if (status == Status.OK and locked and store is not None and store.damaged
                and self.engaged and self.state != State.UNLOCKED):
            return Status.STORAGE
        return status

    def lock(self, now: int) -> Status:
        """"Lock now": engaged and unlocked → LOCKED(MANUAL); otherwise
        nothing, status OK."""
        self._enter(now)
        self._lock(Reason.MANUAL)
        return Status.OK

    def lifecycle(self, now: int, platform: int, name: str) -> Status:
        """`idlelock_lifecycle`: the platform's own name "as
        idlelock_foreground, idlelock_inactive or idlelock_background would";
        a name with no presence change only judges, as check; an unknown
        platform or a name the platform does not have is INVALID_ARGUMENT,
        nothing changed."""
        call = LIFECYCLE_NAMES.get(platform, {}).get(name)
        if call is None:
            return Status.INVALID_ARGUMENT
        return getattr(self, call)(now)

    # ------------------------------------------------------------ prompts

    def prompt_begin(self, now: int) -> "tuple[Status, int]":
        """"judges the deadlines, opens a prompt and writes its token
        (non-zero, never reused on the handle)". A prompt opened on a
        locked session is inert."""
        self._enter(now)
        self.tokens_issued += 1
        token = self.tokens_issued
        self.prompts[token] = Prompt(begun=now, live=self.state == State.UNLOCKED)
        return Status.OK, token

    def prompt_end(self, now: int, token: int) -> Status:
        """"End a prompt: judges the deadlines, then the end is activity.
        Every token can be ended once, inert or not." A token never issued
        or already ended is INVALID_ARGUMENT, nothing changed. When the last
        prompt that covers the current absence ends before its cap, the
        prompt's grace window starts (a prompt ended past its cap starts
        none: the rules already apply as if it had not been opened)."""
        if token not in self.prompts:
            return Status.INVALID_ARGUMENT
        self._enter(now)
        self._end_prompt(now, token)
        return Status.OK

    def _end_prompt(self, now: int, key: int) -> None:
        """A prompt's end, once judged: it starts the prompt's grace window
        for an absence it covered, and "prompt_end is activity" (as touch)."""
        still_deferring = self._prompt_defers(now)
        del self.prompts[key]
        departure = self.departure
        if (departure is not None and departure.covered and still_deferring
                and not self._live_prompts()):
            departure.prompt_ended = now
        if self.state == State.UNLOCKED:
            self.last_activity = now

    def start(self, now: int) -> Status:
        """`idlelock_start`: only the first one applies `lock_on_start`
        (a start before set_passcode uses it up); later ones only judge."""
        self._enter(now)
        if self.started:
            return Status.OK
        self.started = True
        if not self.engaged or self.state != State.UNLOCKED:
            return Status.OK
        if self.config.lock_on_start:
            self._lock(Reason.STARTUP)
        elif self.restored:
            self._judge_restart(now)
        return Status.OK

    def _judge_restart(self, now: int) -> None:
        """A session opened from the store with a device key and
        lock_on_start 0: "start judges the time since the last saved
        activity as an absence that reached the background: rules 3 and 4
        apply to it [...] A saved activity from another boot [...] or later
        than the clock locks with STARTUP." The saved activity is the one
        this handle knows (`known_saved_activity`: another handle's later
        save is not re-read)."""
        assert self.store is not None
        saved = self.known_saved_activity
        if not self.known_activity_this_boot or saved > now:
            self._lock(Reason.STARTUP)
            return
        away = elapsed(now, saved)
        if has_passed(away, self.config.absence_timeout(reached_background=True)):
            self._lock(Reason.BACKGROUNDED)  # rule 3
        elif has_passed(away, self.config.idle_after_ms):
            self._lock(Reason.IDLE)  # rule 4, from the saved activity
        # Otherwise nothing: last activity stays create's reading.

    def disable(self, now: int) -> Status:
        """Sign-out: forgets passcode, count and lockout, deletes the store;
        UNLOCKED / NONE, not engaged. Works in every state. Presence and
        last activity are not the passcode's: they stay. Header (prompts):
        "A lock, or a sign-out (idlelock_disable), makes every open prompt
        inert": a new sign-in does not inherit them."""
        self._enter(now)
        self._forget_session()
        self.locks_in_call = 0  # disengaged: no lock is left to save
        if self.store is not None:
            # Deleted, also when it was damaged (a sign-out is the way out).
            self.store.remove()
        return Status.OK

    # ----------------------------------------------------------- passcode

    def set_passcode(self, now: int, passcode: bytes) -> Status:
        """header ("Passcode"): bad arguments first (nothing read, nothing changed); needs the
        session unlocked; resets the count (and so any delay), stores
        max_attempts, engages the lock, and is activity."""
        if not passcode_is_valid(passcode, for_set=True):
            return Status.INVALID_ARGUMENT
        self._enter(now)
        was_engaged = self.engaged
        status = self._recheck()
        if status is not None:
            return status
        if was_engaged and not self.engaged:
            # Header: a sign-out elsewhere seen by set_passcode signs this
            # session out and is STORAGE ("another process signed [...] out
            # meanwhile"): it never quietly becomes a new sign-in.
            return Status.STORAGE
        if not self._hands_out():
            return Status.SESSION_LOCKED
        self.bio_wrap = None  # "turns the biometric shortcut off"
        # The new passcode is activity before its requests are voided: an
        # idle lock a voided prompt deferred is judged from it (1.2.2).
        self.last_activity = now
        # Header: "a new passcode (idlelock_set_passcode [...]) [voids] every
        # open request and end[s] its prompt".
        self._void_requests()
        self.engaged = True
        self.passcode_gen += 1
        self.passcode = passcode
        self.count = 0
        self.delay = None
        self.max_attempts = self.config.max_attempts
        self.last_activity = now
        if self.store is not None:
            self.store.engaged = True
            self.store.passcode = passcode
            self.store.count = 0
            self.store.max_attempts = self.config.max_attempts
            self.store.saved_lock = None
            self._save_activity(now)
            self.store.delay_ms = 0
            self.store.bio_wrap = None
        # "A passcode entry is a successful passcode unlock or
        # re-authentication, or idlelock_set_passcode (the person typed
        # it)" (not an authentication: last_auth_ms says "not
        # idlelock_set_passcode").
        self._passcode_entered(now)
        return Status.OK

    def unlock(self, now: int, passcode: bytes) -> Status:
        """header ("Passcode") `unlock` order: bad arguments → INVALID_ARGUMENT; no passcode
        → NO_PASSCODE; locked out → LOCKED_OUT; header (1.1: prompts, warnings, delays, lifecycle names): a running delay →
        RETRY_LATER ("The attempt was not counted and no key derivation
        ran"); then the attempt is counted (and saved) before the passcode
        is checked. On an unlocked session it still verifies and counts."""
        if not passcode_is_valid(passcode, for_set=False):
            return Status.INVALID_ARGUMENT
        status = self._unlock_refused(now)
        if status is not None:
            return status
        if self._delay_running(now):
            return Status.RETRY_LATER
        self._set_count(self.count + 1)
        if passcode != self.passcode:  # bytes, no normalization
            if self.count >= self.max_attempts:
                self.state = State.LOCKED_OUT  # the reason is kept
                self.lock_epoch += 1
                self._make_prompts_inert()
                return Status.LOCKED_OUT
            self._start_delay(now)
            return Status.INVALID_PASSCODE
        # Right: count = 0 (saved), then the unlock commits (nothing can lock
        # the session in between here: one thread, one process).
        self._reset_count()
        self._commit_unlock(now)
        self.last_auth = now
        self._passcode_entered(now)
        return Status.OK

    def _engaged_after_recheck(self, now: int) -> Optional[Status]:
        """Judge, re-check the store, then NO_PASSCODE when not engaged;
        None when the call goes on."""
        self._enter(now)
        status = self._recheck()
        if status is not None:
            return status
        return None if self.engaged else Status.NO_PASSCODE

    def _unlock_refused(self, now: int) -> Optional[Status]:
        """The first steps of an unlock (header ("Passcode")'s order): judge, re-check the
        store, then NO_PASSCODE, LOCKED_OUT; None when the unlock goes on."""
        status = self._engaged_after_recheck(now)
        if status is not None:
            return status
        if self.state == State.LOCKED_OUT:
            return Status.LOCKED_OUT
        return None

    def _reset_count(self) -> None:
        """A right passcode or a passed biometric check: count = 0 (saved),
        and with it any delay."""
        self._set_count(0)
        self.delay = None
        if self.store is not None:
            self.store.delay_ms = 0

    def _commit_unlock(self, at: int) -> None:
        """UNLOCKED, reason NONE, last activity = `at` (saved)."""
        self.state, self.reason = State.UNLOCKED, Reason.NONE
        self.last_activity = at
        if self.departure is not None:
            # "An unlock that succeeds while away sets departure = now";
            # whether the absence reached the background is kept. The
            # absence measured from now began under a prompt only if one
            # defers now.
            self.departure.at = at
            self.departure.covered = self._prompt_defers(at)
            self.departure.prompt_ended = None
        if self.store is not None:
            self.store.saved_lock = None
            self._save_activity(at)

    def _shortcut_off(self) -> None:
        self._set_shortcut(None)
        if self.store is not None:
            self.store.bio_wrap = None

    def _shortcut_on(self, wrap: int) -> None:
        self._set_shortcut(wrap)
        if self.store is not None:
            self.store.bio_wrap = wrap

    # ------------------------------------------------ 1.2 passcode policies

    def _passcode_entered(self, at: int) -> None:
        """A passcode entry (an unlock or re-authentication by passcode, or
        a new passcode): "it resets the count"; saved with this boot."""
        self.entered_this_boot = True
        self.entered_at = at
        self.distrusted = None
        self.step_untold = False  # a new entry: the step's is moot
        self.bio_uses = 0
        if self.store is not None:
            self.store.passcode_entered_at = at
            self.store.passcode_this_boot = True
            self.store.biometric_uses = 0

    def _biometric_used(self) -> None:
        """A biometric unlock (or re-authentication): one more in a row,
        counted on from the store's count (other processes' count too)."""
        self.bio_uses = min(self.bio_uses + 1, BIOMETRIC_MAX_USES_MAX)
        if self.store is not None:
            self.store.biometric_uses = self.bio_uses

    def _adopt_policy_record(self) -> None:
        """The policies' state as the store keeps it, read at create and at
        each re-check (header: "each handle applies the policies of its own
        config to them"). The entry is a time on this handle's clock only
        when stamped in this boot and not later than the latest reading of
        this handle ("An entry from another boot, one the clock now reads
        earlier than (a clock step) [...] counts as too old"); one found
        later than the clock, or made unknown by a clock step here, stays
        unknown until the next entry."""
        store = self.store
        assert store is not None
        self.entered_this_boot = store.passcode_this_boot
        at = store.passcode_entered_at
        if store.passcode_this_boot and at > self.latest:
            self.distrusted = at
        known = store.passcode_this_boot and at != self.distrusted
        self.entered_at = at if known else None
        self.bio_uses = min(max(store.biometric_uses, 0), BIOMETRIC_MAX_USES_MAX)

    def _policy_demands(self, now: int) -> bool:
        """A policy refuses the biometric shortcut at `now` (engaged
        sessions only; "The policies never refuse the passcode and never
        lock a session: they only close the shortcut")."""
        if not self.engaged:
            return False
        config = self.config
        if config.passcode_after_reboot and not self.entered_this_boot:
            # "with a store, the first unlock in a new boot must be by
            # passcode"; a memory-only session never outlives its boot (its
            # passcode was entered in it).
            return True
        if config.biometric_max_uses and self.bio_uses >= config.biometric_max_uses:
            return True
        if config.passcode_max_age_ms:
            if self.entered_at is None:
                return True  # fail closed
            # "once the last passcode entry is that old": elapsed >= T.
            return now - self.entered_at >= config.passcode_max_age_ms
        return False

    def is_passcode_required(self, now: int) -> bool:
        return self._policy_demands(now)

    def _policy_moment(self) -> Optional[int]:
        """When passcode_max_age_ms starts to require the passcode, if no
        policy does already (exact: the moment may lie past INT64_MAX)."""
        config = self.config
        if not self.engaged or not config.passcode_max_age_ms or self.entered_at is None:
            return None
        if config.passcode_after_reboot and not self.entered_this_boot:
            return None
        if config.biometric_max_uses and self.bio_uses >= config.biometric_max_uses:
            return None
        return self.entered_at + config.passcode_max_age_ms

    def require_recent_auth(self, now: int, max_age: int) -> Status:
        """Header: INVALID_ARGUMENT (nothing changed) for a max_age_ms out
        of 1..IDLELOCK_RECENT_AUTH_MAX_MS; then judges and looks at the
        store as the gate does; NO_PASSCODE when no passcode is set;
        SESSION_LOCKED when locked (or awaiting its first start); OK when
        the last successful authentication on this handle is at most
        max_age_ms old; REAUTH_REQUIRED when older, when there was none, or
        when the clock reads earlier than it."""
        if not 1 <= max_age <= RECENT_AUTH_MAX_MS:
            return Status.INVALID_ARGUMENT
        status = self._engaged_after_recheck(now)
        if status is not None:
            return status
        if not self._hands_out():
            return Status.SESSION_LOCKED
        at = self.last_auth
        if at == NEVER or now < at or now - at > max_age:
            return Status.REAUTH_REQUIRED
        return Status.OK

    # ---------------------------------------------------------- header ("Biometric shortcut") biometrics
    #
    # Both ways of running the biometric check obey one set of rules
    # (header: "It is the two-phase pair below run by the library: begin,
    # load_secret, finish with its answer"): the callback authenticator's
    # calls are a begin and a finish in one call, at two clock readings.

    def _open_host_check(self, now: int) -> int:
        """header (1.1: prompts, warnings, delays, lifecycle names): "The library's own load_secret call counts as a prompt" (and
        so does store_secret while the shortcut is enabled, and a request
        of the pair): opened where the call's own checks passed, inert on a
        locked session."""
        self.host_checks += 1
        key = -self.host_checks
        self.prompts[key] = Prompt(begun=now, live=self.state == State.UNLOCKED)
        return key

    def _discard_prompt(self, key: int) -> None:
        """A voided request's prompt goes without an end: not activity, and
        "an absence it covered is judged from the real departure" (no grace
        window follows it when it was the last live prompt)."""
        prompt = self.prompts.pop(key)
        if prompt.live and not self._live_prompts() and self.departure is not None:
            self.departure.prompt_ended = None
        # 1.2.2 (header, "Requests"): the deadlines are judged again at the
        # call's reading, so a gate answers from the state the call leaves
        # (an idle lock the prompt deferred may be due now).
        self._judge(self.latest)

    def _void_requests(self) -> None:
        """Header, "Requests": the shortcut turned off (by any path), a new
        passcode and a sign-out void every open request: "its token is no
        longer open (finishing it is IDLELOCK_ERR_INVALID_ARGUMENT [...]) and
        its prompt goes without an end"."""
        for request in self.requests.values():
            self._discard_prompt(request.prompt)
        self.requests.clear()

    def _begin_checks(self, now: int, purpose: str, callback: bool) -> Optional[Status]:
        """What a begin checks (idlelock_biometric_begin; the callback calls
        check the same first), after judging; None when it may open. UNLOCK:
        no passcode (NO_PASSCODE), locked out (LOCKED_OUT), the shortcut off,
        a policy requiring the passcode, prompt_cap_ms 0 (each
        LOCK_UNAVAILABLE); ENABLE: no passcode, a session that does not hand
        out (SESSION_LOCKED), prompt_cap_ms 0. The callback calls also need
        an authenticator (LOCK_UNAVAILABLE)."""
        status = self._recheck()
        if status is not None:
            return status
        if not self.engaged:
            return Status.NO_PASSCODE
        if purpose == "unlock":
            if self.state == State.LOCKED_OUT:
                return Status.LOCKED_OUT
            if callback and not self.config.has_authenticator:
                return Status.LOCK_UNAVAILABLE
            if not self.bio_enabled:
                return Status.LOCK_UNAVAILABLE
            # (an authenticator whose is_available said 0: never here)
            if self._policy_demands(now):
                return Status.LOCK_UNAVAILABLE
        else:
            if not self._hands_out():
                return Status.SESSION_LOCKED
            if callback and not self.config.has_authenticator:
                return Status.LOCK_UNAVAILABLE
        if self.config.prompt_cap_ms == 0:
            # "With prompt_cap_ms 0 a begin is refused [...]: the check
            # would have no time."
            return Status.LOCK_UNAVAILABLE
        return None

    def _open_request(self, now: int, purpose: str) -> Request:
        wrap = self.bio_wrap if purpose == "unlock" else _new_wrap()
        return Request(purpose=purpose, prompt=self._open_host_check(now), epoch=self.lock_epoch,
                       passcode_gen=self.passcode_gen, opened_at=now, wrap=wrap)

    def _expired(self, request: Request, now: int) -> bool:
        """Header, "Requests": "a request has expired at a reading once
        prompt_cap_ms has passed since its begin (elapsed >= prompt_cap_ms),
        or once the clock reads earlier than its begin or has stepped back
        since (a step any call of the handle saw, that reading included)".
        One definition, for the finish and for the table of open requests."""
        return (now < request.opened_at or request.stepped
                or now - request.opened_at >= self.config.prompt_cap_ms)

    def _apply_answer(self, now: int, request: Request, answer: str, expired: bool) -> Status:
        """The host's answer, at the end of the check (already judged at
        `now`): what other processes did is seen first (the store re-check);
        an expired request is LOCK_UNAVAILABLE, whatever the answer; a
        failed, cancelled or unavailable check is LOCK_UNAVAILABLE; then,
        for a released secret (UNLOCK) or a stored one (ENABLE): a sign-out
        seen now is NO_PASSCODE;
        UNLOCK: a policy requiring the passcode by now, a shortcut changed
        since begin, a secret that does not open the wrap (the shortcut goes)
        are LOCK_UNAVAILABLE; then as an unlock's commit (header ("Passcode"): never counted,
        the count reset, the lock epoch). ENABLE: SESSION_LOCKED when the
        session was locked (or given another passcode) after begin, else the
        shortcut is on."""
        status = self._recheck()
        if status is not None:
            return status
        if expired:
            return Status.LOCK_UNAVAILABLE
        if answer not in ("ok", "wrong_secret"):
            return Status.LOCK_UNAVAILABLE
        if not self.engaged:
            return Status.NO_PASSCODE
        if request.purpose == "enable":
            if (not self._hands_out() or self.lock_epoch != request.epoch
                    or self.passcode_gen != request.passcode_gen):
                return Status.SESSION_LOCKED
            assert request.wrap is not None
            self._shortcut_on(request.wrap)
            return Status.OK
        if self._policy_demands(now):
            return Status.LOCK_UNAVAILABLE
        if self.bio_wrap != request.wrap:
            return Status.LOCK_UNAVAILABLE
        if answer == "wrong_secret":
            # "a secret that does not open the shortcut's wrap turns the
            # shortcut off [...], which voids every other open request"
            self._shortcut_off()
            return Status.LOCK_UNAVAILABLE
        if self.passcode_gen != request.passcode_gen:
            return Status.SESSION_LOCKED
        if self.state == State.LOCKED_OUT:
            return Status.LOCKED_OUT
        self._reset_count()  # "never counts an attempt [...] resets the count"
        if self.lock_epoch != request.epoch:
            # "a lock that happened after begin wins over a success"
            return Status.SESSION_LOCKED
        self._commit_unlock(now)
        self.last_auth = now
        self._biometric_used()
        return Status.OK

    def _close_request(self, end: int, request: Request, answer: str) -> Status:
        """The end of a check "exactly as a prompt ends (clock read, step
        check, deadlines judged, then activity)": judged at `end`, the
        answer applied, then the prompt's end. Header, "Requests": an
        expired request's finish "changes nothing but the judging every
        call does: its end is no activity [...] and starts no grace
        window" (its prompt goes as a voided one's)."""
        self._enter(end)
        expired = self._expired(request, end)
        status = self._apply_answer(end, request, answer, expired)
        if expired:
            self._discard_prompt(request.prompt)
        else:
            self._end_prompt(end, request.prompt)
        return status

    # -------------------------------------------------- the callback calls

    def enable_biometrics(self, now: int, end: int) -> Status:
        """header ("Biometric shortcut"): "needs a passcode (NO_PASSCODE), an unlocked session
        (SESSION_LOCKED) and an available authenticator"; then the host
        stores the secret (`store_secret`, from `now` to `end`, a host
        check): its end is judged at `end` first (header (1.1: prompts, warnings, delays, lifecycle names)), and the shortcut goes
        on only if nothing locked the session meanwhile and the check did not
        outlive prompt_cap_ms. store_secret replaced the host's item, so an
        enable that fails then turns off a shortcut enabled before (header,
        enable_biometrics)."""
        self._enter(now)
        status = self._begin_checks(now, "enable", callback=True)
        if status is not None:
            return status
        request = self._open_request(now, "enable")
        status = self._close_request(end, request, "ok")
        if status != Status.OK:
            self._shortcut_off()
        return status

    def disable_biometrics(self, now: int) -> Status:
        """header ("Biometric shortcut"): "forgets the wrap and calls delete_secret"; it voids every open
        request (header)."""
        self._enter(now)
        status = self._recheck()
        if status is not None:
            return status
        self._void_requests()
        if self.bio_enabled:
            self._shortcut_off()
        return Status.OK

    # load_secret's answers, as the harness's keystore gives them.
    BIO_OUTCOMES = ("ok", "failed", "cancelled", "unavailable", "unknown_code",
                    "wrong_length", "wrong_secret")

    def unlock_with_biometrics(self, now: int, end: int, outcome: str) -> Status:
        """header ("Biometric shortcut") `unlock_with_biometrics`: NO_PASSCODE, LOCKED_OUT as for
        unlock; LOCK_UNAVAILABLE when not enabled (or a policy requires the
        passcode, or prompt_cap_ms is 0). Then `load_secret` runs from `now`
        to `end` as a host check: header (1.1: prompts, warnings, delays, lifecycle names) "ends as one whatever the check's
        outcome [...]: the clock is read and the deadlines judged [...]
        before its end counts as activity". A failed, cancelled or
        unavailable check (an unknown code, or a release of another length
        than 32, is a failed one) is LOCK_UNAVAILABLE, and so is one that
        outlived prompt_cap_ms; a secret that does not open the wrap turns
        the shortcut off. A passed one never counts an attempt and resets
        the count; it unlocks at `end` (the prompt's end) unless the session
        was locked while it ran (SESSION_LOCKED, the count reset all the
        same)."""
        assert outcome in self.BIO_OUTCOMES, outcome
        self._enter(now)
        status = self._begin_checks(now, "unlock", callback=True)
        if status is not None:
            return status
        request = self._open_request(now, "unlock")
        answer = outcome if outcome in ("ok", "wrong_secret") else "failed"
        return self._close_request(end, request, answer)

    # ------------------------------------------------------ the pair (1.2)

    def biometric_begin(self, now: int, purpose: str) -> "tuple[Status, int]":
        """idlelock_biometric_begin: judges first; with
        IDLELOCK_BIOMETRIC_REQUESTS_MAX requests open, those that have
        expired at this reading make room, and INVALID_ARGUMENT (nothing else
        changed) when none has; then checks as the call it stands for; on
        success a prompt is open until the request is finished or voided.
        Returns the model's token (0 when none was issued)."""
        assert purpose in ("unlock", "enable"), purpose
        self._enter(now)
        if len(self.requests) >= BIOMETRIC_REQUESTS_MAX:
            # Header: "A begin that finds that many open first frees those
            # that have expired at its own reading (their tokens are then no
            # longer open, as a voided one's)"; their prompts go without an
            # end, as an expired request's finish ends it.
            for key, request in list(self.requests.items()):
                if self._expired(request, now):
                    self._discard_prompt(request.prompt)
                    del self.requests[key]
        if len(self.requests) >= BIOMETRIC_REQUESTS_MAX:
            # "nothing else changed" (the judging above is every call's).
            return Status.INVALID_ARGUMENT, 0
        status = self._begin_checks(now, purpose, callback=False)
        if status is not None:
            return status, 0
        self.requests_issued += 1
        token = self.requests_issued
        self.requests[token] = self._open_request(now, purpose)
        return Status.OK, token

    def drop_request(self, token: int) -> None:
        """A begin that opened its request but failed after all (the call's
        lock could not be saved): "on any failure no request is left
        open"."""
        request = self.requests.pop(token, None)
        if request is not None:
            self._discard_prompt(request.prompt)

    # The answers a host finishes with (the harness passes the secret it
    # kept, or another one): IDLELOCK_AUTH_OK with the released secret for
    # UNLOCK (none for ENABLE), _FAILED, _CANCELLED, _UNAVAILABLE, or OK
    # with a secret that does not open the wrap; and bad arguments: a result
    # that is no IDLELOCK_AUTH_* code, a secret of a length that does not fit
    # the purpose and result, NULL with a length.
    FINISH_ANSWERS = ("ok", "failed", "cancelled", "unavailable", "wrong_secret")
    FINISH_BAD = ("bad_result", "bad_length", "null_secret", "secret_with_failure")

    def biometric_finish(self, now: int, token: Optional[int], answer: str) -> Status:
        """idlelock_biometric_finish: INVALID_ARGUMENT with nothing changed
        (the request stays open) for a bad argument or a token that is not
        open on this handle (`token` None: one from another handle); then the
        request is finished, whatever the status."""
        assert answer in self.FINISH_ANSWERS + self.FINISH_BAD, answer
        request = self.requests.get(token) if token is not None else None
        if answer in self.FINISH_BAD or request is None:
            return Status.INVALID_ARGUMENT
        if request.purpose == "enable" and answer == "wrong_secret":
            # An ENABLE finish passes no secret: 32 bytes are a bad length.
            return Status.INVALID_ARGUMENT
        del self.requests[token]
        return self._close_request(now, request, answer)

    def _start_delay(self, now: int) -> None:
        """idlelock_delay_step: "once failed_attempts wrong passcodes are
        counted, passcode attempts are refused with IDLELOCK_ERR_RETRY_LATER
        for delay_ms", from this attempt; saved with the store."""
        length = self.config.delay_after(self.count)
        self.delay = Delay(start=now, length=length) if length else None
        if self.store is not None:
            self.store.delay_ms = length
            self.store.delay_start = now

    def _set_count(self, count: int) -> None:
        self.count = count
        if self.store is not None:
            self.store.count = count


def restart(config: Config, now: int, store: Store) -> "tuple[Status, Optional[Model]]":
    """A new process on the same store (the old handle is destroyed)."""
    return Model.create(config, now, store)


__all__ = [
    "INT64_MIN",
    "INT64_MAX",
    "NEVER",
    "SAME_AS_IDLE",
    "State",
    "Reason",
    "Status",
    "Config",
    "Store",
    "Departure",
    "Prompt",
    "Delay",
    "Snapshot",
    "LIFECYCLE_NAMES",
    "Model",
    "elapsed",
    "has_passed",
    "clamp_ms",
    "passcode_is_valid",
    "restart",
]
