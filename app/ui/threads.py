"""Every QThread Glassbox starts goes through here, so exit can join them and tests can find leaks."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, QThread

_threads: "weakref.WeakSet[QThread]" = weakref.WeakSet()


def start_worker_thread(worker: QObject, name: str) -> QThread:
    """Move `worker` to a new named QThread and start its event loop."""
    thread = QThread()
    thread.setObjectName(name)
    worker.moveToThread(thread)
    _threads.add(thread)
    thread.start()
    return thread


def stop_thread(thread: QThread, timeout_ms: int = 2000) -> bool:
    """Quit the thread's event loop and wait for it; True if it ended in time."""
    thread.quit()
    return thread.wait(timeout_ms)


def running_threads() -> list[str]:
    return [thread.objectName() for thread in list(_threads) if thread.isRunning()]
