"""The thread-leak guard: a test fails when it leaves a Python thread or a Glassbox QThread running."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator

import pytest

GRACE_S = 2.0  # threads told to stop get this long to finish


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail a test that leaves a Python thread or a Glassbox QThread running."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + GRACE_S
    leaked: list[str] = []
    while time.monotonic() < deadline:
        leaked = [t.name for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
        leaked += _running_qthreads()
        if not leaked:
            return
        time.sleep(0.05)
    pytest.fail(f"test left threads running: {leaked}")


def _running_qthreads() -> list[str]:
    if "app.ui.threads" not in sys.modules:
        return []
    from app.ui.threads import running_threads

    return [f"QThread {name}" for name in running_threads()]
