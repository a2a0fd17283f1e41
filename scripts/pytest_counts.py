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
