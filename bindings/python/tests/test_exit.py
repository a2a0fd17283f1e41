# SPDX-License-Identifier: MIT
"""A process that never closes its lock exits (issue 19): a program that
keeps an IdleLock in a global, or drops it in a reference cycle, whose
watcher thread has run a listener (also one still running while the
interpreter shuts down), ends by itself. Each case runs in a child
process; a hang is the failure (the limit is generous: a busy machine)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import idlelock

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
LIMIT = 120  # seconds

CHILD = textwrap.dedent(
    """
    import gc, sys, threading, time
    from idlelock import IdleLock

    mode = sys.argv[1]
    heard = threading.Event()

    def make():
        lock = IdleLock(idle_after_ms=100, lock_on_start=False,
                        kdf_opslimit=2, kdf_memlimit=19 * 1024 * 1024)
        lock.set_passcode("2468")

        def listener(snap):
            lock.snapshot()              # a cycle: the listener holds the lock
            heard.set()
            if "slow" in mode:
                time.sleep(0.5)          # still running while the interpreter exits

        lock.subscribe(listener)
        lock.watch_start()
        return lock

    kept = make()                        # never closed
    if "dropped" in mode:
        del kept                         # an unreachable cycle, still watching
    assert heard.wait(30), "the watcher never ran the listener"
    if "collected" in mode:
        gc.collect()                     # finalised on this thread, mid-delivery
    print("main returns", flush=True)
    """
)


@pytest.mark.parametrize("mode", ["global", "global-slow", "dropped", "dropped-collected-slow"])
def test_a_process_with_a_lock_never_closed_exits(mode, tmp_path):
    env = dict(os.environ)
    if not os.environ.get("IDLELOCK_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join(
            [str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        env.setdefault("IDLELOCK_LIBRARY", idlelock.library_path)
    try:
        result = subprocess.run([sys.executable, "-c", CHILD, mode], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the process did not exit within {LIMIT} s ({mode})")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "main returns\n"
    assert result.stderr == ""
