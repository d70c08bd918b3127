"""The hang watchdog: a test that hangs dumps every thread's stack and ends the run.

pytest-timeout's signal method cannot interrupt a main thread blocked inside C++ (a QThread wait, a lock
held across a llama.cpp call): its handler only runs between bytecodes, so a hung test would stall the
run until CI's own limit kills it without a word. faulthandler's timer runs in a C thread of its own,
needs no GIL, and prints where every thread stands before it exits the process."""

from __future__ import annotations

import faulthandler
from collections.abc import Generator

import pytest

MARGIN_S = 60  # pytest-timeout gets the first chance to fail the test cleanly


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Arm the watchdog for a test's setup, call and teardown together."""
    mark = item.get_closest_marker("timeout")
    limit = float(mark.args[0] if mark and mark.args else item.config.getini("timeout") or 0)
    if limit > 0:
        faulthandler.dump_traceback_later(limit + MARGIN_S, exit=True, file=_real_stderr(item.config))
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _real_stderr(config: pytest.Config) -> int:
    """The run's own stderr: while a test runs, pytest's capture has pointed descriptor 2 at a temp file."""
    capture = config.pluginmanager.getplugin("capturemanager")
    err = getattr(getattr(capture, "_global_capturing", None), "err", None)
    saved = getattr(err, "targetfd_save", None)
    return saved if isinstance(saved, int) else 2
