# SPDX-License-Identifier: MIT
"""The raw ctypes layer: NULL handles and bad sizes never crash (the header's "Types" and "Errors and versions"),
and per-thread error messages."""

from __future__ import annotations

import ctypes
import threading

import pytest

from idlelock import _ffi

lib = _ffi.lib
NULL = _ffi.HandleP()


def snapshot(size=None):
    s = _ffi.SnapshotStruct()
    s.size = ctypes.sizeof(s) if size is None else size
    return s


def new_config(**fields):
    cfg = _ffi.Config()
    assert lib.idlelock_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg)) == 0
    cfg.idle_after_ms = 60_000
    cfg.kdf_memlimit = 19 * 1024 * 1024
    for k, v in fields.items():
        setattr(cfg, k, v)
    return cfg


def create(cfg):
    handle = _ffi.HandleP()
    status = lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(handle))
    return status, handle


SNAP_CALLS = [
    "idlelock_start", "idlelock_touch", "idlelock_inactive", "idlelock_background",
    "idlelock_foreground", "idlelock_check", "idlelock_lock", "idlelock_snapshot_get",
    "idlelock_unlock_with_biometrics",
]


@pytest.mark.parametrize("name", SNAP_CALLS)
def test_null_handle_is_invalid_argument(name):
    assert getattr(lib, name)(NULL, ctypes.byref(snapshot())) == 1


def test_null_handle_everywhere_else():
    n = ctypes.c_size_t(0)
    token = ctypes.c_uint64(0)
    cb = _ffi.LISTENER_FN(lambda ctx, s: None)
    assert lib.idlelock_set_passcode(NULL, b"2468", 4) == 1
    assert lib.idlelock_unlock(NULL, b"2468", 4, None) == 1
    assert lib.idlelock_enable_biometrics(NULL) == 1
    assert lib.idlelock_disable_biometrics(NULL) == 1
    assert lib.idlelock_disable(NULL) == 1
    assert lib.idlelock_subscribe(NULL, cb, None, ctypes.byref(token)) == 1
    assert lib.idlelock_unsubscribe(NULL, 1) == 1
    assert lib.idlelock_secret_put(NULL, b"n", None, 0) == 1
    assert lib.idlelock_secret_get(NULL, b"n", None, ctypes.byref(n)) == 1
    assert lib.idlelock_secret_remove(NULL, b"n") == 1
    assert lib.idlelock_require_unlocked(NULL) == 1
    lib.idlelock_destroy(NULL)  # does nothing
    assert lib.idlelock_config_init(None, ctypes.sizeof(_ffi.Config)) == 1
    assert lib.idlelock_create(None, None) == 1


@pytest.fixture
def handle():
    status, h = create(new_config(lock_on_start=0))
    assert status == 0
    yield h
    lib.idlelock_destroy(h)


def test_bad_snapshot_size(handle):
    # The smallest size accepted is the 1.0 struct's (1.1 appended fields).
    for size in (0, 4, _ffi.SnapshotStruct.is_warning.offset - 1, 4097):
        assert lib.idlelock_check(handle, ctypes.byref(snapshot(size))) == 1
    assert lib.idlelock_snapshot_get(handle, None) == 1  # required here
    assert lib.idlelock_check(handle, None) == 0  # optional elsewhere


def test_config_checks():
    assert create(new_config())[0] == 0
    for fields in (
        {"size": 8},
        {"reserved0": 1},
        {"store_path": b""},  # empty
        {"store_path": b"/tmp/"},  # a folder, not a file
        {"store_path": b"/tmp/x", "lock_on_start": 0},  # needs a device_key
        {"clock_ctx": 1},  # must be NULL when clock is
        {"unlock_reason": b"x" * 513},
        {"lock_on_start": 2},
        {"background_after_ms": -2},
        {"device_key_len": 32},  # with NULL device_key
    ):
        status, h = create(new_config(**fields))
        assert status == 1, fields
        assert not h  # *out set to NULL on failure
    key = (ctypes.c_uint8 * 32)(*range(32))
    status, h = create(new_config(device_key=key, device_key_len=32))
    assert status == 0
    lib.idlelock_destroy(h)
    status, h = create(new_config(device_key=key, device_key_len=16))
    assert status == 1


def _authenticator(**fields):
    a = _ffi.AuthenticatorStruct()
    a.size = ctypes.sizeof(a)
    a.is_available = _ffi.AUTH_IS_AVAILABLE_FN(lambda ctx: 0)
    a.store_secret = _ffi.AUTH_STORE_SECRET_FN(lambda ctx, p, n: 1)
    a.load_secret = _ffi.AUTH_LOAD_SECRET_FN(lambda ctx, r, out, cap, n: _ffi.AUTH_FAILED)
    a.delete_secret = _ffi.AUTH_DELETE_SECRET_FN(lambda ctx: 0)
    for k, v in fields.items():
        setattr(a, k, v)
    return a


def test_authenticator_struct_checks():
    """idlelock_authenticator is validated at create: size, reserved0 and
    every callback (the raw struct; the binding always fills it right)."""
    good = _authenticator()
    status, h = create(new_config(authenticator=ctypes.pointer(good)))
    assert status == 0
    lib.idlelock_destroy(h)
    for fields, named in (
        ({"size": ctypes.sizeof(_ffi.AuthenticatorStruct) - 1}, "size"),
        ({"size": 0}, "size"),
        ({"size": 4097}, "size"),
        ({"reserved0": 1}, "reserved0"),
        ({"is_available": _ffi.AUTH_IS_AVAILABLE_FN()}, "is_available"),
        ({"store_secret": _ffi.AUTH_STORE_SECRET_FN()}, "store_secret"),
        ({"load_secret": _ffi.AUTH_LOAD_SECRET_FN()}, "load_secret"),
        ({"delete_secret": _ffi.AUTH_DELETE_SECRET_FN()}, "delete_secret"),
    ):
        a = _authenticator(**fields)
        status, h = create(new_config(authenticator=ctypes.pointer(a)))
        assert status == 1, fields
        assert named in status.message and "authenticator" in status.message, status.message
        assert not h
    # A larger struct (a newer header) with a zero tail is fine; a non-zero
    # byte past the known fields is refused.
    big = (ctypes.c_uint8 * (ctypes.sizeof(good) + 8))()
    ctypes.memmove(big, ctypes.byref(good), ctypes.sizeof(good))
    ctypes.c_uint32.from_buffer(big).value = ctypes.sizeof(big)
    as_auth = ctypes.cast(big, ctypes.POINTER(_ffi.AuthenticatorStruct))
    status, h = create(new_config(authenticator=as_auth))
    assert status == 0
    lib.idlelock_destroy(h)
    big[ctypes.sizeof(good) + 3] = 1
    status, h = create(new_config(authenticator=as_auth))
    assert status == 1 and not h


def test_config_init_size_checks():
    cfg = _ffi.Config()
    assert lib.idlelock_config_init(ctypes.byref(cfg), 8) == 1
    big = (ctypes.c_uint8 * 8192)()
    as_cfg = ctypes.cast(big, ctypes.POINTER(_ffi.Config))
    assert lib.idlelock_config_init(as_cfg, 8192) == 1  # larger than 4096
    assert lib.idlelock_config_init(as_cfg, 4096) == 0  # a newer, bigger struct
    assert ctypes.c_uint32.from_buffer(big).value == 4096
    assert not any(big[ctypes.sizeof(_ffi.Config):4096])  # unknown bytes zeroed
    ctypes.cast(big, ctypes.POINTER(_ffi.Config)).contents.idle_after_ms = 60_000
    handle = _ffi.HandleP()
    assert lib.idlelock_create(as_cfg, ctypes.byref(handle)) == 0  # zero tail: fine
    lib.idlelock_destroy(handle)
    big[2000] = 1  # a newer host's setting this library does not know
    assert lib.idlelock_create(as_cfg, ctypes.byref(handle)) == 1
    assert not handle


def test_secret_get_buffer_contract(handle):
    value = b"0123456789"
    assert lib.idlelock_secret_put(handle, b"n", (ctypes.c_uint8 * 10)(*value), 10) == 0
    n = ctypes.c_size_t(0)
    assert lib.idlelock_secret_get(handle, b"n", None, ctypes.byref(n)) == 9  # BUFFER_TOO_SMALL
    assert n.value == 10
    n = ctypes.c_size_t(5)
    assert lib.idlelock_secret_get(handle, b"n", None, ctypes.byref(n)) == 1  # NULL buf, len > 0
    buf = (ctypes.c_uint8 * 10)()
    n = ctypes.c_size_t(10)
    assert lib.idlelock_secret_get(handle, b"n", buf, ctypes.byref(n)) == 0
    assert bytes(buf) == value and n.value == 10
    assert lib.idlelock_secret_put(handle, b"n", None, 3) == 1  # NULL data, len > 0


def test_last_error_is_per_thread(handle):
    assert lib.idlelock_unlock(handle, b"2468", 4, None) == 6  # NO_PASSCODE
    mine = _ffi.last_error()
    assert mine
    other = {}

    def worker() -> None:
        other["before"] = _ffi.last_error()
        lib.idlelock_require_unlocked(NULL)
        other["after"] = _ffi.last_error()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert other["before"] == ""  # this thread has had no failure
    assert other["after"] and other["after"] != mine
    assert _ffi.last_error() == mine  # unaffected by the other thread


CONFIG_SIZE_V1_0 = _ffi.Config.prompt_cap_ms.offset  # end of device_key_len


SNAPSHOT_SIZE_V1_0 = _ffi.SnapshotStruct.is_warning.offset  # end of ms_until_idle_lock


CONFIG_SIZE_V1_1 = _ffi.Config.passcode_max_age_ms.offset  # end of delay_schedule_len
SNAPSHOT_SIZE_V1_1 = _ffi.SnapshotStruct.is_passcode_required.offset  # end of ms_until_next_deadline


def test_structs_are_the_1_2_layout():
    assert CONFIG_SIZE_V1_0 == _ffi.Config.device_key_len.offset + ctypes.sizeof(ctypes.c_size_t)
    # int64 prompt_cap_ms, int64 warn_before_ms, a pointer delay_schedule
    # and a size_t delay_schedule_len, appended in 1.1.
    assert _ffi.Config.warn_before_ms.offset == CONFIG_SIZE_V1_0 + 8
    assert _ffi.Config.delay_schedule.offset == CONFIG_SIZE_V1_0 + 16
    assert _ffi.Config.delay_schedule_len.offset == CONFIG_SIZE_V1_0 + 16 + ctypes.sizeof(ctypes.c_void_p)
    assert CONFIG_SIZE_V1_1 == CONFIG_SIZE_V1_0 + 16 + 2 * ctypes.sizeof(ctypes.c_void_p)
    # 1.2: int64 passcode_max_age_ms, int32 passcode_after_reboot, int32
    # biometric_max_uses.
    assert _ffi.Config.passcode_after_reboot.offset == CONFIG_SIZE_V1_1 + 8
    assert _ffi.Config.biometric_max_uses.offset == CONFIG_SIZE_V1_1 + 12
    assert ctypes.sizeof(_ffi.Config) == CONFIG_SIZE_V1_1 + 16
    # int32 is_warning, int32 reserved1, then int64 ms_until_warning,
    # ms_until_retry (before) ms_until_next_deadline.
    assert SNAPSHOT_SIZE_V1_0 == _ffi.SnapshotStruct.ms_until_idle_lock.offset + 8
    assert _ffi.SnapshotStruct.reserved1.offset == SNAPSHOT_SIZE_V1_0 + 4
    assert _ffi.SnapshotStruct.ms_until_warning.offset == SNAPSHOT_SIZE_V1_0 + 8
    assert _ffi.SnapshotStruct.ms_until_retry.offset == SNAPSHOT_SIZE_V1_0 + 16
    assert _ffi.SnapshotStruct.ms_until_next_deadline.offset == SNAPSHOT_SIZE_V1_0 + 24
    assert SNAPSHOT_SIZE_V1_1 == SNAPSHOT_SIZE_V1_0 + 32
    # 1.2: int32 is_passcode_required, int32 reserved2, int64 last_auth_ms.
    assert _ffi.SnapshotStruct.reserved2.offset == SNAPSHOT_SIZE_V1_1 + 4
    assert _ffi.SnapshotStruct.last_auth_ms.offset == SNAPSHOT_SIZE_V1_1 + 8
    assert ctypes.sizeof(_ffi.SnapshotStruct) == SNAPSHOT_SIZE_V1_1 + 16
    # idlelock_delay_step: int32, int32, int64.
    assert [(n, getattr(_ffi.DelayStep, n).offset) for n, _ in _ffi.DelayStep._fields_] == [
        ("failed_attempts", 0), ("reserved0", 4), ("delay_ms", 8)]
    assert ctypes.sizeof(_ffi.DelayStep) == 16
    cfg = _ffi.Config()
    assert lib.idlelock_config_init(ctypes.byref(cfg), ctypes.sizeof(cfg)) == 0
    assert cfg.prompt_cap_ms == 120_000  # the header's defaults
    assert cfg.warn_before_ms == 0
    assert not cfg.delay_schedule and cfg.delay_schedule_len == 0
    assert cfg.passcode_max_age_ms == 0 and cfg.passcode_after_reboot == 0
    assert cfg.biometric_max_uses == 0


def test_a_1_0_sized_snapshot_is_still_accepted(handle):
    s = snapshot(SNAPSHOT_SIZE_V1_0)
    s.ms_until_next_deadline = 12345  # past the size: left alone
    assert lib.idlelock_lifecycle(handle, _ffi.PLATFORM_FLUTTER_APP_LIFECYCLE_STATE,
                                  b"hidden", ctypes.byref(s)) == 0
    assert s.is_away == 1
    assert s.ms_until_next_deadline == 12345


def test_library_checks_prompt_cap_ms():
    for value in (0, _ffi.PROMPT_CAP_MAX_MS):
        status, h = create(new_config(prompt_cap_ms=value))
        assert status == 0, value
        lib.idlelock_destroy(h)
    for value in (-1, _ffi.PROMPT_CAP_MAX_MS + 1, _ffi.NEVER):
        status, h = create(new_config(prompt_cap_ms=value))
        assert status == 1 and not h, value
        assert "prompt_cap_ms" in status.message and str(value) in status.message


def test_a_1_0_sized_config_is_still_accepted():
    """A host built against the 1.0 header passes the 1.0 size: config_init
    writes only those bytes, create reads only those and uses the default
    prompt_cap_ms (120000) for the rest."""
    cfg = _ffi.Config()
    cfg.prompt_cap_ms = 7  # not covered by the size: must be neither written nor read
    assert lib.idlelock_config_init(ctypes.byref(cfg), CONFIG_SIZE_V1_0) == 0
    assert cfg.size == CONFIG_SIZE_V1_0
    assert cfg.prompt_cap_ms == 7
    now = [1_000_000]
    clock = _ffi.CLOCK_FN(lambda ctx: now[0])
    cfg.idle_after_ms = 60_000
    cfg.background_after_ms = 0
    cfg.lock_on_start = 0
    cfg.kdf_memlimit = 19 * 1024 * 1024
    cfg.clock = clock
    h = _ffi.HandleP()
    status = lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(h))
    assert status == 0, status.message
    try:
        assert lib.idlelock_set_passcode(h, b"2468", 4) == 0
        token = ctypes.c_uint64(0)
        assert lib.idlelock_prompt_begin(h, ctypes.byref(token)) == 0
        assert lib.idlelock_background(h, None) == 0
        now[0] += 40_000  # past a 7 ms cap, within the default 120000
        s = snapshot()
        assert lib.idlelock_foreground(h, ctypes.byref(s)) == 0
        assert s.state == _ffi.STATE_UNLOCKED
        now[0] += 120_000
        assert lib.idlelock_prompt_end(h, token.value) == 0
    finally:
        lib.idlelock_destroy(h)
    # Below the 1.0 size is still refused.
    cfg.size = CONFIG_SIZE_V1_0 - 1
    status = lib.idlelock_create(ctypes.byref(cfg), ctypes.byref(h))
    assert status == 1 and not h


def test_null_arguments_of_the_1_1_functions():
    token = ctypes.c_uint64(0)
    assert lib.idlelock_prompt_begin(NULL, ctypes.byref(token)) == 1
    assert lib.idlelock_prompt_end(NULL, 1) == 1
    assert lib.idlelock_lifecycle(NULL, 1, b"active", None) == 1


def test_null_arguments_of_the_1_1_functions_on_a_handle(handle):
    assert lib.idlelock_prompt_begin(handle, None) == 1
    status = lib.idlelock_lifecycle(handle, _ffi.PLATFORM_IOS_SCENE_PHASE, None, None)
    assert status == 1 and "state_name" in status.message
    assert lib.idlelock_lifecycle(handle, _ffi.PLATFORM_IOS_SCENE_PHASE, b"active", None) == 0
    s = snapshot(8)  # a bad snapshot size is checked before any effect
    assert lib.idlelock_lifecycle(handle, _ffi.PLATFORM_IOS_SCENE_PHASE, b"background",
                                  ctypes.byref(s)) == 1
    s = snapshot()
    assert lib.idlelock_snapshot_get(handle, ctypes.byref(s)) == 0
    assert not s.is_away
