# SPDX-License-Identifier: MIT
"""The library a platform wheel carries (``<package>/libidlelock.so``,
``make wheel``): where lookup puts it, and, when the suite runs against an
installed wheel (``make test-wheel``), that the copy under test is that
wheel's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import idlelock

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
REPO = PACKAGE_ROOT.parents[1]
BUILT = REPO / "build" / "libidlelock.so.1"
CODE = "import idlelock; print(idlelock.library_path)"


def run_python(code: str, env_overrides: dict, site: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("IDLELOCK_LIBRARY", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(site)
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=site, capture_output=True, text=True, timeout=60
    )


def installed(tmp_path: Path, bundled: bytes = b"") -> Path:
    """The package installed as a wheel lays it out: <site>/idlelock, with
    `bundled` as <site>/idlelock/libidlelock.so (a copy of the built
    library when empty). Returns <site>."""
    site = tmp_path / "site-packages"
    shutil.copytree(PACKAGE_ROOT / "idlelock", site / "idlelock", ignore=shutil.ignore_patterns("libidlelock.so"))
    if bundled:
        (site / "idlelock" / "libidlelock.so").write_bytes(bundled)
    else:
        shutil.copy(BUILT, site / "idlelock" / "libidlelock.so")
    return site


def test_lookup_bundled_library_comes_before_the_system_loader(tmp_path):
    site = installed(tmp_path)
    # The system loader would find build/libidlelock.so.1 here.
    result = run_python(CODE, {"LD_LIBRARY_PATH": str(BUILT.parent)}, site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(site / "idlelock" / "libidlelock.so")


def test_lookup_override_still_comes_first(tmp_path):
    site = installed(tmp_path)
    other = tmp_path / "elsewhere" / "libidlelock.so.1"
    other.parent.mkdir()
    shutil.copy(BUILT, other)
    result = run_python(CODE, {"IDLELOCK_LIBRARY": str(other)}, site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(other)


def test_lookup_bundled_library_that_cannot_load_is_a_clear_error(tmp_path):
    # A wheel for another platform, say: never a silent switch to the system's copy.
    site = installed(tmp_path, bundled=b"\x7fELF not a library for this machine")
    result = run_python(CODE, {"LD_LIBRARY_PATH": str(BUILT.parent)}, site)
    assert result.returncode != 0, result.stdout
    err = result.stderr
    assert "LibraryNotFoundError" in err
    assert str(site / "idlelock" / "libidlelock.so") in err and "bundled in the package" in err
    assert "not tried" in err and "IDLELOCK_LIBRARY" in err  # says how to get past it
    assert result.stdout == ""


def test_lookup_without_a_bundled_library_says_so(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(PACKAGE_ROOT / "idlelock", site / "idlelock", ignore=shutil.ignore_patterns("libidlelock.so"))
    result = run_python(CODE, {}, site)
    assert result.returncode != 0
    assert "not bundled" in result.stderr
    assert "system loader" in result.stderr  # and the search went on


INSTALLED = os.environ.get("IDLELOCK_TEST_INSTALLED")


@pytest.mark.skipif(not INSTALLED, reason="runs only against an installed wheel (make test-wheel)")
def test_the_copy_under_test_is_the_installed_wheel():
    venv = os.path.realpath(INSTALLED or "")
    package = os.path.dirname(os.path.realpath(idlelock.__file__))
    assert package.startswith(venv + os.sep), f"imported {package}, not the wheel installed in {venv}"
    assert not package.startswith(os.path.realpath(REPO) + os.sep)
    assert "IDLELOCK_LIBRARY" not in os.environ
    assert os.path.realpath(idlelock.library_path) == os.path.join(package, "libidlelock.so")
    assert idlelock.version() == idlelock.__version__
    # Self-contained: the process has loaded no libsodium of the system's.
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1] for line in maps if "/" in line}
    assert os.path.join(package, "libidlelock.so") in mapped
    assert not [path for path in mapped if "libsodium" in os.path.basename(path)]
