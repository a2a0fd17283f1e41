# SPDX-License-Identifier: MIT
"""The two-phase biometric pair (1.2) on CPython: BiometricRequest, the
asyncio coroutines, the passcode policies and the step-up check, against
the real library on a fake clock."""

from __future__ import annotations

import asyncio
import threading

import pytest

import idlelock
from idlelock import (
    AuthenticationCancelled,
    AuthenticationFailed,
    AuthenticatorUnavailable,
    AuthResult,
    BiometricPurpose,
    InvalidArgumentError,
    LockUnavailableError,
    NoPasscodeError,
    ReauthRequiredError,
    SessionLockedError,
    State,
)

from conftest import PASSCODE


def enable(lock) -> bytes:
    """Turns the shortcut on through the pair; returns the secret kept."""
    request = lock.begin_biometric_enable()
    assert request.purpose == BiometricPurpose.ENABLE
    kept = bytes(request.secret)
    assert len(kept) == 32 and any(kept)
    request.finish()
    assert request.finished
    assert request.secret == bytearray(32), "wiped when the request finished"
    return kept


def test_an_asynchronous_host_enables_and_unlocks_without_an_authenticator(engaged, clock):
    lock = engaged()
    kept = enable(lock)
    assert lock.snapshot().is_biometrics_enabled
    lock.lock()
    request = lock.begin_biometric_unlock()
    assert request.purpose == BiometricPurpose.UNLOCK and request.secret is None
    assert request.snapshot.state == State.LOCKED and request.token != 0
    clock.advance(3_000)
    snap = request.finish(bytearray(kept))
    assert snap.state == State.UNLOCKED
    assert snap.last_auth_ms == clock.now and snap.last_activity_ms == clock.now
    with pytest.raises(InvalidArgumentError, match="token"):
        request.finish(kept)  # a token finishes once


def test_bad_arguments_change_nothing_and_keep_the_request_open(engaged):
    lock = engaged()
    kept = enable(lock)
    lock.lock()
    request = lock.begin_biometric_unlock()
    before = lock.snapshot()
    with pytest.raises(InvalidArgumentError, match="secret"):
        request.finish(kept[:31])
    with pytest.raises(InvalidArgumentError, match="result"):
        request.finish(kept, result=7)
    with pytest.raises(TypeError):
        request.finish("not bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        request.finish(kept, result=True)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="the secret.s length"):
        request.finish(kept, result=AuthResult.CANCELLED)  # no secret with a failure
    with pytest.raises(InvalidArgumentError, match="the secret.s length"):
        request.finish()  # an unlock that passed gives the secret
    after = lock.snapshot()
    assert (after.seq, after.state) == (before.seq, before.state)
    assert not request.finished
    assert request.finish(kept).state == State.UNLOCKED


@pytest.mark.parametrize(
    "result, word",
    [(AuthResult.FAILED, "failed"), (AuthResult.CANCELLED, "cancelled"),
     (AuthResult.UNAVAILABLE, "available")],
)
def test_a_failed_check_counts_nothing(engaged, result, word):
    lock = engaged()
    enable(lock)
    lock.lock()
    with pytest.raises(idlelock.InvalidPasscodeError):
        lock.unlock("0000")
    request = lock.begin_biometric_unlock()
    with pytest.raises(LockUnavailableError, match=word) as error:
        request.finish(result=result)
    assert error.value.snapshot.state == State.LOCKED
    assert error.value.snapshot.attempts_remaining == 4
    assert request.finished and lock.snapshot().is_biometrics_enabled


def test_a_wrong_secret_turns_the_shortcut_off(engaged):
    lock = engaged()
    enable(lock)
    lock.lock()
    with pytest.raises(LockUnavailableError, match="shortcut is now off"):
        lock.begin_biometric_unlock().finish(bytes(32))
    assert not lock.snapshot().is_biometrics_enabled
    with pytest.raises(LockUnavailableError):
        lock.begin_biometric_unlock()
    assert lock.unlock(PASSCODE).state == State.UNLOCKED


def test_a_request_expires_at_prompt_cap_ms(engaged, clock):
    lock = engaged(prompt_cap_ms=30_000)
    kept = enable(lock)
    lock.lock()
    request = lock.begin_biometric_unlock()
    clock.advance(30_000)
    with pytest.raises(LockUnavailableError, match="expired"):
        request.finish(kept)
    assert lock.snapshot().state == State.LOCKED


def test_sign_out_a_new_passcode_and_disable_biometrics_void_requests(engaged):
    for void in ("disable_biometrics", "set_passcode", "disable"):
        lock = engaged()
        kept = enable(lock)
        unlock_request = lock.begin_biometric_unlock()
        enable_request = lock.begin_biometric_enable()
        if void == "set_passcode":
            lock.set_passcode("13579")
        else:
            getattr(lock, void)()
        with pytest.raises(InvalidArgumentError, match="voided"):
            unlock_request.finish(kept)
        with pytest.raises(InvalidArgumentError):
            enable_request.finish()
        lock.close()


def test_cancel_and_the_context_manager_finish_what_is_open(engaged):
    lock = engaged()
    enable(lock)
    for _ in range(3 * idlelock.BIOMETRIC_REQUESTS_MAX):
        with lock.begin_biometric_unlock() as request:
            pass  # the screen went away: cancelled on exit
        assert request.finished
    request = lock.begin_biometric_unlock()
    assert request.cancel() is not None
    assert request.cancel() is None  # nothing left to finish


def test_at_most_eight_requests_are_open(engaged):
    lock = engaged()
    enable(lock)
    open_requests = [lock.begin_biometric_unlock() for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX)]
    with pytest.raises(InvalidArgumentError, match="BIOMETRIC_REQUESTS_MAX \\(8\\) requests are open"):
        lock.begin_biometric_unlock()
    open_requests[0].cancel()
    lock.begin_biometric_unlock().cancel()


def test_a_request_may_finish_on_another_thread(engaged):
    lock = engaged()
    kept = enable(lock)
    lock.lock()
    request = lock.begin_biometric_unlock()
    seen = {}
    worker = threading.Thread(target=lambda: seen.setdefault("snap", request.finish(kept)))
    worker.start()
    worker.join()
    assert seen["snap"].state == State.UNLOCKED


def test_the_pair_needs_a_passcode_and_enable_an_unlocked_session(make_lock):
    lock = make_lock()
    with pytest.raises(NoPasscodeError):
        lock.begin_biometric_unlock()
    with pytest.raises(NoPasscodeError):
        lock.begin_biometric_enable()
    lock.set_passcode(PASSCODE)
    lock.start()
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.begin_biometric_enable()


# -- asyncio ---------------------------------------------------------------


class AsyncKeystore:
    def __init__(self) -> None:
        self.item = None
        self.deletes = 0
        self.answer = None  # an AuthenticationError to raise, or None

    async def store(self, secret: bytearray) -> None:
        await asyncio.sleep(0)
        self.item = bytes(secret)

    async def check(self, request) -> bytes:
        await asyncio.sleep(0)
        if self.answer is not None:
            raise self.answer
        return self.item

    async def delete(self) -> None:
        self.deletes += 1
        self.item = None


def test_the_coroutines_unlock_through_an_asynchronous_keystore(engaged):
    lock = engaged()
    keystore = AsyncKeystore()

    async def main() -> None:
        await lock.enable_biometrics_async(keystore.store, keystore.delete)
        lock.lock()
        snap = await lock.unlock_with_biometrics_async(keystore.check)
        assert snap.state == State.UNLOCKED
        for answer, word in ((AuthenticationCancelled("x"), "cancelled"),
                             (AuthenticationFailed("x"), "failed"),
                             (AuthenticatorUnavailable("x"), "available")):
            keystore.answer = answer
            lock.lock()
            with pytest.raises(LockUnavailableError, match=word):
                await lock.unlock_with_biometrics_async(keystore.check)
        keystore.answer = None
        assert (await lock.unlock_with_biometrics_async(keystore.check)).state == State.UNLOCKED

    asyncio.run(main())
    assert keystore.deletes == 0


def test_a_cancelled_task_or_a_crashing_check_leaves_no_request_open(engaged):
    lock = engaged()
    keystore = AsyncKeystore()

    async def never(request) -> bytes:
        await asyncio.Event().wait()
        return b""

    async def crash(request) -> bytes:
        raise KeyError("the platform API broke")

    async def main() -> None:
        await lock.enable_biometrics_async(keystore.store)
        lock.lock()
        for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX + 1):
            task = asyncio.create_task(lock.unlock_with_biometrics_async(never))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            with pytest.raises(KeyError):
                await lock.unlock_with_biometrics_async(crash)
        # Every request was finished: a ninth begin still works.
        assert (await lock.unlock_with_biometrics_async(keystore.check)).state == State.UNLOCKED

    asyncio.run(main())


def test_a_check_or_store_that_raises_before_its_awaitable_leaves_no_request_open(engaged):
    """A plain function (or any callable) that raises before it returns
    its awaitable is a crashing check too. Regression: its request stayed
    open (a slot of the table taken, its prompt deferring the idle rule for
    prompt_cap_ms, an ENABLE secret not wiped), so the ninth call met a full
    table."""
    lock = engaged()
    keystore = AsyncKeystore()
    handed = []

    def store_raises(secret: bytearray):
        handed.append(secret)
        raise KeyError("no keystore plugin")

    def check_raises(request):
        raise KeyError("no biometric plugin")

    async def main() -> None:
        for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX + 1):
            with pytest.raises(KeyError):
                await lock.enable_biometrics_async(store_raises)
        assert all(secret == bytearray(32) for secret in handed), "the secrets handed out are wiped"
        await lock.enable_biometrics_async(keystore.store)
        lock.lock()
        for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX + 1):
            with pytest.raises(KeyError):
                await lock.unlock_with_biometrics_async(check_raises)
        assert (await lock.unlock_with_biometrics_async(keystore.check)).state == State.UNLOCKED

    asyncio.run(main())


def test_an_enable_the_library_refuses_deletes_the_item(engaged):
    lock = engaged()
    keystore = AsyncKeystore()

    async def store_then_lock(secret: bytearray) -> None:
        await keystore.store(secret)
        lock.lock()  # the app locked while the platform saved the item

    async def main() -> None:
        with pytest.raises(SessionLockedError):
            await lock.enable_biometrics_async(store_then_lock, keystore.delete)

    asyncio.run(main())
    assert keystore.deletes == 1 and keystore.item is None
    assert not lock.snapshot().is_biometrics_enabled


class DeafCheck:
    """A host check that never answers on its own and ignores cancellation
    (a platform API that is not cancellable): it returns only when the test
    sets ``answer``, which may be long after the caller gave up."""

    def __init__(self) -> None:
        self.answer: "asyncio.Future" = asyncio.get_running_loop().create_future()
        self.requests: list = []
        self.cancellations = 0

    async def __call__(self, request):
        self.requests.append(request)
        while True:
            try:
                return await asyncio.shield(self.answer)
            except asyncio.CancelledError:
                self.cancellations += 1  # ignored: a deaf platform

    def release(self) -> None:
        if not self.answer.done():
            self.answer.set_exception(AuthenticationCancelled("test over"))


class DeafStore:
    """A keystore write that never completes on its own and ignores
    cancellation: it returns only when the test completes ``stored``.
    ``handed`` holds the secrets it was given, ``deletes`` one entry per
    ``delete()``."""

    def __init__(self) -> None:
        self.stored: "asyncio.Future" = asyncio.get_running_loop().create_future()
        self.handed: list = []
        self.deletes: list = []

    async def __call__(self, secret: bytearray) -> None:
        self.handed.append(secret)
        while True:
            try:
                return await asyncio.shield(self.stored)
            except asyncio.CancelledError:
                pass

    async def delete(self) -> None:
        self.deletes.append(True)

    def release(self) -> None:
        if not self.stored.done():
            self.stored.set_exception(AuthenticationCancelled("test over"))


def test_unlock_async_ends_at_once_on_cancellation_with_a_check_that_never_answers(engaged):
    # Issue 19: the task ends with CancelledError right away whatever the
    # host's check does; the library's request is finished as cancelled at
    # once (its prompt defers nothing any more); a late answer is ignored
    # and its secret wiped.
    lock = engaged()
    kept = enable(lock)
    lock.lock()

    async def main() -> None:
        deaf = DeafCheck()
        try:
            await scenario(deaf)
        finally:
            deaf.release()  # a failed check must not leave asyncio.run waiting

    async def scenario(deaf: DeafCheck) -> None:
        task = asyncio.create_task(lock.unlock_with_biometrics_async(deaf))
        for _ in range(5):
            await asyncio.sleep(0)
        (request,) = deaf.requests
        assert not request.finished
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert task in done, "the task waited for the host's check after it was cancelled"
        assert task.cancelled()
        assert request.finished, "the library's request was not finished at once"
        with pytest.raises(InvalidArgumentError):
            request.finish(kept)  # the token is spent: cancelled
        assert deaf.cancellations >= 1, "the host's check was asked to stop"
        late = bytearray(kept)
        deaf.answer.set_result(late)  # the platform answers, too late
        for _ in range(5):
            await asyncio.sleep(0)
        assert late == bytearray(32), "a late answer's secret was not wiped"
        assert lock.snapshot().state == State.LOCKED, "a late answer unlocked"
        # Nothing was left open: all eight slots are free.
        opened = [lock.begin_biometric_unlock() for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX)]
        for r in opened:
            r.cancel()

    asyncio.run(main())


def test_enable_async_ends_at_once_on_cancellation_with_a_store_that_never_answers(engaged):
    lock = engaged()

    async def main() -> None:
        deaf = DeafStore()
        try:
            await scenario(deaf)
        finally:
            deaf.release()

    async def scenario(deaf: DeafStore) -> None:
        task = asyncio.create_task(lock.enable_biometrics_async(deaf, deaf.delete))
        for _ in range(5):
            await asyncio.sleep(0)
        (secret,) = deaf.handed
        assert any(secret)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert task in done and task.cancelled()
        assert secret == bytearray(32), "the enable secret was not wiped at the cancellation"
        assert not lock.snapshot().is_biometrics_enabled
        deaf.stored.set_result(None)  # the platform saved the item after all: it must go
        for _ in range(5):
            await asyncio.sleep(0)
        assert deaf.deletes == [True], "a late store left its item behind"
        assert not lock.snapshot().is_biometrics_enabled

    asyncio.run(main())


def test_a_late_host_failure_after_cancellation_is_not_reported(engaged):
    lock = engaged()
    enable(lock)
    lock.lock()
    reported = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: reported.append(context))
        deaf = DeafCheck()
        task = asyncio.create_task(lock.unlock_with_biometrics_async(deaf))
        for _ in range(5):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.wait({task}, timeout=5)
        deaf.answer.set_exception(AuthenticationFailed("too late"))
        await asyncio.wait({task}, timeout=5)
        assert task.cancelled()
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(main())
    assert reported == [], "a late answer's exception reached the event loop's handler"


# -- the passcode policies and the step-up check ---------------------------


def test_biometric_max_uses_and_listeners(engaged):
    lock = engaged(biometric_max_uses=2)
    heard = []
    lock.subscribe(lambda s: heard.append(s.is_passcode_required))
    kept = enable(lock)
    for _ in range(2):
        lock.lock()
        lock.begin_biometric_unlock().finish(kept)
    assert lock.snapshot().is_passcode_required and heard[-1] is True
    lock.lock()
    with pytest.raises(LockUnavailableError, match="biometric_max_uses"):
        lock.begin_biometric_unlock()
    lock.unlock(PASSCODE)
    assert not lock.snapshot().is_passcode_required and heard[-1] is False


def test_passcode_max_age_is_a_deadline(engaged, clock):
    lock = engaged(passcode_max_age_ms=3_600_000)
    enable(lock)
    lock.lock()
    snap = lock.snapshot()
    assert not snap.is_passcode_required
    assert snap.ms_until_next_deadline == 3_600_000
    clock.advance(3_600_000)
    assert lock.snapshot().is_passcode_required


@pytest.mark.parametrize(
    "option, value, error",
    [
        ("passcode_after_reboot", 1, TypeError),
        ("passcode_max_age_ms", 3_599_999, InvalidArgumentError),
        ("passcode_max_age_ms", 2_592_000_001, InvalidArgumentError),
        ("passcode_max_age_ms", None, TypeError),
        ("passcode_max_age_ms", -1, InvalidArgumentError),
        ("biometric_max_uses", 1_001, InvalidArgumentError),
        ("biometric_max_uses", -1, InvalidArgumentError),
        ("biometric_max_uses", 2.0, TypeError),
    ],
)
def test_policy_options_are_checked(make_lock, option, value, error):
    with pytest.raises(error, match=option):
        make_lock(**{option: value})


def test_policy_options_at_their_bounds(make_lock):
    for options in ({"passcode_after_reboot": True}, {"passcode_max_age_ms": 3_600_000},
                    {"passcode_max_age_ms": 2_592_000_000}, {"biometric_max_uses": 1},
                    {"biometric_max_uses": 1_000}, {"passcode_max_age_ms": 0}):
        make_lock(**options)


def test_require_recent_auth(engaged, clock):
    lock = engaged()
    with pytest.raises(ReauthRequiredError):
        lock.require_recent_auth(60_000)  # a new passcode is no authentication
    assert lock.snapshot().last_auth_ms is None
    lock.unlock(PASSCODE)
    clock.advance(30_000)
    lock.require_recent_auth(30_000)
    clock.advance(1)
    with pytest.raises(ReauthRequiredError, match="max_age_ms") as error:
        lock.require_recent_auth(30_000)
    assert error.value.status == idlelock.ReauthRequiredError.STATUS == 13
    for bad in (0, -1, 2_592_000_001):
        with pytest.raises(InvalidArgumentError, match="max_age_ms"):
            lock.require_recent_auth(bad)
    with pytest.raises(TypeError):
        lock.require_recent_auth(None)  # type: ignore[arg-type]
    lock.lock()
    with pytest.raises(SessionLockedError):
        lock.require_recent_auth(60_000)
