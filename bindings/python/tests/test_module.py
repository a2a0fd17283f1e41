# SPDX-License-Identifier: MIT
"""Module functions, the exception classes, the ctypes declarations against
the library, and library lookup."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import idlelock
from idlelock import _ffi, _generated

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
REPO = PACKAGE_ROOT.parents[1]
HEADER = REPO / "include" / "idlelock.h"
BUILT = REPO / "build" / "libidlelock.so.1"


# -- versions ---------------------------------------------------------------


def test_library_is_at_the_header_version():
    # The constants, mirrors and declarations come from include/idlelock.h
    # (idlelock/_generated.py, checked by `make check-bindings`); the
    # library built from that header reports its version.
    assert idlelock.version() == _ffi.HEADER_VERSION_STRING == idlelock.__version__
    assert idlelock.version_number() == _ffi.HEADER_VERSION_NUMBER
    assert (_ffi.HEADER_VERSION_MAJOR, _ffi.HEADER_VERSION_MINOR) == (1, 2)


def test_every_header_function_is_declared():
    assert "idlelock_unlock" in [f[0] for f in _generated.FUNCTIONS] and len(_generated.FUNCTIONS) >= 40
    for name, restype, argtypes, kind in _generated.FUNCTIONS:
        fn = getattr(_ffi.lib, name)
        assert fn.argtypes == argtypes and fn.restype is restype, name
        assert (fn.errcheck is _ffi._check_status) == (kind == "status"), name


def test_struct_mirrors_match_the_library():
    assert ctypes.sizeof(_ffi.Config) == _ffi.lib.idlelock_config_size()
    assert ctypes.sizeof(_ffi.SnapshotStruct) == _ffi.lib.idlelock_snapshot_size()
    assert ctypes.sizeof(_ffi.AuthenticatorStruct) == _ffi.lib.idlelock_authenticator_size()
    assert ctypes.sizeof(_ffi.DelayStep) == _ffi.lib.idlelock_delay_step_size()


class FakeVersionLib:
    """The real library, except for the version and struct sizes it reports:
    drives _ffi._check_abi through each case of its rule."""

    def __init__(self, number: int, config: int, snap: int, auth: int = -1, step: int = -1) -> None:
        self.number, self.config, self.snap = number, config, snap
        self.auth = ctypes.sizeof(_ffi.AuthenticatorStruct) if auth < 0 else auth
        self.step = ctypes.sizeof(_ffi.DelayStep) if step < 0 else step
        self.idlelock_config_init = _ffi.lib.idlelock_config_init
        self.idlelock_delay_schedule_ios = _ffi.lib.idlelock_delay_schedule_ios

    def idlelock_version_number(self) -> int:
        return self.number

    def idlelock_version(self) -> str:
        n = self.number
        return f"{n // 10000}.{n // 100 % 100}.{n % 100}"

    def idlelock_config_size(self) -> int:
        return self.config

    def idlelock_snapshot_size(self) -> int:
        return self.snap

    def idlelock_authenticator_size(self) -> int:
        return self.auth

    def idlelock_delay_step_size(self) -> int:
        return self.step


CFG = ctypes.sizeof(_ffi.Config)
SNAP = ctypes.sizeof(_ffi.SnapshotStruct)


AUTH = ctypes.sizeof(_ffi.AuthenticatorStruct)
STEP = ctypes.sizeof(_ffi.DelayStep)


@pytest.mark.parametrize(
    "number, config, snap, auth, step, ok",
    [
        (10200, CFG, SNAP, AUTH, STEP, True),  # same minor: exactly ours
        (10205, CFG, SNAP, AUTH, STEP, True),  # a later patch
        (10200, CFG + 8, SNAP, AUTH, STEP, False),  # same minor, other sizes: a broken mirror
        (10200, CFG, SNAP + 8, AUTH, STEP, False),
        (10200, CFG - 8, SNAP, AUTH, STEP, False),
        (10200, CFG, SNAP, AUTH + 8, STEP, False),  # 1.2: the authenticator's size too
        (10200, CFG, SNAP, AUTH, STEP - 8, False),  # 1.2: and the delay step's
        (10300, CFG + 8, SNAP + 16, AUTH + 8, STEP, True),  # newer minor: grown structs are fine
        (10300, CFG, SNAP, AUTH, STEP, True),
        (10300, CFG - 8, SNAP, AUTH, STEP, False),  # newer minor, smaller: impossible
        (10300, CFG, SNAP, AUTH - 8, STEP, False),
        (10100, CFG - 16, SNAP - 16, AUTH, STEP, False),  # 1.1 lacks the 1.2 functions
        (20200, CFG, SNAP, AUTH, STEP, False),  # another ABI major
    ],
)
def test_load_time_abi_check(monkeypatch, number, config, snap, auth, step, ok):
    monkeypatch.setattr(_ffi, "lib", FakeVersionLib(number, config, snap, auth, step))
    if ok:
        _ffi._check_abi()
    else:
        with pytest.raises(ImportError) as e:
            _ffi._check_abi()
        assert _ffi.HEADER_VERSION_STRING in str(e.value)  # names the binding's header version


# -- status names and exceptions ------------------------------------------


NAMES = {
    0: "IDLELOCK_OK",
    1: "IDLELOCK_ERR_INVALID_ARGUMENT",
    2: "IDLELOCK_ERR_SESSION_LOCKED",
    3: "IDLELOCK_ERR_INVALID_PASSCODE",
    4: "IDLELOCK_ERR_LOCKED_OUT",
    5: "IDLELOCK_ERR_LOCK_UNAVAILABLE",
    6: "IDLELOCK_ERR_NO_PASSCODE",
    7: "IDLELOCK_ERR_STORAGE",
    8: "IDLELOCK_ERR_NOT_FOUND",
    9: "IDLELOCK_ERR_BUFFER_TOO_SMALL",
    10: "IDLELOCK_ERR_NO_MEMORY",
    11: "IDLELOCK_ERR_INTERNAL",
    12: "IDLELOCK_ERR_RETRY_LATER",
    13: "IDLELOCK_ERR_REAUTH_REQUIRED",
}


def test_status_exceptions():
    """The status-to-exception table is generated from the header, the
    exception classes are written by hand, each with its STATUS: a class
    whose STATUS is another status than the one it is raised for (a copied
    class, a renumbered one) misreports it to whoever reads ``STATUS`` or
    makes one."""
    from idlelock.errors import IdleLockError, _error_for

    generic = idlelock.status_name(14)
    known = 0
    for code in range(1, 64):
        name = idlelock.status_name(code)
        error = _error_for(code, "m", None)
        assert error.status == code
        if name == generic:
            assert type(error) is IdleLockError, code
            continue
        known += 1
        words = name[len("IDLELOCK_ERR_"):].lower().split("_")
        assert type(error).__name__ == "".join(w.capitalize() for w in words) + "Error", name
        assert type(error).STATUS == code, name
        assert type(error)("m").status == code, name
    assert known >= 13  # 1.2 has 13


def test_status_names():
    for code, name in NAMES.items():
        assert idlelock.status_name(code) == name
    generic = idlelock.status_name(14)
    assert generic and generic not in NAMES.values()
    for code in (-1, 999, 2**31 - 1, -(2**31), 2**40, -(2**70)):
        assert idlelock.status_name(code) == generic
    with pytest.raises(TypeError):
        idlelock.status_name("1")


EXCEPTIONS = {
    1: idlelock.InvalidArgumentError,
    2: idlelock.SessionLockedError,
    3: idlelock.InvalidPasscodeError,
    4: idlelock.LockedOutError,
    5: idlelock.LockUnavailableError,
    6: idlelock.NoPasscodeError,
    7: idlelock.StorageError,
    8: idlelock.NotFoundError,
    9: idlelock.BufferTooSmallError,
    10: idlelock.NoMemoryError,
    11: idlelock.InternalError,
    12: idlelock.RetryLaterError,
    13: idlelock.ReauthRequiredError,
}


def test_one_exception_class_per_status():
    assert len(set(EXCEPTIONS.values())) == len(EXCEPTIONS)
    for code, cls in EXCEPTIONS.items():
        assert issubclass(cls, idlelock.IdleLockError)
        err = idlelock.errors._error_for(code, "msg", None)
        assert type(err) is cls
        assert err.status == code and err.message == "msg"
        assert NAMES[code] in str(err)
    assert issubclass(idlelock.InvalidArgumentError, ValueError)
    assert issubclass(idlelock.NotFoundError, KeyError)
    assert issubclass(idlelock.NoMemoryError, MemoryError)
    unknown = idlelock.errors._error_for(42, "future", None)
    assert type(unknown) is idlelock.IdleLockError
    assert unknown.status == 42


def test_error_message_comes_from_the_library(make_lock):
    with pytest.raises(idlelock.NoPasscodeError) as e:
        make_lock().unlock("2468")
    assert e.value.message  # idlelock_last_error(), never empty after a failure
    assert "2468" not in e.value.message  # never contains a passcode


# -- library lookup (in subprocesses: the library loads once per process) ---


def run_python(code: str, env_overrides: dict, cwd: Path = REPO, pythonpath: Path = PACKAGE_ROOT):
    env = {k: v for k, v in os.environ.items() if k not in ("IDLELOCK_LIBRARY", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(pythonpath)
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=60
    )


def test_lookup_env_override(tmp_path):
    copy = tmp_path / "renamed-libidlelock.so"
    shutil.copy(BUILT, copy)
    result = run_python(
        "import idlelock; print(idlelock.library_path); print(idlelock.version())",
        {"IDLELOCK_LIBRARY": str(copy)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [str(copy), idlelock.version()]


@pytest.mark.parametrize("kind", ["missing", "directory", "not-a-library", "empty"])
def test_lookup_bad_override_is_a_clear_error(tmp_path, kind):
    path = {
        "missing": str(tmp_path / "nope" / "libidlelock.so.1"),
        "directory": str(tmp_path),
        "not-a-library": str(tmp_path / "garbage.so"),
        "empty": "",
    }[kind]
    if kind == "not-a-library":
        Path(path).write_text("not an ELF file")
    result = run_python(
        "import idlelock\n"
        "try:\n"
        "    import idlelock\n"
        "except ImportError as e:\n"
        "    print('ERR', e)\n",
        {"IDLELOCK_LIBRARY": path},
    )
    assert result.returncode != 0
    assert "ImportError" in result.stderr or "LibraryNotFoundError" in result.stderr
    assert "IDLELOCK_LIBRARY" in result.stderr
    assert repr(path) in result.stderr
    assert "Traceback" in result.stderr  # an exception, not a crash
    # An explicit override that fails never falls back to another copy.
    assert str(BUILT) not in result.stderr or "not tried" in result.stderr


def test_lookup_repo_build_output():
    result = run_python("import idlelock; print(idlelock.library_path)", {}, cwd=Path("/"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(BUILT)


def test_lookup_system_loader_then_failure(tmp_path):
    # A copy of the package laid out like the repository, but with no
    # include/idlelock.h: not a source checkout, so the build/ beside it is
    # never loaded, even though a working library sits there.
    pkg = tmp_path / "bindings" / "python"
    shutil.copytree(PACKAGE_ROOT / "idlelock", pkg / "idlelock")
    (tmp_path / "build").mkdir()
    shutil.copy(BUILT, tmp_path / "build" / "libidlelock.so.1")
    code = "import idlelock; print(idlelock.library_path)"
    found = run_python(code, {"LD_LIBRARY_PATH": str(BUILT.parent)}, cwd=tmp_path, pythonpath=pkg)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "libidlelock.so.1"

    missing = run_python(code, {}, cwd=tmp_path, pythonpath=pkg)
    assert missing.returncode != 0
    err = missing.stderr
    assert "LibraryNotFoundError" in err
    assert "not in a source checkout" in err  # says why step 3 was skipped
    assert str(tmp_path / "include" / "idlelock.h") in err
    assert "system loader" in err and "libidlelock.so.1" in err
    assert "IDLELOCK_LIBRARY" in err  # says how to fix it


def make_checkout(root: Path, *, header: bool = True) -> Path:
    """A minimal source checkout: include/idlelock.h, build/libidlelock.so.1
    and bindings/python/idlelock. Returns bindings/python."""
    pkg = root / "bindings" / "python"
    shutil.copytree(PACKAGE_ROOT / "idlelock", pkg / "idlelock")
    (root / "build").mkdir()
    shutil.copy(BUILT, root / "build" / "libidlelock.so.1")
    if header:
        (root / "include").mkdir()
        shutil.copy(HEADER, root / "include" / "idlelock.h")
    return pkg


def test_lookup_repo_build_output_of_another_checkout(tmp_path):
    pkg = make_checkout(tmp_path / "checkout")
    result = run_python("import idlelock; print(idlelock.library_path)", {}, cwd=Path("/"), pythonpath=pkg)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "checkout" / "build" / "libidlelock.so.1")


@pytest.mark.parametrize("planted_header", [False, True], ids=["build-only", "build-and-header"])
def test_lookup_installed_package_never_loads_relative_to_site_packages(tmp_path, planted_header):
    # An installed layout: <prefix>/lib/python3.X/site-packages/idlelock.
    # <package>/../../../ is <prefix>/lib: a library planted at
    # <prefix>/lib/build/libidlelock.so.1 (even with an include/idlelock.h
    # beside it) must not be loaded.
    lib_dir = tmp_path / "venv" / "lib"
    site = lib_dir / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    shutil.copytree(PACKAGE_ROOT / "idlelock", site / "idlelock")
    (lib_dir / "build").mkdir()
    shutil.copy(BUILT, lib_dir / "build" / "libidlelock.so.1")
    if planted_header:
        (lib_dir / "include").mkdir()
        shutil.copy(HEADER, lib_dir / "include" / "idlelock.h")
    code = "import idlelock; print(idlelock.library_path)"

    missing = run_python(code, {}, cwd=tmp_path, pythonpath=site)
    assert missing.returncode != 0, missing.stdout
    assert "LibraryNotFoundError" in missing.stderr
    assert "not in a source checkout" in missing.stderr
    assert "system loader" in missing.stderr

    found = run_python(code, {"LD_LIBRARY_PATH": str(BUILT.parent)}, cwd=tmp_path, pythonpath=site)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "libidlelock.so.1"  # the system loader, not lib/build

    chosen = run_python(code, {"IDLELOCK_LIBRARY": str(BUILT)}, cwd=tmp_path, pythonpath=site)
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.strip() == str(BUILT)


def test_lookup_symlinked_package_follows_the_checkout(tmp_path):
    # A site-packages entry that is a symlink into the checkout (as some
    # editable installs do) really sits in the checkout: step 3 applies.
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "idlelock").symlink_to(PACKAGE_ROOT / "idlelock", target_is_directory=True)
    result = run_python("import idlelock; print(idlelock.library_path)", {}, cwd=Path("/"), pythonpath=site)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(BUILT)
