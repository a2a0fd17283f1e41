# SPDX-License-Identifier: MIT
"""The package's setuptools hooks (everything else is in pyproject.toml).

Three ways this builds:

- The platform wheels (``make wheel``, mk/wheel.mk): the package and one
  CPU's self-contained library, ``libidlelock.so`` (libsodium linked in,
  docs/PLATFORMS.md), are staged and built with IDLELOCK_WHEEL_PLATFORM set
  to that CPU's platform (``linux_x86_64``, ``linux_aarch64``); ``auditwheel
  repair`` then checks the wheel against manylinux2014 (or musllinux_1_2)
  and gives it that tag. The wheel is ``py3-none-<platform>``: the library
  is its only compiled part, and ctypes does not tie it to one Python
  version.
- The source distribution (``make sdist``): it carries the library's source
  in ``libidlelock/``, and building a wheel from it (``pip install
  idlelock-<v>.tar.gz``) builds the library first, the system variant of
  ``make lib`` (``libidlelock.so.1``, which uses the system's libsodium),
  and bundles it. That needs the Swift toolchain (6.3 or later: it builds
  in Embedded Swift), make, a C compiler and libsodium's headers; without
  them the build stops and says which is missing and what to do instead.
  ``IDLELOCK_INSTALL=system`` builds the pure package instead, which loads
  a libidlelock installed on the system (``make install`` from the source
  tarball), as PyNaCl's ``SODIUM_INSTALL=system`` does for libsodium.
- A checkout (``pip install ./bindings/python``): no library beside the
  package and no source: the pure package, which loads the library from
  the system.
"""

import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(HERE, "idlelock", "libidlelock.so")
SOURCE = os.path.join(HERE, "libidlelock")
SWIFT_NEEDED = (6, 3)


class WithLibrary(Distribution):
    """A distribution with a compiled part: installed as platlib, the wheel
    tagged for a platform."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """A py3-none-<platform> wheel for the platform IDLELOCK_WHEEL_PLATFORM
    names (the staged library's CPU, not necessarily this machine's), or
    this machine's."""

    def finalize_options(self) -> None:
        platform = os.environ.get("IDLELOCK_WHEEL_PLATFORM")
        if platform:
            self.plat_name = platform
        super().finalize_options()

    def get_tag(self):  # type: ignore[no-untyped-def]
        _, _, platform = super().get_tag()
        return "py3", "none", platform


def missing_tools() -> list:
    """What building the library from source needs and this machine lacks."""
    missing = []
    swiftc = shutil.which(os.environ.get("SWIFTC", "swiftc"))
    if swiftc is None:
        missing.append("swiftc (the Swift toolchain, 6.3 or later, from swift.org)")
    else:
        out = subprocess.run([swiftc, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"Swift version (\d+)\.(\d+)", out)
        if not m or (int(m.group(1)), int(m.group(2))) < SWIFT_NEEDED:
            missing.append("Swift 6.3 or later (%s says: %s)" % (swiftc, out.strip().splitlines()[0] if out else "?"))
    if shutil.which("make") is None:
        missing.append("make")
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        missing.append("a C compiler (cc)")
    elif subprocess.run([cc, "-E", "-x", "c", "-"], input="#include <sodium.h>\n", capture_output=True,
                        text=True).returncode != 0:
        missing.append("libsodium's headers (Debian, Ubuntu: libsodium-dev; Fedora: libsodium-devel;"
                       " Alpine: libsodium-dev)")
    return missing


def build_library() -> None:
    """Builds libidlelock.so.1 from the sdist's libidlelock/ and puts it
    beside the package as idlelock/libidlelock.so."""
    missing = missing_tools()
    if missing:
        raise SystemExit(
            "idlelock: this source distribution builds libidlelock from its source, and this machine lacks:\n"
            + "".join("  - %s\n" % m for m in missing)
            + "It needs the Swift toolchain 6.3 or later (Embedded Swift), make, a C compiler and libsodium's\n"
            "headers; the library it builds uses the system's libsodium at run time. Instead:\n"
            "  - install a prebuilt wheel (Linux x86-64 and aarch64 with glibc 2.17 or later, x86-64 musl), or\n"
            "  - install libidlelock itself (make install from libidlelock-<version>.tar.gz) and set\n"
            "    IDLELOCK_INSTALL=system to install this package alone, which then loads that library.")
    subprocess.run(["make", "-C", SOURCE, "--no-print-directory", "build/libidlelock.so.1"], check=True)
    shutil.copyfile(os.path.join(SOURCE, "build", "libidlelock.so.1"), BUNDLED)


class BuildWithLibrary(build_py):
    """build_py that first builds the library from the sdist's source."""

    def run(self) -> None:
        if not os.path.exists(BUNDLED):
            build_library()
        super().run()


install = os.environ.get("IDLELOCK_INSTALL", "bundled")
if install not in ("bundled", "system"):
    raise SystemExit("idlelock: IDLELOCK_INSTALL is %r; use bundled (the default: build and bundle the library)"
                     " or system (the pure package, over an installed libidlelock)" % install)
if os.path.exists(BUNDLED):
    setup(distclass=WithLibrary, cmdclass={"bdist_wheel": PlatformWheel})
elif os.path.isdir(SOURCE) and install == "bundled":
    setup(distclass=WithLibrary, cmdclass={"bdist_wheel": PlatformWheel, "build_py": BuildWithLibrary})
else:
    setup()
