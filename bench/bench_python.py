# SPDX-License-Identifier: MIT
"""bench_python.py: what the Python binding adds to a call (BENCHMARKS.md, 6).

Measures, in one process, ns per call of:

  noop        a bare ctypes call of ``bench_noop(void *, void *)``, a C
              function that does nothing (bench/noop.c, built into a tiny
              .so under build/): the floor of any ctypes call;
  raw_touch   a bare ctypes call of ``idlelock_touch(handle, &snapshot)``
              through a CDLL of its own (argtypes set, no errcheck): the
              library's cost plus ctypes;
  raw_touch_null
              the same with a NULL ``out`` (no snapshot to fill): what
              ``IdleLock.touch()`` calls, so its floor;
  touch       ``IdleLock.touch()`` of the ``idlelock`` package: since 1.1 it
              returns None, and with the default clock and no listener it
              is one ctypes call of ``idlelock_touch(handle, NULL)`` plus a
              status check (its fast path);
  touch_snapshot
              ``IdleLock.touch(snapshot=True)``, which returns a
              ``Snapshot`` (what ``touch()`` did before 1.1; reported, no
              goal);

in interleaved rounds (the order rotates), in thread CPU time, reporting
medians and the median of the per-round ratios touch/noop (the goal: <= 2x)
and touch/raw_touch. Each figure includes the ``for`` loop's own cost (the
same for all). The ``--kv`` keys bench/python.c reads come first; the
later ones (raw_touch_null_ns, touch_snapshot_ns, ratio_vs_raw_null) are
extra.

Run with IDLELOCK_LIBRARY=build/libidlelock.so.1 PYTHONPATH=bindings/python.
``--kv`` prints ``key value`` lines for bench/python.c instead of a table.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import os
import platform
import statistics
import sys
import time
from typing import Callable, Dict, List


def _loop(fn: Callable[[], object], n: int) -> float:
    """Thread CPU ns per call of ``fn`` over ``n`` calls (time the thread
    spends descheduled on a shared machine does not count)."""
    clock = time.thread_time_ns
    rng = range(n)
    t0 = clock()
    for _ in rng:
        fn()
    return (clock() - t0) / n


def _quantile(values: List[float], q: float) -> float:
    v = sorted(values)
    pos = q * (len(v) - 1)
    i = int(pos)
    return v[i] + (pos - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[-1]


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--noop", required=True, help="the .so holding bench_noop")
    ap.add_argument("--iters", type=int, default=5000, help="calls per round and side")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--kv", action="store_true", help="key value lines for bench/python.c")
    args = ap.parse_args(argv)

    import idlelock
    from idlelock import _ffi

    lock = idlelock.IdleLock(
        idle_after_ms=3_600_000,
        background_after_ms=30_000,
        lock_on_start=False,
        kdf_opslimit=2,
        kdf_memlimit=19 * 1024 * 1024,
    )
    lock.set_passcode("2468")  # engaged: the rules are judged on every call

    # The same two arguments for the no-op and the raw call: the handle and
    # a pointer to a snapshot whose size is set.
    snap = _ffi.SnapshotStruct()
    snap.size = ctypes.sizeof(snap)
    snap_ref = ctypes.byref(snap)
    handle = ctypes.cast(lock._handle, ctypes.c_void_p)  # a bench may peek

    noop_lib = ctypes.CDLL(os.path.abspath(args.noop))
    noop = noop_lib.bench_noop
    noop.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    noop.restype = ctypes.c_int

    raw_lib = ctypes.CDLL(_ffi.library_path)
    raw = raw_lib.idlelock_touch
    raw.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    raw.restype = ctypes.c_int
    if raw(handle, snap_ref) != 0:
        raise SystemExit("idlelock_touch failed")

    # functools.partial is a C object: it adds no Python frame to the bare
    # calls (a lambda would), and lock.touch is a bound method called with
    # no arguments, as a host calls it.
    cases: Dict[str, Callable[[], object]] = {
        "noop": functools.partial(noop, handle, snap_ref),
        "raw_touch": functools.partial(raw, handle, snap_ref),
        "raw_touch_null": functools.partial(raw, handle, None),
        "touch": lock.touch,
        "touch_snapshot": functools.partial(lock.touch, snapshot=True),
    }

    names = list(cases)
    for name in names:  # warm up
        _loop(cases[name], max(args.iters // 10, 10))
    results: Dict[str, List[float]] = {name: [] for name in names}
    for r in range(args.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            results[name].append(_loop(cases[name], args.iters))
    lock.close()

    med = {name: statistics.median(v) for name, v in results.items()}
    ratios = [t / n for t, n in zip(results["touch"], results["noop"])]
    ratios_raw = [t / n for t, n in zip(results["touch"], results["raw_touch"])]
    ratios_null = [t / n for t, n in zip(results["touch"], results["raw_touch_null"])]
    out = {
        "python": platform.python_version(),
        "iters": args.iters,
        "rounds": args.rounds,
        "noop_ns": round(med["noop"], 1),
        "raw_touch_ns": round(med["raw_touch"], 1),
        "touch_ns": round(med["touch"], 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_q1": round(_quantile(ratios, 0.25), 3),
        "ratio_q3": round(_quantile(ratios, 0.75), 3),
        "ratio_vs_raw": round(statistics.median(ratios_raw), 3),
        # Extra (after the keys bench/python.c reads).
        "raw_touch_null_ns": round(med["raw_touch_null"], 1),
        "touch_snapshot_ns": round(med["touch_snapshot"], 1),
        "ratio_vs_raw_null": round(statistics.median(ratios_null), 3),
    }
    if args.kv:
        for key, value in out.items():
            print(key, value)
    else:
        print(f"Python {out['python']}: thread CPU ns per call,"
              f" median of {args.rounds} rounds of {args.iters}")
        print(f"  bare ctypes no-op              {out['noop_ns']:9.0f}")
        print(f"  bare ctypes idlelock_touch     {out['raw_touch_ns']:9.0f}")
        print(f"    ... with a NULL out          {out['raw_touch_null_ns']:9.0f}")
        print(f"  IdleLock.touch()               {out['touch_ns']:9.0f}"
              f"   {out['ratio']:.2f}x the no-op (goal <= 2x),"
              f" {out['ratio_vs_raw']:.2f}x the raw call,"
              f" {out['ratio_vs_raw_null']:.2f}x the raw NULL-out call")
        print(f"  IdleLock.touch(snapshot=True)  {out['touch_snapshot_ns']:9.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
