# SPDX-License-Identifier: MIT
"""The documentation runs: every ```python block of bindings/python/README.md
and of the top README.md is a file under bindings/python/examples/ (named
by the link on the line before the block) whose text is the block's, byte
for byte, and each file is run, in a fresh process (the library loads once
per process) whose temporary folder is pytest's, with its output checked;
so is the package docstring's quick start. State/Reason print as names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict

import pytest

import idlelock
from idlelock import Platform, Reason, State

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
REPO_ROOT = PACKAGE_ROOT.parents[1]
README = PACKAGE_ROOT / "README.md"
TOP_README = REPO_ROOT / "README.md"
EXAMPLES = PACKAGE_ROOT / "examples"
BLOCK = re.compile(r"^\[`(?:bindings/python/)?(examples/[\w.]+\.py)`\]\([^)]*\):\n\n```python\n(.*?)^```", re.M | re.S)


def readme_examples(readme: Path) -> Dict[str, str]:
    """{file name: block} for every ```python block of `readme`; each must
    be announced by its file's link on the line before it."""
    text = readme.read_text()
    found = {Path(m.group(1)).name: m.group(2) for m in BLOCK.finditer(text)}
    fences = len(re.findall(r"^```python$", text, re.M))
    assert len(found) == fences, f"a ```python block of {readme} names no examples/ file"
    return found


def quick_start() -> str:
    doc = idlelock.__doc__ or ""
    block = re.search(r"Quick start::\n\n(.*?)\n\n(?=\S)", doc, re.S)
    assert block, "the package docstring lost its quick start"
    return textwrap.dedent(block.group(1))


def run(args: list, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if not os.environ.get("IDLELOCK_TEST_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join(
            [str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        env.setdefault("IDLELOCK_LIBRARY", idlelock.library_path)
    env["TMPDIR"] = str(tmp_path)  # tempfile.mkdtemp() in the examples lands here
    return subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_example(name: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return run([str(EXAMPLES / name)], tmp_path)


def test_every_readme_block_is_its_example_file_as_printed():
    blocks = readme_examples(README)
    assert list(blocks) == ["usage.py", "store.py", "device_key.py", "authenticator.py",
                            "asyncio_pair.py", "prompt.py", "warning_and_delay.py"]
    top = readme_examples(TOP_README)
    assert list(top) == ["quickstart.py"]
    for name, block in {**blocks, **top}.items():
        assert (EXAMPLES / name).read_text() == block, f"README's block differs from examples/{name}"
    # Every example file is shown in a README (none drifts unseen).
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted({**blocks, **top})
    text = README.read_text()
    assert "/work/" not in text  # commands are relative to the repository root
    assert "kdf_opslimit=2, kdf_memlimit=19 * 1024 * 1024" in text


def test_top_readme_quickstart_runs(tmp_path):
    result = run_example("quickstart.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "b'eyJhbGciOi...' UNLOCKED\n"
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_readme_usage_example_runs(tmp_path):
    result = run_example("usage.py", tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    heard = [line.split()[1:3] for line in lines if line.startswith("heard: ")]
    out = [line for line in lines if not line.startswith("heard: ")]
    assert out[0].startswith("UNLOCKED ")  # the state prints as its name
    assert 0 < int(out[0].split()[1]) <= 5 * 60_000
    assert out[1:] == ["sealed while locked", "4 attempts left", "b'...'"]
    # background/foreground (is_away), the manual lock, the counted wrong
    # attempt, then the unlock heard twice (counted while LOCKED, UNLOCKED).
    assert heard == [["UNLOCKED", "NONE"]] * 2 + [["LOCKED", "MANUAL"]] * 3 + [["UNLOCKED", "NONE"]]
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_readme_store_example_runs(tmp_path):
    result = run_example("store.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["LOCKED STARTUP", "b'...'"]
    # The sign-out deleted the store; only <path>.lock stays.
    (folder,) = list(tmp_path.iterdir())
    assert [p.name for p in folder.iterdir()] == ["session.idlelock.lock"]


def test_readme_device_key_example_runs(tmp_path):
    result = run_example("device_key.py", tmp_path)
    assert result.returncode == 0, result.stderr
    (folder,) = list(tmp_path.iterdir())
    assert sorted(p.name for p in folder.iterdir()) == ["session.idlelock", "session.idlelock.lock"]


def test_readme_authenticator_example_runs(tmp_path):
    result = run_example("authenticator.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["UNLOCKED True 5"]
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_readme_asyncio_example_runs(tmp_path):
    # The two-phase pair through a fake asynchronous keystore: the event
    # loop kept running during the check, a cancelled check, the policy
    # after biometric_max_uses, a step-up refused, the passcode.
    result = run_example("asyncio_pair.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "UNLOCKED True True", "cancelled: LOCKED", "UNLOCKED True", "ask again", "False"]
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_readme_prompt_example_runs(tmp_path):
    result = run_example("prompt.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["UNLOCKED", "LOCKED BACKGROUNDED"]
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_readme_warning_and_delay_example_runs(tmp_path):
    result = run_example("warning_and_delay.py", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "True 30000", "False", "try again in 60000 ms", "UNLOCKED"]
    assert not list(tmp_path.iterdir())  # memory only: no files


def test_package_quick_start_runs(tmp_path):
    result = run(["-c", quick_start()], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "UNLOCKED b'...'"


# -- State and Reason print as names (Python 3.11 made IntEnum print "0") -----


@pytest.mark.parametrize("member", list(State) + list(Reason) + list(Platform))
def test_state_and_reason_str_is_the_name(member):
    assert str(member) == member.name
    assert f"{member}" == member.name
    assert "%s" % member == member.name
    assert format(member, ">12") == f"{member.name:>12}"
    # Still ints: numeric formats, comparisons and int() give the value.
    assert f"{member:d}" == str(int(member))
    assert "%d" % member == str(int(member))
    assert member == int(member)
    assert repr(member) == f"<{type(member).__name__}.{member.name}: {int(member)}>"


def test_printing_a_snapshot_state_shows_the_name(make_lock, capsys):
    snap = make_lock().snapshot()
    print(snap.state, snap.reason)
    assert capsys.readouterr().out == "UNLOCKED NONE\n"
