# SPDX-License-Identifier: MIT
"""The shipped lifecycle traces (traces/*.trace, format in their
README.md) replayed through the Python API: every event is a call of
:class:`idlelock.IdleLock` (or of a :class:`BiometricRequest`), the clock
is the trace's time, biometrics=1 is an :class:`Authenticator` over a fake
keystore that behaves as ``tools/replay/fake_keystore.h``. It prints exactly
what the C replay tool (``tools/replay/idlelock-replay.c``) prints for the
same files, so ``tests/test_traces.py`` can compare the two outputs byte
for byte: the binding decides as the core does.

    python3 replay.py [--quiet] FILE...

Exit status as the C tool's: 0 when every expect held, 1 when one did not,
2 for a malformed trace (its message on stderr)."""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import sys
import tempfile
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

import idlelock
from idlelock import (
    AuthenticationCancelled,
    AuthenticationFailed,
    Authenticator,
    AuthenticatorUnavailable,
    AuthResult,
    BiometricRequest,
    IdleLock,
    IdleLockError,
    Snapshot,
)

NEVER = "never"
MAX_TOKENS = 32
MAX_REQUESTS = 16
REQUEST_NAME_MAX = 15
SHOW_MAX = 64
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

STATUS_NAMES = ["OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE", "LOCKED_OUT",
                "LOCK_UNAVAILABLE", "NO_PASSCODE", "STORAGE", "NOT_FOUND", "BUFFER_TOO_SMALL",
                "NO_MEMORY", "INTERNAL", "RETRY_LATER", "REAUTH_REQUIRED"]
STATE_NAMES = ["UNLOCKED", "LOCKED", "LOCKED_OUT"]
REASON_NAMES = ["NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK"]

# The fixed device key of config device_key=1 and the prompt text of
# biometrics=1: the C tool's.
TEST_DEVICE_KEY = b"idlelock-replay-test-device-key!"
UNLOCK_REASON = "Unlock the replayed session"

ANSWERS = {"ok": AuthResult.OK, "fail": AuthResult.FAILED, "cancel": AuthResult.CANCELLED,
           "unavailable": AuthResult.UNAVAILABLE}
FINISHES = dict(ANSWERS, wrong=AuthResult.OK)

SNAP_EVENTS = ("start", "touch", "inactive", "background", "foreground", "check", "lock", "snapshot")
OTHER_EVENTS = {"passcode": (1, 1), "unlock": (1, 1), "disable": (0, 0), "put": (2, 2), "get": (1, 1),
                "remove": (1, 1), "gate": (0, 0), "restart": (0, 0), "enable-biometrics": (0, 0),
                "disable-biometrics": (0, 0), "unlock-biometrics": (0, 1), "enrolment-change": (0, 0),
                "bio-available": (1, 1), "bio-begin": (1, 2), "bio-finish": (2, 2), "recent-auth": (1, 1),
                "reboot": (0, 0)}
CONFIG_KEYS = ("idle", "background", "inactive", "grace", "attempts", "lock_on_start", "store",
               "device_key", "warn", "biometrics", "prompt_cap", "max_age", "after_reboot", "max_uses")


class Malformed(Exception):
    """A line the trace format does not allow (exit status 2)."""


class FakeKeystore(Authenticator):
    """``tools/replay/fake_keystore.h`` as an :class:`Authenticator`: the
    host's keystore, alive for the whole trace (across restarts)."""

    def __init__(self) -> None:
        self.available = True
        self.next_answer = AuthResult.OK
        self.fail_store = False
        self.secret: Optional[bytearray] = None

    @property
    def has_secret(self) -> bool:
        return self.secret is not None

    def wipe(self) -> None:
        if self.secret is not None:
            self.secret[:] = bytes(len(self.secret))
        self.secret = None

    def keep(self, secret: bytes) -> bool:
        if not self.available or self.fail_store or len(secret) != idlelock.AUTH_SECRET_BYTES:
            return False
        self.secret = bytearray(secret)
        return True

    def is_available(self) -> bool:
        return self.available

    def store_secret(self, secret: bytes) -> None:
        if not self.keep(secret):
            raise AuthenticationFailed("the fake keystore refused the item")

    def load_secret(self, reason: Optional[str]) -> bytes:
        answer, self.next_answer = self.next_answer, AuthResult.OK
        if answer == AuthResult.FAILED:
            raise AuthenticationFailed("fake: failed")
        if answer == AuthResult.CANCELLED:
            raise AuthenticationCancelled("fake: cancelled")
        if answer == AuthResult.UNAVAILABLE or not self.available or self.secret is None:
            raise AuthenticatorUnavailable("fake: unavailable")
        return bytes(self.secret)

    def delete_secret(self) -> None:
        self.wipe()

    def change_enrolment(self) -> None:
        if self.secret is not None:
            self.secret[:] = bytes(b ^ 0xFF for b in self.secret)


class Request:
    """A bio-begin's request, under its trace name."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose
        self.request: Optional[BiometricRequest] = None
        self.secret: Optional[bytes] = None  # an enable's, until a finish used it


# -- numbers and names --------------------------------------------------------


def parse_i64(s: str) -> Optional[int]:
    body = s[1:] if s[:1] in "+-" else s
    if not body or not body.isdigit() or not body.isascii():
        return None
    v = int(s)
    return v if INT64_MIN <= v <= INT64_MAX else None


def parse_ms(s: str) -> Optional[int]:
    return idlelock.NEVER if s == NEVER else parse_i64(s)


def parse_i32(s: str) -> Optional[int]:
    v = parse_i64(s)
    return v if v is not None and -(2**31) <= v < 2**31 else None


def name_of(names: Sequence[str], v: int) -> str:
    return names[v] if 0 <= v < len(names) else str(v)


def status_word(status: int) -> str:
    name = idlelock.status_name(status)
    for prefix in ("IDLELOCK_ERR_", "IDLELOCK_"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def escaped(data: bytes) -> str:
    out = []
    for i, b in enumerate(data):
        if i == SHOW_MAX:
            out.append("...")
            break
        if b in (0x22, 0x5C):
            out.append("\\" + chr(b))
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def show(token: bytes) -> str:
    out = []
    for i, b in enumerate(token):
        if i == SHOW_MAX:
            out.append("...")
            break
        out.append(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}")
    return "".join(out)


def ms_text(v: Optional[int]) -> str:
    return NEVER if v is None else str(v)


def raw_ms(v: Optional[int]) -> int:
    """A snapshot time as the C struct has it (None is IDLELOCK_NEVER)."""
    return idlelock.NEVER if v is None else v


class Replay:
    """One trace being replayed (the C tool's `replay`)."""

    def __init__(self, path: str, quiet: bool, out: TextIO) -> None:
        self.file = path
        self.quiet = quiet
        self.out = out
        self.line = 0
        # The config as idlelock_config_init leaves it, plus the trace's keys.
        self.cfg: Dict[str, int] = {"idle": idlelock.NEVER, "background": -1, "inactive": 30000,
                                    "grace": 1500, "attempts": 5, "lock_on_start": 1, "warn": 0,
                                    "prompt_cap": 120000, "max_age": 0, "after_reboot": 0,
                                    "max_uses": 0}
        self.given: Dict[str, int] = {}
        self.config_seen = self.event_seen = self.header_printed = False
        self.use_store = self.use_device_key = self.use_biometrics = self.wide = False
        self.now = 0
        self.lock: Optional[IdleLock] = None
        self.last_status = 0
        self.snap: Optional[Snapshot] = None
        self.value: Optional[bytes] = None
        self.events = self.expects = self.mismatches = 0
        self.keystore = FakeKeystore()
        self.store_dir: Optional[str] = None
        self.store_path = ""
        self.requests: Dict[str, Request] = {}
        self.reboots = 0

    # -- output ------------------------------------------------------------

    def write(self, text: str) -> None:
        self.out.write(text)

    def malformed(self, message: str) -> Malformed:
        return Malformed(f"{self.file}:{self.line}: {message}")

    def event_width(self) -> int:
        return 18 if self.use_biometrics or self.wide else 10

    def print_header(self) -> None:
        if self.header_printed or self.quiet:
            return
        self.header_printed = True
        c = self.cfg
        background = "same" if c["background"] == -1 else ms_text(None if c["background"] == idlelock.NEVER
                                                                 else c["background"])

        def ms(v: int) -> str:
            return NEVER if v == idlelock.NEVER else str(v)

        text = (f"== {self.file}: idle={ms(c['idle'])} background={background} "
                f"inactive={ms(c['inactive'])} grace={ms(c['grace'])} attempts={c['attempts']} "
                f"lock_on_start={c['lock_on_start']}{' biometrics=1' if self.use_biometrics else ''}")
        if c["warn"] > 0:
            text += f" warn={c['warn']}"
        if c["prompt_cap"] != 120000:
            text += f" prompt_cap={c['prompt_cap']}"
        if c["max_age"] > 0:
            text += f" max_age={c['max_age']}"
        if c["after_reboot"]:
            text += " after_reboot=1"
        if c["max_uses"] > 0:
            text += f" max_uses={c['max_uses']}"
        w = self.event_width()
        columns = f"{'time':>8}  {'event':<{w}}  {'status':<16}  {'state':<10}  {'reason':<12}  {'left':>4}  {'away':>4}  "
        if self.use_biometrics:
            columns += f"{'bio':>4}  {'avail':>5}  "
        self.write(text + "\n" + columns + "until_idle\n")

    def print_event(self, ev: str, args: List[bytes]) -> None:
        if self.quiet:
            return
        s = self.snap
        assert s is not None
        w = self.event_width()
        text = (f"{self.now:8d}  {ev:<{w}}  {status_word(self.last_status):<16}  "
                f"{name_of(STATE_NAMES, int(s.state)):<10}  {name_of(REASON_NAMES, int(s.reason)):<12}  "
                f"{s.attempts_remaining:4d}  {int(s.is_away):4d}  ")
        if self.use_biometrics:
            text += f"{int(s.is_biometrics_enabled):4d}  {int(s.is_biometrics_available):5d}  "
        text += ms_text(s.ms_until_idle_lock)
        if self.cfg["warn"] > 0 and s.is_warning:
            text += "  WARNING"
        if s.is_passcode_required:
            text += "  PASSCODE-ONLY"
        if args and ev not in ("passcode", "unlock"):
            text += "  " + escaped(args[0])
        if self.value is not None:
            text += ' = "' + escaped(self.value) + '"'
        self.write(text + "\n")

    # -- config ------------------------------------------------------------

    def do_config(self, tokens: List[bytes]) -> None:
        if self.event_seen:
            raise self.malformed("config after the first event")
        if self.config_seen:
            raise self.malformed("config given twice")
        self.config_seen = True
        seen: Dict[str, int] = {}
        for item in tokens[1:]:
            key_b, sep, val_b = item.partition(b"=")
            if not sep or not key_b:
                raise self.malformed(f"config item '{show(item)}' is not key=value")
            key, val = key_b.decode("latin-1"), val_b.decode("latin-1")
            if key in CONFIG_KEYS:
                seen[key] = seen.get(key, 0) + 1
                if seen[key] > 1:
                    raise self.malformed(f"config key '{show(key_b)}' given twice")
            self.config_key(key, val, key_b, val_b)

    def config_key(self, key: str, val: str, key_b: bytes, val_b: bytes) -> None:
        flag = {"0": 0, "1": 1}.get(val)
        if key in ("idle", "inactive", "warn", "grace", "prompt_cap", "max_age"):
            v = parse_ms(val)
        elif key == "background":
            v = -1 if val == "same" else parse_ms(val)
        elif key in ("attempts", "lock_on_start", "after_reboot", "max_uses"):
            v = parse_i32(val)
        elif key in ("store", "device_key", "biometrics"):
            v = flag
        else:
            raise self.malformed(f"unknown config key '{show(key_b)}'")
        if v is None:
            raise self.malformed(f"bad value '{show(val_b)}' for config key '{show(key_b)}'")
        if key == "store":
            self.use_store = bool(v)
        elif key == "device_key":
            self.use_device_key = bool(v)
        elif key == "biometrics":
            self.use_biometrics = bool(v)
        else:
            self.cfg[key] = v
            self.given[key] = v
            if key in ("prompt_cap", "max_age", "after_reboot", "max_uses"):
                self.wide = True

    # -- expect ------------------------------------------------------------

    def result(self, ok: bool, key: str, want: str, got: str) -> None:
        self.expects += 1
        if not ok:
            self.mismatches += 1
            self.write(f"{self.file}:{self.line}: expected {key}={want}, got {got}\n")

    def expect_named(self, key: str, val: str, names: Sequence[str], got: int) -> None:
        if val not in names:
            raise self.malformed(f"unknown {key} '{show(val.encode('latin-1'))}'")
        self.result(names.index(val) == got, key, val, name_of(names, got))

    def expect_number(self, key: str, val: str, allow_never: bool, got: int) -> None:
        want = parse_ms(val) if allow_never else parse_i64(val)
        if want is None:
            raise self.malformed(f"bad value '{show(val.encode('latin-1'))}' for expect key '{key}'")
        text = NEVER if allow_never and got == idlelock.NEVER else str(got)
        self.result(want == got, key, val, text)

    def expect_flag(self, key: str, val: str, got: bool) -> None:
        if val not in ("0", "1"):
            raise self.malformed(f"expect key '{key}' takes 0 or 1, not '{show(val.encode('latin-1'))}'")
        self.expect_number(key, val, False, int(got))

    def expect_value(self, val_b: bytes) -> None:
        self.expects += 1
        if self.value is not None and self.value == val_b:
            return
        self.mismatches += 1
        text = f"{self.file}:{self.line}: expected value={show(val_b)}, got "
        if self.value is not None:
            text += '"' + escaped(self.value) + '"\n'
        else:
            text += f"no value (status {name_of(STATUS_NAMES, self.last_status)})\n"
        self.write(text)

    def do_expect(self, tokens: List[bytes]) -> None:
        if not self.event_seen:
            raise self.malformed("expect before any event")
        if len(tokens) < 2:
            raise self.malformed("expect with nothing to check")
        s = self.snap
        assert s is not None
        for item in tokens[1:]:
            key_b, sep, val_b = item.partition(b"=")
            if not sep or not key_b:
                raise self.malformed(f"expect item '{show(item)}' is not key=value")
            key, val = key_b.decode("latin-1"), val_b.decode("latin-1")
            if key == "status":
                self.expect_named(key, val, STATUS_NAMES, self.last_status)
            elif key == "state":
                self.expect_named(key, val, STATE_NAMES, int(s.state))
            elif key == "reason":
                self.expect_named(key, val, REASON_NAMES, int(s.reason))
            elif key == "attempts":
                self.expect_number(key, val, False, s.attempts_remaining)
            elif key == "away":
                self.expect_flag(key, val, s.is_away)
            elif key == "enabled":
                self.expect_flag(key, val, s.is_enabled)
            elif key == "until_idle":
                self.expect_number(key, val, True, raw_ms(s.ms_until_idle_lock))
            elif key == "warning":
                self.expect_flag(key, val, s.is_warning)
            elif key == "until_warning":
                self.expect_number(key, val, True, raw_ms(s.ms_until_warning))
            elif key == "next":
                self.expect_number(key, val, True, raw_ms(s.ms_until_next_deadline))
            elif key == "activity":
                self.expect_number(key, val, False, s.last_activity_ms)
            elif key == "value":
                self.expect_value(val_b)
            elif key == "bio":
                self.expect_flag(key, val, s.is_biometrics_enabled)
            elif key == "bio_available":
                self.expect_flag(key, val, s.is_biometrics_available)
            elif key == "bio_item":
                self.expect_flag(key, val, self.keystore.has_secret)
            elif key == "passcode_required":
                self.expect_flag(key, val, s.is_passcode_required)
            elif key == "last_auth":
                self.expect_number(key, val, True, raw_ms(s.last_auth_ms))
            else:
                raise self.malformed(f"unknown expect key '{show(key_b)}'")

    # -- the lock ----------------------------------------------------------

    def options(self) -> Dict[str, object]:
        g = self.given
        o: Dict[str, object] = {"clock": lambda: self.now, "kdf_opslimit": 2,
                                "kdf_memlimit": 19 * 1024 * 1024}

        def duration(v: int) -> Optional[int]:
            return None if v == idlelock.NEVER else v

        if "idle" in g:
            o["idle_after_ms"] = duration(g["idle"])
        if "background" in g:
            o["background_after_ms"] = idlelock.SAME_AS_IDLE if g["background"] == -1 else duration(g["background"])
        if "inactive" in g:
            o["inactive_after_ms"] = duration(g["inactive"])
        if "grace" in g:
            o["grace_ms"] = g["grace"]
        if "attempts" in g:
            o["max_attempts"] = g["attempts"]
        if "lock_on_start" in g:
            o["lock_on_start"] = bool(g["lock_on_start"])
        if "warn" in g:
            o["warn_before_ms"] = g["warn"]
        if "prompt_cap" in g:
            o["prompt_cap_ms"] = g["prompt_cap"]
        if "max_age" in g:
            o["passcode_max_age_ms"] = g["max_age"]
        if "after_reboot" in g:
            o["passcode_after_reboot"] = bool(g["after_reboot"])
        if "max_uses" in g:
            o["biometric_max_uses"] = g["max_uses"]
        if self.use_device_key:
            o["device_key"] = TEST_DEVICE_KEY
        if self.use_biometrics:
            o["authenticator"] = self.keystore
            o["unlock_reason"] = UNLOCK_REASON
        if self.use_store:
            o["store_path"] = self.store_path
        return o

    def ensure_lock(self) -> None:
        if self.lock is not None:
            return
        if self.use_store and self.store_dir is None:
            self.store_dir = tempfile.mkdtemp(prefix="idlelock-replay-")
            self.store_path = os.path.join(self.store_dir, "session.idlelock")
        self.print_header()
        try:
            self.lock = IdleLock(**self.options())  # type: ignore[arg-type]
        except IdleLockError as e:
            raise self.malformed(f"IdleLock(...) refused the config: {status_word(e.status or 0)}: {e.message}")

    def stamp_other_boot(self) -> bool:
        """The C tool's stamp_other_boot: the store's two boot ids become
        another boot's, its integrity check recomputed."""
        try:
            with open(self.store_path, "rb") as f:
                buf = bytearray(f.read(1 << 20))
        except OSError:
            return False
        n = len(buf)
        if not (n >= 460 + 32 and n < (1 << 20) and buf[8] == 2):
            return False
        boot = f"replay-reboot-{self.reboots % 10000:04d}-0000-000000000000".encode()
        for offset in (64, 416):
            buf[offset:offset + 36] = boot
        if self.use_device_key:
            subkey = hashlib.blake2b(b"", digest_size=32, key=TEST_DEVICE_KEY,
                                     salt=struct.pack("<Q", 1), person=b"idlkstor").digest()
            mac = hashlib.blake2b(bytes(buf[:n - 32]), digest_size=32, key=subkey).digest()
        else:
            mac = hashlib.blake2b(bytes(buf[:n - 32]), digest_size=32).digest()
        buf[n - 32:] = mac
        try:
            with open(self.store_path, "r+b") as f:
                f.write(buf)
        except OSError:
            return False
        return True

    def remove_store(self) -> None:
        if self.store_dir is not None:
            shutil.rmtree(self.store_dir, ignore_errors=True)
            self.store_dir = None

    # -- events ------------------------------------------------------------

    def check_args(self, ev: str, args: List[bytes]) -> None:
        a = [x.decode("latin-1") for x in args]
        if ev == "unlock-biometrics" and len(a) == 1 and a[0] not in ANSWERS:
            raise self.malformed(f"unknown answer '{show(args[0])}' for unlock-biometrics "
                                 "(ok, fail, cancel or unavailable)")
        if ev == "bio-available" and a[0] not in ("0", "1"):
            raise self.malformed(f"bio-available takes 0 or 1, not '{show(args[0])}'")
        if ev in ("enrolment-change", "bio-available") and not self.use_biometrics:
            raise self.malformed(f"{ev} needs config biometrics=1")
        if ev == "bio-begin":
            if a[0] not in ("unlock", "enable"):
                raise self.malformed(f"bio-begin takes unlock or enable, not '{show(args[0])}'")
            if len(a) == 2 and len(args[1]) > REQUEST_NAME_MAX:
                raise self.malformed(f"a request name has at most {REQUEST_NAME_MAX} characters")
            name = a[1] if len(a) == 2 else "req"
            if name not in self.requests and len(self.requests) == MAX_REQUESTS:
                raise self.malformed(f"more than {MAX_REQUESTS} request names in one trace")
        if ev == "bio-finish":
            q = self.requests.get(a[0])
            if q is None:
                raise self.malformed(f"bio-finish of '{show(args[0])}', which no bio-begin named")
            if a[1] not in FINISHES:
                raise self.malformed(f"unknown result '{show(args[1])}' for bio-finish "
                                     "(ok, fail, cancel, unavailable or wrong)")
            if q.purpose == "enable" and a[1] == "wrong":
                raise self.malformed("bio-finish ... wrong is for an unlock request")
            if q.purpose == "unlock" and FINISHES[a[1]] == AuthResult.OK and not self.keystore.has_secret:
                raise self.malformed(f"bio-finish {show(args[1])}: the fake keystore holds no item to release")
            if q.request is None:
                raise self.malformed(f"bio-finish of '{show(args[0])}', whose bio-begin failed: the Python "
                                     "API hands out no request to finish then")
        if ev == "recent-auth" and parse_i64(a[0]) is None:
            raise self.malformed(f"recent-auth takes ms, not '{show(args[0])}'")
        if ev in ("restart", "reboot") and not self.use_store:
            raise self.malformed(f"{ev} needs config store=1")

    def call(self, ev: str, args: List[bytes]) -> Tuple[int, Optional[Snapshot], bool]:
        """Run the event: (status, the snapshot the call reported or None,
        whether the call reports one)."""
        lock = self.lock
        assert lock is not None
        if ev in SNAP_EVENTS:
            if ev == "touch":
                return 0, lock.touch(snapshot=True), True
            return 0, getattr(lock, "snapshot" if ev == "snapshot" else ev)(), True
        if ev == "passcode":
            lock.set_passcode(args[0])
        elif ev == "unlock":
            return 0, lock.unlock(args[0]), True
        elif ev == "disable":
            lock.disable()
        elif ev == "put":
            lock.put_secret(args[0].decode("utf-8"), args[1])
        elif ev == "get":
            self.value = lock.get_secret(args[0].decode("utf-8"))
        elif ev == "remove":
            lock.remove_secret(args[0].decode("utf-8"))
        elif ev == "gate":
            lock.require_unlocked()
        elif ev in ("restart", "reboot"):
            self.restart(ev == "reboot")
        elif ev == "enable-biometrics":
            lock.enable_biometrics()
        elif ev == "disable-biometrics":
            lock.disable_biometrics()
        elif ev == "unlock-biometrics":
            self.keystore.next_answer = ANSWERS[args[0].decode()] if args else AuthResult.OK
            try:
                return 0, lock.unlock_with_biometrics(), True
            finally:
                self.keystore.next_answer = AuthResult.OK
        elif ev == "enrolment-change":
            self.keystore.change_enrolment()
        elif ev == "bio-available":
            self.keystore.available = args[0] == b"1"
        elif ev == "bio-begin":
            return self.bio_begin(args)
        elif ev == "bio-finish":
            return self.bio_finish(args)
        elif ev == "recent-auth":
            lock.require_recent_auth(parse_i64(args[0].decode()))  # type: ignore[arg-type]
        return 0, None, False

    def restart(self, reboot: bool) -> None:
        assert self.lock is not None
        self.lock.close()
        self.lock = None
        if reboot:
            self.reboots += 1
            if os.path.exists(self.store_path) and not self.stamp_other_boot():
                raise self.malformed("reboot: the store is no version-2 store, or cannot be rewritten")
        self.ensure_lock()

    def bio_begin(self, args: List[bytes]) -> Tuple[int, Optional[Snapshot], bool]:
        lock = self.lock
        assert lock is not None
        enable = args[0] == b"enable"
        name = args[1].decode("latin-1") if len(args) == 2 else "req"
        q = Request("enable" if enable else "unlock")
        self.requests[name] = q
        request = lock.begin_biometric_enable() if enable else lock.begin_biometric_unlock()
        q.request = request
        if enable:
            assert request.secret is not None
            q.secret = bytes(request.secret)
        return 0, request.snapshot, True

    def bio_finish(self, args: List[bytes]) -> Tuple[int, Optional[Snapshot], bool]:
        q = self.requests[args[0].decode("latin-1")]
        word = args[1].decode()
        result = FINISHES[word]
        secret: Optional[bytes] = None
        kept = False
        if q.purpose == "unlock" and result == AuthResult.OK:
            assert self.keystore.secret is not None
            release = bytearray(self.keystore.secret)
            if word == "wrong":
                release[0] ^= 1
            secret = bytes(release)
        if q.purpose == "enable" and result == AuthResult.OK and q.secret is not None:
            # The check passed: the host keeps the secret behind it (or
            # fails to, and says so).
            kept = self.keystore.keep(q.secret)
            if not kept:
                result = AuthResult.FAILED
        q.secret = None
        assert q.request is not None
        try:
            return 0, q.request.finish(secret, result=result), True
        except IdleLockError:
            if kept:
                self.keystore.wipe()  # an enable the library did not take
            raise

    def run_event(self, t: int, ev: str, args: List[bytes]) -> None:
        self.now = t
        self.event_seen = True
        self.ensure_lock()
        self.events += 1
        self.value = None
        bio_before = self.snap is not None and self.snap.is_biometrics_enabled
        try:
            status, snap, has_snap = self.call(ev, args)
        except IdleLockError as e:
            status, snap, has_snap = int(e.status or 0), e.snapshot, True
        self.last_status = status
        if not has_snap or status == 1 or snap is None:
            assert self.lock is not None
            snap = self.lock.snapshot()
        self.snap = snap
        # Without an authenticator the library cannot delete the host's
        # item: the host does, once the shortcut went off.
        if not self.use_biometrics and bio_before and not snap.is_biometrics_enabled:
            self.keystore.wipe()
        self.print_event(ev, args)

    def do_event(self, tokens: List[bytes]) -> None:
        t = parse_i64(tokens[0].decode("latin-1"))
        if t is None:
            raise self.malformed(f"bad time '{show(tokens[0])}' (a signed 64-bit decimal)")
        if len(tokens) < 2:
            raise self.malformed("missing event after the time")
        ev = tokens[1].decode("latin-1")
        if ev in SNAP_EVENTS:
            lo, hi = 0, 0
        elif ev in OTHER_EVENTS:
            lo, hi = OTHER_EVENTS[ev]
        else:
            raise self.malformed(f"unknown event '{show(tokens[1])}'")
        args = tokens[2:]
        if len(args) < lo:
            raise self.malformed(f"event '{show(tokens[1])}' needs {lo} argument{'' if lo == 1 else 's'}")
        if len(args) > hi:
            raise self.malformed(f"unexpected '{show(tokens[2 + hi])}' after event '{show(tokens[1])}'")
        self.check_args(ev, args)
        self.run_event(t, ev, args)

    def do_line(self, raw: bytes) -> None:
        if b"\0" in raw:
            raise self.malformed("NUL byte in line")
        tokens = raw.split(b"#", 1)[0].split()
        if len(tokens) > MAX_TOKENS:
            raise self.malformed(f"more than {MAX_TOKENS} items on one line")
        if not tokens:
            return
        if tokens[0] == b"config":
            self.do_config(tokens)
        elif tokens[0] == b"expect":
            self.do_expect(tokens)
        else:
            self.do_event(tokens)

    def run(self) -> int:
        try:
            with open(self.file, "rb") as f:
                for raw in f:
                    self.line += 1
                    self.do_line(raw)
        finally:
            if self.lock is not None:
                self.lock.close()
            self.remove_store()
        self.print_header()
        if not self.quiet:
            self.write(f"-- {self.file}: {self.events} events, {self.expects} expects, "
                       f"{self.mismatches} failed\n\n")
        return 1 if self.mismatches else 0


def main(argv: List[str], out: TextIO = sys.stdout) -> int:
    quiet = False
    files = list(argv)
    while files and files[0].startswith("-") and files[0] != "-":
        flag = files.pop(0)
        if flag == "--":
            break
        if flag not in ("--quiet", "-q"):
            sys.stderr.write("usage: replay.py [--quiet] FILE...\n")
            return 2
        quiet = True
    if not files:
        sys.stderr.write("usage: replay.py [--quiet] FILE...\n")
        return 2
    totals = [0, 0, 0, 0]
    status = 0
    for path in files:
        r = Replay(path, quiet, out)
        try:
            rc = r.run()
        except Malformed as e:
            out.flush()
            sys.stderr.write(f"{e}\n")
            return 2
        totals[0] += 1
        totals[1] += r.events
        totals[2] += r.expects
        totals[3] += r.mismatches
        status = status or rc
    out.write(f"idlelock-replay: {totals[0]} trace{'' if totals[0] == 1 else 's'}, {totals[1]} events, "
              f"{totals[2]} expects, {totals[3]} failed\n")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
