# SPDX-License-Identifier: MIT
"""A pytest plugin that ends a run with the suite's one line
"N passed, N failed" (see the Makefile's header), after pytest's own
summary: passed tests, and failed tests plus errors.

Load it with ``-p pytest_counts`` and this folder on ``PYTHONPATH``.
"""

from __future__ import annotations

from typing import Any


def pytest_unconfigure(config: Any) -> None:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:  # --collect-only with -p no:terminal, or a crash
        return
    stats = reporter.stats
    passed = len(stats.get("passed", []))
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    reporter.write_line(f"{passed} passed, {failed} failed")


def pytest_report_teststatus(report: Any, config: Any) -> Any:
    """A passed or skipped test prints nothing (no progress letter): a
    suite that passes says only its count line (`-rs` lists the skips).
    Failures and errors keep pytest's letters and reports."""
    if report.when == "call" and report.passed:
        return "passed", "", "PASSED"
    if report.skipped:
        return "skipped", "", "SKIPPED"
    return None


def _no_blank_line(reporter: Any) -> Any:
    """The terminal writer's line(), without the empty line pytest writes
    when a session ends (its progress line's end: with no progress letter,
    a passing suite would print one blank line before its count)."""
    original = reporter._tw.line

    def line(s: str = "", **markup: Any) -> None:
        if s:
            original(s, **markup)

    return original, line


try:
    import pytest as _pytest

    @_pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_sessionfinish(session: Any, exitstatus: Any) -> Any:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None or getattr(reporter, "_tw", None) is None or session.testsfailed:
            yield
            return
        original, quiet = _no_blank_line(reporter)
        reporter._tw.line = quiet
        try:
            yield
        finally:
            reporter._tw.line = original
except ImportError:  # pragma: no cover - loaded only by pytest
    pass
