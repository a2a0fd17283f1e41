# SPDX-License-Identifier: MIT
"""Close and cancel against the host's answer (issue 26, findings 5 and 6),
on CPython with the real library: close() ends every waiting helper at
once whatever the host's check does, and wipes (or deletes) whatever it
answers later; a cancel that reports success means the answer unlocked
nothing, and an answer that reached the library first makes the cancel
report failure."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest

import idlelock
from idlelock import ClosedError, InvalidArgumentError, State

from test_biometric_pair import DeafCheck, DeafStore, enable

ROUNDS = 200


async def _settle(ticks: int = 5) -> None:
    for _ in range(ticks):
        await asyncio.sleep(0)


def _all_slots_free(lock, enable: bool = False) -> None:
    begin = lock.begin_biometric_enable if enable else lock.begin_biometric_unlock
    opened = [begin() for _ in range(idlelock.BIOMETRIC_REQUESTS_MAX)]
    for request in opened:
        request.cancel()


# -- close() (finding 5) ------------------------------------------------------


@pytest.mark.parametrize("closer", ["loop", "thread"])
def test_close_ends_a_pending_unlock_at_once_and_wipes_the_late_answer(engaged, closer):
    lock = engaged()
    kept = enable(lock)
    lock.lock()

    async def main() -> None:
        deaf = DeafCheck()  # never answers on its own, ignores cancellation
        try:
            task = asyncio.create_task(lock.unlock_with_biometrics_async(deaf))
            await _settle()
            (request,) = deaf.requests
            if closer == "loop":
                lock.close()
            else:
                worker = threading.Thread(target=lock.close)
                worker.start()
                worker.join()
            done, _ = await asyncio.wait({task}, timeout=5)
            assert task in done, "the coroutine still waits for the host's check after close()"
            with pytest.raises(ClosedError, match="closed"):
                task.result()
            assert request.finished
            with pytest.raises(ClosedError):
                request.finish(kept)
            assert request.cancel() is None
            assert deaf.cancellations >= 1, "the host's check was asked to stop"
            late = bytearray(kept)
            deaf.answer.set_result(late)  # the platform answers after the app closed the lock
            await _settle()
            assert late == bytearray(32), "the late answer was not wiped"
        finally:
            deaf.release()

    asyncio.run(main())


def test_close_ends_a_pending_enable_wipes_its_secret_and_deletes_a_late_item(engaged):
    lock = engaged()

    async def main() -> None:
        deaf = DeafStore()  # never completes on its own, ignores cancellation
        try:
            task = asyncio.create_task(lock.enable_biometrics_async(deaf, deaf.delete))
            await _settle()
            (secret,) = deaf.handed
            assert any(secret)
            lock.close()
            done, _ = await asyncio.wait({task}, timeout=5)
            assert task in done
            with pytest.raises(ClosedError):
                task.result()
            assert secret == bytearray(32), "the enable secret was not wiped at close()"
            deaf.stored.set_result(None)  # the keystore saved the item after all: it must go
            await _settle()
            assert deaf.deletes == [True], "a late store left its item behind"
        finally:
            deaf.release()

    asyncio.run(main())


def test_close_ends_open_requests_and_wipes_their_secrets(engaged):
    lock = engaged()
    kept = enable(lock)
    enable_request = lock.begin_biometric_enable()
    secret = enable_request.secret
    assert any(secret)
    unlock_request = lock.begin_biometric_unlock()
    lock.close()
    assert secret == bytearray(32), "an open enable's secret outlived close()"
    for request in (enable_request, unlock_request):
        assert request.finished
        assert request.cancel() is None
    with pytest.raises(ClosedError):
        unlock_request.finish(kept)
    with pytest.raises(ClosedError):
        enable_request.finish()


def test_a_dropped_enable_request_wipes_its_secret_when_collected(engaged):
    # The host kept the secret's array (a keystore write in progress) but
    # dropped the request, then closes nothing: the secret must not linger.
    lock = engaged()
    request = lock.begin_biometric_enable()
    secret = request.secret
    assert any(secret)
    del request
    gc.collect()
    assert secret == bytearray(32), "a dropped request's secret outlived it"
    lock.close()


def test_close_racing_the_answer_from_another_thread_always_ends_and_always_wipes(engaged):
    rounds = 50
    outcomes = {"unlocked": 0, "closed": 0}
    for i in range(rounds):
        lock = engaged()
        kept = enable(lock)
        lock.lock()

        async def main() -> None:
            deaf = DeafCheck()
            loop = asyncio.get_running_loop()
            try:
                task = asyncio.create_task(lock.unlock_with_biometrics_async(deaf))
                await _settle()
                answer = bytearray(kept)
                go = threading.Event()
                worker = threading.Thread(target=lambda: (go.wait(), lock.close()))
                worker.start()
                go.set()
                loop.call_soon(deaf.answer.set_result, answer)
                done, _ = await asyncio.wait({task}, timeout=5)
                worker.join()
                assert task in done, f"round {i}: the coroutine never ended"
                error = task.exception()
                if error is None:
                    assert task.result().state == State.UNLOCKED
                    outcomes["unlocked"] += 1
                else:
                    assert isinstance(error, ClosedError), f"round {i}: {error!r}"
                    outcomes["closed"] += 1
                await _settle()
                assert answer == bytearray(32), f"round {i}: the answer was not wiped"
            finally:
                deaf.release()

        asyncio.run(main())
    assert sum(outcomes.values()) == rounds


# -- cancel racing the answer (finding 6) -------------------------------------


def test_an_answer_that_came_just_before_the_cancel_is_wiped_and_unlocks_nothing(engaged):
    # The host's check completed (a platform future, done at once), but
    # the task was cancelled before it ran again: the caller sees
    # CancelledError, so the answer must unlock nothing, and must not
    # linger.
    lock = engaged()
    kept = enable(lock)
    lock.lock()

    async def main() -> None:
        platform = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(lock.unlock_with_biometrics_async(lambda request: platform))
        await _settle()
        answer = bytearray(kept)
        platform.set_result(answer)
        assert task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert task in done and task.cancelled()
        assert answer == bytearray(32), "the answer the cancellation overtook was not wiped"
        assert lock.snapshot().state == State.LOCKED, "a cancelled unlock unlocked"
        _all_slots_free(lock)

    asyncio.run(main())


def test_a_store_that_completed_just_before_the_cancel_has_its_item_deleted(engaged):
    lock = engaged()
    deletes = []

    async def main() -> None:
        platform = asyncio.get_running_loop().create_future()

        async def delete() -> None:
            deletes.append(True)

        task = asyncio.create_task(lock.enable_biometrics_async(lambda secret: platform, delete))
        await _settle()
        platform.set_result(None)  # stored
        assert task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert task in done and task.cancelled()
        await _settle()
        assert deletes == [True], "the item stored just before the cancel was left behind"
        assert not lock.snapshot().is_biometrics_enabled
        _all_slots_free(lock, enable=True)

    asyncio.run(main())


def test_cancel_racing_finish_on_two_threads_reports_what_the_lock_did(engaged):
    lock = engaged()
    kept = enable(lock)
    counts = {"cancelled": 0, "answered": 0}
    barrier = threading.Barrier(2)
    for i in range(ROUNDS):
        lock.lock()
        request = lock.begin_biometric_unlock()
        seen: dict = {}

        def answer() -> None:
            barrier.wait()
            try:
                seen["finish"] = request.finish(kept)
            except BaseException as error:  # noqa: BLE001 - examined below
                seen["finish_error"] = error

        def cancel() -> None:
            barrier.wait()
            try:
                seen["cancel"] = request.cancel()
            except BaseException as error:  # noqa: BLE001 - examined below
                seen["cancel_error"] = error

        threads = [threading.Thread(target=answer), threading.Thread(target=cancel)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert "cancel_error" not in seen, f"round {i}: cancel() raised {seen.get('cancel_error')!r}"
        state = lock.snapshot().state
        if seen["cancel"] is not None:
            counts["cancelled"] += 1
            assert state == State.LOCKED, f"round {i}: cancel() reported success but the answer unlocked"
            assert isinstance(seen.get("finish_error"), InvalidArgumentError), f"round {i}: {seen!r}"
        else:
            counts["answered"] += 1
            assert state == State.UNLOCKED, f"round {i}: cancel() reported failure but nothing unlocked"
            assert seen["finish"].state == State.UNLOCKED
    assert counts["cancelled"] + counts["answered"] == ROUNDS


def test_a_finish_after_a_cancel_is_refused_and_a_cancel_after_a_finish_reports_nothing(engaged):
    lock = engaged()
    kept = enable(lock)
    lock.lock()
    request = lock.begin_biometric_unlock()
    assert request.cancel() is not None
    with pytest.raises(InvalidArgumentError, match="cancelled"):
        request.finish(kept)
    assert lock.snapshot().state == State.LOCKED
    request = lock.begin_biometric_unlock()
    assert request.finish(kept).state == State.UNLOCKED
    assert request.cancel() is None
    lock.lock()
    voided = lock.begin_biometric_unlock()
    lock.disable_biometrics()
    assert voided.cancel() is None, "a voided request has nothing to cancel"
