# SPDX-License-Identifier: MIT
"""The platform wheel's one setuptools hook (everything else is in
pyproject.toml).

`make wheel` (mk/wheel.mk) copies the package and one CPU's self-contained
library, ``libidlelock.so`` (libsodium linked in, docs/PLATFORMS.md), into
a staging folder and builds there with IDLELOCK_WHEEL_PLATFORM set to that
CPU's platform (``linux_x86_64``, ``linux_aarch64``); ``auditwheel repair``
then checks the wheel against manylinux2014 and gives it that tag. The
wheel is ``py3-none-<platform>``: the library is its only compiled part,
and ctypes does not tie it to one Python version.

Without the library beside the package (``pip install ./bindings/python``)
this builds the pure package, which loads the library from the system.
"""

import os

from setuptools import Distribution, setup

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(HERE, "idlelock", "libidlelock.so")


class WithLibrary(Distribution):
    """A distribution with a compiled part: installed as platlib, the wheel
    tagged for a platform."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    """A py3-none-<platform> wheel for the platform IDLELOCK_WHEEL_PLATFORM
    names (the staged library's CPU, not necessarily this machine's)."""

    def finalize_options(self) -> None:
        platform = os.environ.get("IDLELOCK_WHEEL_PLATFORM")
        if platform:
            self.plat_name = platform
        super().finalize_options()

    def get_tag(self):  # type: ignore[no-untyped-def]
        _, _, platform = super().get_tag()
        return "py3", "none", platform


if os.path.exists(BUNDLED):
    setup(distclass=WithLibrary, cmdclass={"bdist_wheel": PlatformWheel})
else:
    setup()
