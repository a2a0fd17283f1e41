"""Module functions, the exception classes, the ctypes declarations against
the header, and library lookup."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import idlelock
from idlelock import _ffi

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # bindings/python
REPO = PACKAGE_ROOT.parents[1]
HEADER = REPO / "include" / "idlelock.h"
BUILT = REPO / "build" / "libidlelock.so.1"


def header_defines() -> dict:
    text = HEADER.read_text()
    out = {}
    for name, value in re.findall(r"^#define (IDLELOCK_\w+)\s+(.+?)\s*(?:/\*.*)?$", text, re.M):
        out[name] = value.strip()
    return out


def header_functions() -> list:
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    return re.findall(r"^[\w\s\*]*?\b(idlelock_\w+)\s*\(", text, re.M)


# -- versions ---------------------------------------------------------------


def test_header_and_library_versions_agree():
    defines = header_defines()
    assert idlelock.version() == defines["IDLELOCK_VERSION_STRING"].strip('"')
    assert idlelock.version_number() == int(defines["IDLELOCK_VERSION_NUMBER"])
    assert idlelock.version_number() == _ffi.HEADER_VERSION_NUMBER
    assert idlelock.version() == idlelock.__version__


def test_header_constants_match_the_binding():
    defines = header_defines()
    for name, value in defines.items():
        attr = name[len("IDLELOCK_"):]
        if not hasattr(_ffi, attr) or attr.startswith("VERSION_STRING"):
            continue
        expected = getattr(_ffi, attr)
        literal = value.replace("(uint64_t)", "").replace("(int64_t)", "").strip("()")
        if literal == "INT64_MAX":
            literal = str(2**63 - 1)
        assert eval(literal, {}) == expected, name  # simple integer expressions


def test_every_header_function_is_declared():
    names = header_functions()
    assert "idlelock_unlock" in names and len(names) >= 29
    for name in names:
        fn = getattr(_ffi.lib, name)
        assert fn.argtypes is not None, name
        assert name == "idlelock_destroy" or fn.restype is not None, name


def test_struct_mirrors_match_the_library():
    assert ctypes.sizeof(_ffi.Config) == _ffi.lib.idlelock_config_size()
    assert ctypes.sizeof(_ffi.SnapshotStruct) == _ffi.lib.idlelock_snapshot_size()


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
}


def test_status_names():
    for code, name in NAMES.items():
        assert idlelock.status_name(code) == name
    generic = idlelock.status_name(12)
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
}


def test_one_exception_class_per_status():
    assert len(set(EXCEPTIONS.values())) == len(EXCEPTIONS)
    for code, cls in EXCEPTIONS.items():
        assert issubclass(cls, idlelock.IdleLockError)
        err = idlelock._error_for(code, "msg", None)
        assert type(err) is cls
        assert err.status == code and err.message == "msg"
        assert NAMES[code] in str(err)
    assert issubclass(idlelock.InvalidArgumentError, ValueError)
    assert issubclass(idlelock.NotFoundError, KeyError)
    assert issubclass(idlelock.NoMemoryError, MemoryError)
    unknown = idlelock._error_for(42, "future", None)
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
    # A copy of the package outside the repository has no build/ beside it.
    # <package>/../../../build is then tmp_path/build, which does not exist.
    pkg = tmp_path / "bindings" / "python"
    shutil.copytree(PACKAGE_ROOT / "idlelock", pkg / "idlelock")
    code = "import idlelock; print(idlelock.library_path)"
    found = run_python(code, {"LD_LIBRARY_PATH": str(BUILT.parent)}, cwd=tmp_path, pythonpath=pkg)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "libidlelock.so.1"

    missing = run_python(code, {}, cwd=tmp_path, pythonpath=pkg)
    assert missing.returncode != 0
    err = missing.stderr
    assert "LibraryNotFoundError" in err
    assert str(tmp_path / "build" / "libidlelock.so.1") in err  # the repo path tried
    assert "system loader" in err and "libidlelock.so.1" in err
    assert "IDLELOCK_LIBRARY" in err  # says how to fix it
