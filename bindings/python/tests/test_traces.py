# SPDX-License-Identifier: MIT
"""Every shipped trace (traces/*.trace) replayed through the
Python API (tests/replay.py) gives exactly what the C replay tool gives:
the same line for every event (status, state, reason, attempts, flags,
deadlines, secrets read), the same expectations held, the same exit status
(issue 20). The C tool is build/idlelock-replay, named by IDLELOCK_REPLAY
(make test-python and make test-wheel set it)."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest

import replay

TRACES = sorted((Path(__file__).resolve().parents[3] / "traces").glob("*.trace"))


def test_every_trace_is_here():
    assert len(TRACES) >= 27


@pytest.mark.parametrize("trace", TRACES, ids=[t.stem for t in TRACES])
def test_the_python_api_replays_the_trace_as_the_c_tool_does(trace):
    tool = os.environ.get("IDLELOCK_REPLAY")
    assert tool, "IDLELOCK_REPLAY must name build/idlelock-replay (make test-python sets it)"
    c = subprocess.run([tool, str(trace)], capture_output=True, text=True, timeout=300)
    assert c.returncode == 0, f"the C tool itself failed on {trace.name}:\n{c.stdout}{c.stderr}"
    out = io.StringIO()
    rc = replay.main([str(trace)], out)
    assert out.getvalue() == c.stdout
    assert rc == c.returncode
