# SPDX-License-Identifier: MIT
"""The real libidlelock against the reference model (idlelock_model.py).

A Hypothesis RuleBasedStateMachine draws a configuration, a clock origin and
a mode (memory only, a store without a device key, a store with one), then
random calls: events, `lock`, `start`, the gate, `snapshot_get`, passcode
calls, `disable`, prompts (`prompt_begin`, `prompt_end` of an open, an ended
or a never-issued token), `idlelock_lifecycle` with every platform name and
unknown ones, the biometric shortcut (`enable_biometrics`,
`unlock_with_biometrics` with every outcome of `load_secret`,
`disable_biometrics`) with the host's sheet taking time or seeing the
clock step during `store_secret` and `load_secret`, and, with a store,
restarts of the process on the same store and the same clock (and
reboots: the store's boot ids another boot's), a second handle opened on
the store before and after its `start` (which may unlock or enable through
the two-phase pair, or finish a token of this handle's), and the store
removed (a sign-out elsewhere), damaged (six kinds) and repaired; 1.2: the
two-phase pair (`biometric_begin` UNLOCK / ENABLE, `biometric_finish` of an
open, a finished, a voided, a never-issued or another handle's token with
every answer and bad arguments; the table filled to
IDLELOCK_BIOMETRIC_REQUESTS_MAX, so that a begin frees the requests that
expired; requests voided by every path that turns the shortcut off, here or
in the second handle), `require_recent_auth`. Configurations
include the 1.1 fields (`prompt_cap_ms`, `warn_before_ms`,
`delay_schedule`), the 1.2 passcode policies and, sometimes, no callback
authenticator. The clock moves before each call, biased to the
boundaries that matter: exactly `grace_ms`, exactly a timeout, measured from
the last activity, the departure, the last saved activity, the earliest
open prompt, a prompt's end, the start of an escalating delay, the earliest
open biometric request, the last passcode entry or the last
authentication, one ms either side; exactly to `ms_until_next_deadline` (one ms either side); 0;
`IDLELOCK_NEVER`; a step backwards. After every step the library and
the model are compared (conftest.Harness).

Cost: a passcode check is one Argon2id run at the OWASP floor (2 passes,
19 MiB; tens of ms). Everything else is microseconds. So the passcode calls
share one rule (picked about as often as one event) and a per-sequence
budget caps them (IDLELOCK_MODEL_KDF_BUDGET; default 2 in the ci profile, 6
in the long one), on top of the passcode most sequences set while they
are created.

Profiles (conftest.py): `ci` (default; 2,000 sequences of up to 30 steps,
derandomized) and `long` (IDLELOCK_MODEL_PROFILE=long).
"""

from __future__ import annotations

import collections
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, Optional

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

import idlelock_model as M
from idlelock_model import INT64_MIN, NEVER, SAME_AS_IDLE, State

from conftest import PROFILE, T0, Harness, Library, FakeClock, model_config, tmp_base

KDF_BUDGET = int(
    os.environ.get("IDLELOCK_MODEL_KDF_BUDGET", "6" if PROFILE == "long" else "2")
)

# Counted across the run, checked at the end of the ci run.
STATS: Dict[str, int] = {"sequences": 0, "steps": 0, "kdf": 0, "restarts": 0}
# What the steps reached (printed with -s): a cheap check that the
# strategies still get everywhere after a change.
REACHED: "collections.Counter[str]" = collections.Counter()

# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

BIG = 10**7

idle_ms = st.one_of(
    st.sampled_from([NEVER, 1, 2, 1_000, 1_500, 30_000, 60_000, NEVER - 1]),
    st.integers(1, BIG),
)
background_ms = st.one_of(
    st.sampled_from([SAME_AS_IDLE, SAME_AS_IDLE, 0, 1, 1_500, 30_000, NEVER, NEVER - 1]),
    st.integers(0, BIG),
)
inactive_ms = st.one_of(st.sampled_from([0, 1, 30_000, NEVER]), st.integers(0, BIG))
grace_ms = st.one_of(st.sampled_from([0, 1, 1_500, 60_000]), st.integers(0, 60_000))
max_attempts = st.sampled_from([1, 1, 2, 2, 3, 5, 100])
prompt_cap = st.one_of(st.sampled_from([0, 1, 1_500, 120_000, 600_000]), st.integers(0, 600_000))
# 1.2: the passcode policies, mostly off (each one that is on closes the
# shortcut often, and the pair needs it open).
max_age = st.one_of(
    st.just(0), st.just(0), st.just(0),
    st.sampled_from([M.PASSCODE_MAX_AGE_MIN_MS, M.PASSCODE_MAX_AGE_MIN_MS + 1,
                     M.PASSCODE_MAX_AGE_MAX_MS, 86_400_000]),
    st.integers(M.PASSCODE_MAX_AGE_MIN_MS, M.PASSCODE_MAX_AGE_MAX_MS),
)
max_uses = st.sampled_from([0] * 8 + [1, 2, 3, M.BIOMETRIC_MAX_USES_MAX])
delay_ms = st.one_of(st.sampled_from([1, 1_000, 1_500, 30_000, 86_400_000]), st.integers(1, BIG))


@st.composite
def warn_before(draw: Any, idle: int) -> int:
    """0 (off) or 1..idle_after_ms-1."""
    if idle <= 1 or draw(st.integers(0, 2)) == 0:
        return 0
    return draw(st.one_of(
        st.sampled_from([1, idle - 1, idle // 2, min(idle - 1, 10_000)]),
        st.integers(1, idle - 1),
    ))


@st.composite
def schedules(draw: Any, attempts: int) -> tuple:
    """An escalating-delay schedule valid for `attempts` (often none)."""
    if attempts < 2 or draw(st.integers(0, 2)) == 0:
        return ()
    counts = draw(st.lists(st.integers(1, attempts - 1), min_size=1, max_size=3, unique=True))
    delays = sorted(draw(st.lists(delay_ms, min_size=len(counts), max_size=len(counts))))
    return tuple(zip(sorted(counts), delays))


@st.composite
def configs(draw: Any, mode: str) -> Dict[str, int]:
    """Valid rule fields for `mode` (invalid ones: test_create_validates)."""
    fields = dict(
        idle_after_ms=draw(idle_ms),
        background_after_ms=draw(background_ms),
        inactive_after_ms=draw(inactive_ms),
        grace_ms=draw(grace_ms),
        max_attempts=draw(max_attempts),
        lock_on_start=draw(st.sampled_from([0, 1])),
        prompt_cap_ms=draw(prompt_cap),
    )
    if mode == "store":
        fields["lock_on_start"] = 1  # no device key: 0 is INVALID_ARGUMENT
    config = model_config(mode, fields)
    if config.problem() == "idle_after_ms":  # both timeouts NEVER
        fields["idle_after_ms"] = draw(st.sampled_from([1_000, 60_000]))
    fields["warn_before_ms"] = draw(warn_before(fields["idle_after_ms"]))
    fields["delay_schedule"] = draw(schedules(fields["max_attempts"]))
    fields["passcode_after_reboot"] = draw(st.sampled_from([0, 0, 0, 0, 0, 1]))
    fields["passcode_max_age_ms"] = draw(max_age)
    fields["biometric_max_uses"] = draw(max_uses)
    fields["authenticator"] = draw(st.sampled_from([1, 1, 1, 1, 1, 0]))
    assert model_config(mode, fields).problem() is None
    return fields


origins = st.sampled_from(
    [T0, T0, T0, T0, 0, -(2**40), 2**62, INT64_MIN + 5, NEVER - 100_000_000]
)

ANCHORS = ("now", "activity", "departure", "saved_activity", "prompt", "prompt_ended",
           "delay", "request", "passcode_entry", "auth")
SPANS = ("zero", "grace", "idle", "background", "inactive", "absence", "absence_inactive",
         "cap", "warn", "delay", "max_age")
# The times an age is measured from, for steps back over it.
BACK_ANCHORS = ("passcode_entry", "auth", "delay", "request", "activity")


@dataclass(frozen=True)
class Move:
    """A clock move before a call, resolved against the model's recorded
    times when it runs:
    - stay: no move;
    - to(anchor, span, adjust): to anchor + span + adjust (anchor: now, the
      last activity, the departure, the last saved activity; span: 0,
      grace_ms, a timeout); a target behind the clock does not move it,
      except from "now", where zero-1 is a step back of one ms;
    - next(adjust): to ms_until_next_deadline + adjust from now (no move
      when it is NEVER);
    - by(ms): forward; back(ms): a step backwards (ms < 0);
    - backto(anchor, span, adjust): back to anchor + span + adjust when that
      is earlier than the clock (else no move): a step that lands after
      the passcode entry, the last authentication, a delay's start or a
      request's opening, before or after the age it measures has closed
      (header, "Events and the decision rules": clock steps);
    - never: by IDLELOCK_NEVER (the clock saturates at INT64_MAX)."""

    kind: str
    amount: int = 0
    anchor: str = ""
    span: str = ""
    adjust: int = 0

    def __repr__(self) -> str:
        if self.kind == "stay":
            return "Move.stay"
        if self.kind == "to":
            return f"Move.to({self.anchor}+{self.span}{self.adjust:+d})"
        if self.kind == "never":
            return "Move.never"
        if self.kind == "next":
            return f"Move.next({self.adjust:+d})"
        if self.kind == "backto":
            return f"Move.backto({self.anchor}+{self.span}{self.adjust:+d})"
        return f"Move.{self.kind}({self.amount})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # Hypothesis' printer
        printer.text(repr(self))


STAY = Move("stay")


@st.composite
def moves(draw: Any) -> Move:
    bucket = draw(st.integers(0, 199))  # shrinks toward "stay"
    if bucket < 70:
        return STAY
    if bucket < 100:
        return Move("next", adjust=draw(st.sampled_from([0, 0, -1, 1])))
    if bucket < 150:
        return Move(
            "to",
            anchor=draw(st.sampled_from(ANCHORS)),
            span=draw(st.sampled_from(SPANS)),
            adjust=draw(st.sampled_from([0, -1, 1])),
        )
    if bucket < 192:
        amount = draw(
            st.one_of(
                st.sampled_from([1, 2, 999, 1_000, 1_499, 1_500, 1_501, 29_999, 30_000, 30_001,
                                 59_999, 60_000, 60_001, 3_600_000]),
                st.integers(1, 100_000),
                st.integers(1, BIG),
            )
        )
        return Move("by", amount=amount)
    # Rare: each of these ends the unlocked part of a sequence.
    if bucket < 195:
        return Move("back", amount=draw(st.sampled_from([-1, -2, -1_000, -BIG])))
    if bucket < 198:
        # A step back over an age (header, "Events and the decision
        # rules": clock steps): to just after the passcode
        # entry, the authentication, a delay's start or a request's
        # opening, or to either side of the moment the age closes.
        return Move(
            "backto",
            anchor=draw(st.sampled_from(BACK_ANCHORS)),
            span=draw(st.sampled_from(["zero", "max_age", "delay", "cap"])),
            adjust=draw(st.sampled_from([1, -1, 1_000])),
        )
    return Move("never")


# How long the host's sheet stays up during store_secret / load_secret (the
# clock moves by this inside the callback): fixed amounts, steps back, or
# resolved against the model (the prompts' cap, the idle deadline).
HOST_TIMES = [0, 0, 1, 1_500, 59_999, 60_000, 100_000, 600_000, -1, -1_000, -3_600_000,
              "cap-1", "cap", "cap+1", "idle-1", "idle"]

# Passcodes: right ones are the model's; wrong ones come from this pool
# (with both spellings of "café": bytes are compared without normalization).
POOL = ["2468", "1357", "caf\u00e9", "cafe\u0301", "12\x0034"]
# Invalid arguments (never an attempt, no Argon2id, nothing changes).
BAD_FOR_SET = [b"", b"123", "\u65e5\u672c".encode(), b"\xff\xfe\xfd\xfc", b"\xed\xa0\x80abc",
               b"7" * 1025, b"\xc0\xaf123"]
BAD_FOR_UNLOCK = [b"", b"\xff", b"\xed\xa0\x80", b"7" * 1025, b"\xc0\xaf123"]

# ---------------------------------------------------------------------------
# The state machine
# ---------------------------------------------------------------------------


class IdleLockMachine(RuleBasedStateMachine):
    h: Harness

    def __init__(self) -> None:
        super().__init__()
        self.h = None  # type: ignore[assignment]
        self.budget = KDF_BUDGET
        self.disables = 0
        self.saved_before_start = False

    # -------------------------------------------------------------- setup

    @initialize(
        data=st.data(),
        mode=st.sampled_from(["memory", "memory", "store", "store+key", "store+key"]),
        origin=origins,
        engage=st.sampled_from([True, True, True, True, True, False]),
    )
    def setup(self, data: Any, mode: str, origin: int, engage: bool) -> None:
        fields = data.draw(configs(mode), label="config")
        STATS["sequences"] += 1
        self.h = Harness(mode, fields, origin)
        if fields.get("delay_schedule"):
            self.budget += 1  # wrong passcodes start the delays
        if engage:
            STATS["kdf"] += 1
            self.h.step("set_passcode", POOL[0])

    def teardown(self) -> None:
        if self.h is not None:
            self.h.close()

    # ----------------------------------------------------------- helpers

    def _resolve(self, move: Move) -> int:
        """The clock delta of `move` now."""
        model, now = self.h.model, self.h.now
        assert model is not None
        if move.kind == "stay":
            return 0
        if move.kind in ("by", "back"):
            return move.amount
        if move.kind == "never":
            return NEVER
        if move.kind == "next":
            wait = model.ms_until_next_deadline(now)
            return 0 if wait == NEVER else max(0, wait + move.adjust)
        anchor: Optional[int]
        if move.anchor == "now":
            anchor = now
        elif move.anchor == "activity":
            anchor = model.last_activity
        elif move.anchor == "departure":
            anchor = model.departure.at if model.departure is not None else None
        elif move.anchor == "prompt":
            live = [p.begun for p in model.prompts.values() if p.live]
            anchor = min(live) if live else None
        elif move.anchor == "prompt_ended":
            anchor = model.departure.prompt_ended if model.departure is not None else None
        elif move.anchor == "delay":
            anchor = model.delay.start if model.delay is not None else None
        elif move.anchor == "request":
            opened = [r.opened_at for r in model.requests.values()]
            anchor = min(opened) if opened else None
        elif move.anchor == "passcode_entry":
            anchor = model.entered_at
        elif move.anchor == "auth":
            anchor = model.last_auth if model.last_auth != NEVER else None
        else:
            anchor = self.h.store.saved_activity if self.h.store is not None else None
        if anchor is None:
            return 0
        config = model.config
        reached = model.departure.reached_background if model.departure is not None else True
        span = {
            "zero": 0,
            "grace": config.grace_ms,
            "idle": config.idle_after_ms,
            "background": config.background_timeout,
            "inactive": config.inactive_after_ms,
            "absence": config.absence_timeout(reached),
            "absence_inactive": config.absence_timeout(False),
            "cap": config.prompt_cap_ms,
            "warn": config.idle_after_ms - config.warn_before_ms,
            "delay": model.delay.length if model.delay is not None else 0,
            "max_age": config.passcode_max_age_ms,
        }[move.span]
        target = M.saturate(M.saturate(anchor + span) + move.adjust)
        if move.kind == "backto":
            return min(0, target - now)
        if move.anchor == "now":
            return target - now
        return max(0, target - now)

    def _call(self, name: str, move: Move, *args: Any) -> None:
        dt = self._resolve(move)
        if dt:
            self.h.step("clock", dt)
        before = self._open_requests()
        self.h.step(name, *args)
        STATS["steps"] += 1
        self._tally(name, before, args[0] if name == "biometric_finish" else None)

    def _open_requests(self) -> Any:
        """The model and its open request tokens, before a step."""
        model = self.h.model
        return (model, set(model.requests) if model is not None else set())

    def _tally_requests(self, name: str, before: Any, finished: Any) -> None:
        """Which paths voided requests, and which expired them."""
        model = self.h.model
        assert model is not None
        was, tokens = before
        if was is model:
            gone = tokens - set(model.requests) - {finished}
            if gone and name == "biometric_begin":
                REACHED["biometric requests freed (expired) or voided at a begin"] += 1
            elif gone:
                REACHED[f"biometric requests voided by {name}"] += 1
        if any(r.stepped for r in model.requests.values()):
            REACHED["biometric request expired by a clock step"] += 1

    def _tally(self, name: str, before: Any = None, finished: Any = None) -> None:
        model = self.h.model
        assert model is not None
        if before is not None:
            self._tally_requests(name, before, finished)
        if model.state == State.UNLOCKED:
            REACHED["engaged unlocked" if model.engaged else "not engaged"] += 1
        else:
            REACHED[f"{model.state.name}({model.reason.name})"] += 1
        if model.departure is not None:
            REACHED["away"] += 1
            if model._absence_covered(self.h.now):
                REACHED["away, covered by a prompt"] += 1
        if model._prompt_defers(self.h.now):
            REACHED["a prompt defers"] += 1
        if model.is_warning(self.h.now):
            REACHED["warning"] += 1
        if model.ms_until_retry(self.h.now):
            REACHED["delay running"] += 1
        if model.bio_enabled:
            REACHED["shortcut on"] += 1
        if model.requests:
            REACHED["biometric request open"] += 1
            if any(model._expired(r, self.h.now) for r in model.requests.values()):
                REACHED["biometric request expired"] += 1
        if model.is_passcode_required(self.h.now):
            REACHED["passcode required"] += 1
            if model.engaged and model.distrusted is not None and model.entered_at is None:
                REACHED["passcode required: the entry's age unknown after a step"] += 1
        if model.last_auth != NEVER:
            REACHED["authenticated"] += 1
        if model.store is not None and model.store.damaged:
            REACHED["store damaged"] += 1
        if model.restored and not model.started:
            REACHED["stored, not started"] += 1
        REACHED[f"step {name}"] += 1

    # Known divergences the machine steers around: none open. The four it
    # found (stale max_attempts after a sign-out; start ignoring activity
    # saved after create; a delay, and a prompt's cap, cut short by an end
    # saturated at INT64_MAX) are fixed and kept as regression cases in
    # test_regressions.py. A new one gets a guard here while it is open.

    # ------------------------------------------------------------ events

    @rule(move=moves())
    def touch(self, move: Move) -> None:
        self._call("touch", move)

    @rule(move=moves())
    def inactive(self, move: Move) -> None:
        self._call("inactive", move)

    @rule(move=moves())
    def background(self, move: Move) -> None:
        self._call("background", move)

    @rule(move=moves())
    def foreground(self, move: Move) -> None:
        self._call("foreground", move)

    @rule(move=moves())
    def check(self, move: Move) -> None:
        self._call("check", move)

    @rule(move=moves())
    def lock(self, move: Move) -> None:
        self._call("lock", move)

    @rule(move=moves())
    def start(self, move: Move) -> None:
        self._call("start", move)

    @rule(move=moves())
    def snapshot_get(self, move: Move) -> None:
        self._call("snapshot_get", move)

    @rule(move=moves())
    def require_unlocked(self, move: Move) -> None:
        self._call("require_unlocked", move)

    # ---------------------------------------------------------- passcode

    @precondition(lambda self: self.budget > 0)
    @rule(
        move=moves(),
        action=st.sampled_from(
            ["unlock_right", "unlock_right", "unlock_wrong", "set_passcode", "disable"]
        ),
        pick=st.integers(0, len(POOL) - 1),
    )
    def passcode(self, move: Move, action: str, pick: int) -> None:
        """One Argon2id run (at most): a right or wrong unlock, or a new
        passcode; capped per sequence. Sign-out shares this rare slot (it
        costs nothing, but ends the engaged part of a sequence; at most twice
        per sequence, so that sign-ins follow each other on one store, and
        it does not use the budget)."""
        model = self.h.model
        assert model is not None
        if action == "disable":
            if self.disables < 2:
                self.disables += 1
                self._call("disable", move)
                return
            action = "unlock_right"
        # Only calls that reach Argon2id use the budget: an unlock of an
        # engaged session that is not locked out, a new passcode on an
        # unlocked session. The others are answered before it (NO_PASSCODE,
        # LOCKED_OUT, SESSION_LOCKED).
        if action == "set_passcode":
            derives = model.state == State.UNLOCKED
        else:
            derives = (model.engaged and model.state != State.LOCKED_OUT
                       and model.ms_until_retry(self.h.now + self._resolve(move)) == 0)
        if derives:
            self.budget -= 1
            STATS["kdf"] += 1
        current = model.passcode.decode("utf-8") if model.engaged else POOL[0]
        if action == "unlock_right":
            self._call("unlock", move, current)
        elif action == "unlock_wrong":
            wrong = [p for p in POOL if p != current]
            self._call("unlock", move, wrong[pick % len(wrong)])
        else:
            self._call("set_passcode", move, POOL[pick])
        if model.restored and not model.started and action != "unlock_wrong":
            self.saved_before_start = True

    @rule(move=moves(), pick=st.integers(0, 20), for_set=st.booleans())
    def bad_passcode(self, move: Move, pick: int, for_set: bool) -> None:
        """Invalid arguments: INVALID_ARGUMENT, nothing changed, no attempt."""
        if for_set:
            self._call("set_passcode", move, BAD_FOR_SET[pick % len(BAD_FOR_SET)])
        else:
            self._call("unlock", move, BAD_FOR_UNLOCK[pick % len(BAD_FOR_UNLOCK)])

    # ----------------------------------------------------------- prompts

    @rule(move=moves())
    def prompt_begin(self, move: Move) -> None:
        self._call("prompt_begin", move)

    @rule(move=moves(), pick=st.integers(0, 20), kind=st.sampled_from(
        ["open", "open", "open", "open", "ended", "never"]))
    def prompt_end(self, move: Move, pick: int, kind: str) -> None:
        """End an open prompt (inert or not), an ended one again, or a token
        never issued (INVALID_ARGUMENT, nothing changed)."""
        model = self.h.model
        assert model is not None
        open_tokens = sorted(t for t in model.prompts if t > 0)  # not the library's own
        ended = [t for t in range(1, model.tokens_issued + 1) if t not in model.prompts]
        if kind == "open" and open_tokens:
            token = open_tokens[pick % len(open_tokens)]
        elif kind in ("open", "ended") and ended:
            token = ended[pick % len(ended)]
        else:
            token = [0, model.tokens_issued + 1][pick % 2]
        self._call("prompt_end", move, token)

    # --------------------------------------------------------- lifecycle

    @rule(move=moves(), pick=st.integers(0, 99), known=st.integers(0, 9))
    def lifecycle(self, move: Move, pick: int, known: int) -> None:
        """A platform's own state name (mostly a real one; sometimes an
        unknown platform, a wrong case, another platform's name)."""
        if known:
            platform = sorted(M.LIFECYCLE_NAMES)[pick % len(M.LIFECYCLE_NAMES)]
            names = sorted(M.LIFECYCLE_NAMES[platform])
            name = names[(pick // 5) % len(names)]
        else:
            platform = [0, 1, 3, 4, 5, 6, -1][pick % 7]
            name = ["Active", "ON_ANY", "", "foreground", "paused", "ON_RESUME", "detached",
                    "background ", "unknown"][(pick // 7) % 9]
        self._call("lifecycle", move, platform, name)

    # ------------------------------------------------------- biometrics

    def _host_time(self, kind: Any) -> int:
        """The clock move inside a host callback (HOST_TIMES)."""
        if isinstance(kind, int):
            return kind
        model, now = self.h.model, self.h.now
        assert model is not None
        base, sign, adjust = kind.partition("-") if "-" in kind else kind.partition("+")
        delta = (int(adjust) if sign == "+" else -int(adjust)) if adjust else 0
        if base == "cap":
            target = model.config.prompt_cap_ms
        else:
            wait = model.ms_until_idle_lock(now)
            target = 0 if wait == NEVER else wait
        return max(0, target + delta)

    @rule(move=moves(), dt=st.sampled_from(HOST_TIMES))
    def enable_biometrics(self, move: Move, dt: Any) -> None:
        self._call_host("enable_biometrics", move, dt)

    @rule(move=moves(), dt=st.sampled_from(HOST_TIMES),
          outcome=st.sampled_from(M.Model.BIO_OUTCOMES + ("ok", "ok", "failed", "cancelled")))
    def unlock_with_biometrics(self, move: Move, dt: Any, outcome: str) -> None:
        self._call_host("unlock_with_biometrics", move, dt, outcome)

    @rule(move=moves())
    def disable_biometrics(self, move: Move) -> None:
        self._call("disable_biometrics", move)

    # ----------------------------------------- 1.2: the pair, the step-up

    @rule(move=moves(), purpose=st.sampled_from(["unlock", "unlock", "enable"]))
    def biometric_begin(self, move: Move, purpose: str) -> None:
        self._call("biometric_begin", move, purpose)

    @precondition(lambda self: self.h is not None and self.h.model is not None
                  and self.h.model.engaged)
    @rule(move=moves(), purpose=st.sampled_from(["unlock", "enable"]))
    def fill_requests(self, move: Move, purpose: str) -> None:
        """Begins requests until IDLELOCK_BIOMETRIC_REQUESTS_MAX are open
        (or one is refused): the next begin meets a full table and frees
        the requests that have expired by its reading."""
        model = self.h.model
        assert model is not None
        self._call("biometric_begin", move, purpose)
        for _ in range(M.BIOMETRIC_REQUESTS_MAX):
            count = len(model.requests)
            if count >= M.BIOMETRIC_REQUESTS_MAX or self.h.model is not model:
                break
            self._call("biometric_begin", STAY, purpose)
            if len(model.requests) == count:
                break

    @rule(move=moves(), pick=st.integers(0, 20),
          kind=st.sampled_from(["open", "open", "open", "open", "open", "done", "never",
                                "stale"]),
          answer=st.sampled_from(M.Model.FINISH_ANSWERS + ("ok", "ok", "ok", "cancelled")
                                 + M.Model.FINISH_BAD))
    def biometric_finish(self, move: Move, pick: int, kind: str, answer: str) -> None:
        """Finish an open request (with every answer, or bad arguments), a
        token finished or voided already, one never issued, or one a
        destroyed handle issued (INVALID_ARGUMENT, nothing changed)."""
        model = self.h.model
        assert model is not None
        open_tokens = sorted(model.requests)
        done = [t for t in range(1, model.requests_issued + 1) if t not in model.requests]
        token: Any
        if kind == "open" and open_tokens:
            token = open_tokens[pick % len(open_tokens)]
        elif kind in ("open", "done") and done:
            token = done[pick % len(done)]
        elif kind == "stale":
            token = "stale"
        else:
            token = [0, model.requests_issued + 1, "never"][pick % 3]
        self._call("biometric_finish", move, token, answer)

    @rule(move=moves(), max_age=st.sampled_from(
        [1, 1_000, 60_000, 300_000, M.PASSCODE_MAX_AGE_MIN_MS, M.RECENT_AUTH_MAX_MS,
         0, -1, M.RECENT_AUTH_MAX_MS + 1, NEVER, INT64_MIN, "since", "since-1", "since+1"]))
    def require_recent_auth(self, move: Move, max_age: Any) -> None:
        """The step-up check; "since" is exactly the time since the last
        authentication (after the move), one ms either side."""
        delta = self._resolve(move)
        if delta:
            self.h.step("clock", delta)
        model = self.h.model
        assert model is not None
        if isinstance(max_age, str):
            since = self.h.now - model.last_auth if model.last_auth != NEVER else 60_000
            adjust = {"since": 0, "since-1": -1, "since+1": 1}[max_age]
            max_age = max(-1, min(M.RECENT_AUTH_MAX_MS + 1, since + adjust))
        self.h.step("require_recent_auth", max_age)
        STATS["steps"] += 1
        self._tally("require_recent_auth")

    def _call_host(self, name: str, move: Move, dt: Any, *outcome: str) -> None:
        """A call with a host check: the clock moves before it, then by the
        host's time inside the callback (resolved when the call begins)."""
        delta = self._resolve(move)
        if delta:
            self.h.step("clock", delta)
        host = self._host_time(dt)
        before = self._open_requests()
        self.h.step(name, *outcome, host)
        STATS["steps"] += 1
        self._tally(name, before)

    # ------------------------------------------------ the store, from outside

    @precondition(lambda self: self.h is not None and self.h.mode != "memory")
    @rule(move=moves(), start=st.booleans(),
          action=st.sampled_from(Harness.SECOND_HANDLE_ACTIONS))
    def second_handle(self, move: Move, start: bool, action: str) -> None:
        """Another process opens the store while this one runs (and may
        use the pair there)."""
        self._call("second_handle", move, start, action)

    @precondition(lambda self: self.h is not None and self.h.mode != "memory"
                  and self.h.store is not None and self.h.store.engaged)
    @rule(pick=st.integers(0, 3), kind=st.sampled_from(Harness.DAMAGE_KINDS))
    def damage_or_remove_store(self, pick: int, kind: str) -> None:
        """Rare (each ends what a sequence can do with the store until a
        repair or a new passcode): the store removed by a sign-out
        elsewhere, or damaged."""
        assert self.h.store is not None
        if pick == 0:
            self.h.step("remove_store")
        elif pick == 1 and not self.h.store.damaged:
            self.h.step("damage_store", kind)
        else:
            return
        STATS["steps"] += 1
        self._tally("store changed")

    @precondition(lambda self: self.h is not None and self.h.store is not None
                  and self.h.store.damaged)
    @rule()
    def repair_store(self) -> None:
        self.h.step("repair_store")
        STATS["steps"] += 1
        self._tally("repair_store")

    # ----------------------------------------------------------- restart

    @precondition(lambda self: self.h is not None and self.h.mode != "memory")
    @rule(move=moves(), data=st.data(), new_config=st.booleans())
    def restart(self, move: Move, data: Any, new_config: bool) -> None:
        """The process ends; a new one opens the same store on the same boot,
        with the same config or another one (a new app version)."""
        dt = self._resolve(move)
        assert self.h.store is not None
        STATS["restarts"] += 1
        if dt:
            self.h.step("clock", dt)
        fields = data.draw(configs(self.h.mode), label="config") if new_config else self.h.fields
        self.h.step("restart", dict(fields))
        self.saved_before_start = False
        STATS["steps"] += 1
        self._tally("restart")

    @precondition(lambda self: self.h is not None and self.h.mode != "memory"
                  and self.h.store is not None and not self.h.store.damaged)
    @rule(move=moves(), pick=st.integers(0, 2))
    def reboot(self, move: Move, pick: int) -> None:
        """The device restarts (a third as often as the other rules): a new
        process opens the store, whose boot ids are now another boot's
        (passcode_after_reboot, the restart rule's STARTUP, an entry of
        another boot is too old)."""
        if pick:
            return
        dt = self._resolve(move)
        if dt:
            self.h.step("clock", dt)
        self.h.step("reboot")
        self.saved_before_start = False
        STATS["steps"] += 1
        self._tally("reboot")


def test_library_agrees_with_model() -> None:
    """The state machine, in the loaded profile (ci: at least 2,000
    sequences)."""
    before = STATS["sequences"]
    run_state_machine_as_test(IdleLockMachine)
    ran = STATS["sequences"] - before
    if PROFILE == "ci":
        assert ran >= 2_000, f"only {ran} sequences ran"
    print(f"\nmodel: {ran} sequences, {STATS['steps']} steps, {STATS['kdf']} passcode checks, "
          f"{STATS['restarts']} restarts")
    print("model: steps ending in " + ", ".join(f"{k} {v}" for k, v in sorted(REACHED.items())))


# ---------------------------------------------------------------------------
# Configuration bounds (header (idlelock_config's bounds)): create is INVALID_ARGUMENT exactly when
# the model says the config is out of range.
# ---------------------------------------------------------------------------


@settings(max_examples=400)
@given(
    mode=st.sampled_from(["memory", "store", "store+key"]),
    idle=st.sampled_from([INT64_MIN, -1, 0, 1, 60_000, NEVER - 1, NEVER]),
    background=st.sampled_from([INT64_MIN, -2, SAME_AS_IDLE, 0, 1, 30_000, NEVER]),
    inactive=st.sampled_from([INT64_MIN, -1, 0, 30_000, NEVER]),
    grace=st.sampled_from([INT64_MIN, -1, 0, 60_000, 60_001, NEVER]),
    attempts=st.sampled_from([-1, 0, 1, 100, 101]),
    lock_on_start=st.sampled_from([-1, 0, 1, 2]),
)
def test_create_validates_config(
    mode: str, idle: int, background: int, inactive: int, grace: int, attempts: int,
    lock_on_start: int,
) -> None:
    _check_create(model_config(mode, dict(
        idle_after_ms=idle, background_after_ms=background, inactive_after_ms=inactive,
        grace_ms=grace, max_attempts=attempts, lock_on_start=lock_on_start,
    )))


def _check_create(config: M.Config) -> None:
    """Create (on a store in a fresh folder when the config has one) is
    INVALID_ARGUMENT exactly when the model says the config is out of
    range."""
    folder = tempfile.mkdtemp(prefix="idlelock-model-", dir=tmp_base())
    library = Library(FakeClock(T0))
    try:
        status = library.create(config, os.path.join(folder, "session.idlelock"))
    finally:
        library.destroy()
        shutil.rmtree(folder, ignore_errors=True)
    want = M.Status.OK if config.problem() is None else M.Status.INVALID_ARGUMENT
    assert status == want, f"create: {status}, model: {want.name} ({config.problem()})"


# The 1.1 fields' bounds: prompt_cap_ms 0..600000; warn_before_ms 0 or
# 1..idle_after_ms-1; delay_schedule at most 32 steps, failed_attempts
# strictly increasing in 1..max_attempts-1, delay_ms non-decreasing in
# 1..86400000.
BAD_OR_GOOD_SCHEDULES = [
    (), ((1, 1),), ((1, 86_400_000),), ((1, 86_400_001),), ((1, 0),), ((1, -1),),
    ((0, 1_000),), ((4, 1_000),), ((5, 1_000),), ((2, 1_000), (1, 2_000)),
    ((1, 1_000), (1, 2_000)), ((1, 2_000), (2, 1_000)), ((1, 1_000), (2, 1_000)),
    ((1, 1_000), (3, 2_000), (4, 86_400_000)),
]


@settings(max_examples=300)
@given(
    idle=st.sampled_from([1, 2, 60_000, NEVER]),
    cap=st.sampled_from([INT64_MIN, -1, 0, 1, 120_000, 600_000, 600_001, NEVER]),
    warn=st.sampled_from(["-1", "0", "1", "idle-1", "idle", "NEVER"]),
    attempts=st.sampled_from([1, 5]),
    schedule=st.sampled_from(BAD_OR_GOOD_SCHEDULES),
)
def test_create_validates_1_1_config(idle: int, cap: int, warn: str, attempts: int,
                                     schedule: tuple) -> None:
    warn_ms = {"-1": -1, "0": 0, "1": 1, "idle-1": idle - 1, "idle": idle, "NEVER": NEVER}[warn]
    config = model_config("memory", dict(
        idle_after_ms=idle, prompt_cap_ms=cap, warn_before_ms=warn_ms,
        max_attempts=attempts, delay_schedule=schedule,
    ))
    library = Library(FakeClock(T0))
    try:
        status = library.create(config, None)
    finally:
        library.destroy()
    want = M.Status.OK if config.problem() is None else M.Status.INVALID_ARGUMENT
    assert status == want, f"create: {status}, model: {want.name} ({config.problem()})"


def test_delay_schedule_of_33_steps_is_refused() -> None:
    steps = tuple((i, 1_000) for i in range(1, 34))
    config = model_config("memory", dict(idle_after_ms=60_000, max_attempts=100,
                                         delay_schedule=steps))
    assert config.problem() == "delay_schedule"
    library = Library(FakeClock(T0))
    try:
        status = library.create(config, None)
    finally:
        library.destroy()
    assert status == M.Status.INVALID_ARGUMENT
    # 32 steps is the most.
    config = model_config("memory", dict(idle_after_ms=60_000, max_attempts=100,
                                         delay_schedule=steps[:32]))
    assert config.problem() is None
    library = Library(FakeClock(T0))
    try:
        assert library.create(config, None) == M.Status.OK
    finally:
        library.destroy()


def test_ios_preset_is_a_valid_schedule_with_ten_attempts() -> None:
    """idlelock_delay_schedule_ios: "5 wrong passcodes: 1 minute; 6: 5
    minutes; 7: 15 minutes; 9: 1 hour. Use it with max_attempts 10"."""
    from idlelock import _ffi as ffi

    preset = tuple(ffi.ios_delay_schedule())
    assert preset == ((5, 60_000), (6, 300_000), (7, 900_000), (9, 3_600_000))
    assert model_config("memory", dict(idle_after_ms=60_000, max_attempts=10,
                                       delay_schedule=preset)).problem() is None
    assert model_config("memory", dict(idle_after_ms=60_000, max_attempts=9,
                                       delay_schedule=preset)).problem() == "delay_schedule"


# The 1.2 fields' bounds (header): passcode_max_age_ms 0 or 3600000..2592000000;
# passcode_after_reboot 0 or 1; biometric_max_uses 0..1000.
@settings(max_examples=200)
@given(
    mode=st.sampled_from(["memory", "store+key"]),
    age=st.sampled_from([INT64_MIN, -1, 0, 1, M.PASSCODE_MAX_AGE_MIN_MS - 1,
                         M.PASSCODE_MAX_AGE_MIN_MS, M.PASSCODE_MAX_AGE_MAX_MS,
                         M.PASSCODE_MAX_AGE_MAX_MS + 1, NEVER]),
    after_reboot=st.sampled_from([-1, 0, 1, 2]),
    uses=st.sampled_from([-1, 0, 1, M.BIOMETRIC_MAX_USES_MAX, M.BIOMETRIC_MAX_USES_MAX + 1,
                          2**31 - 1]),
)
def test_create_validates_1_2_config(mode: str, age: int, after_reboot: int, uses: int) -> None:
    _check_create(model_config(mode, dict(
        idle_after_ms=60_000, passcode_max_age_ms=age, passcode_after_reboot=after_reboot,
        biometric_max_uses=uses,
    )))
