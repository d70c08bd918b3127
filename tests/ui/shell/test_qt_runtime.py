"""Guards against a Qt binding that corrupts the interpreter (PySide6 6.12.0 on Python 3.11)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    value = Signal(float)


def test_emitting_a_signal_leaves_the_refcount_of_true_alone(qapp: object) -> None:
    emitter = _Emitter()
    emitter.value.connect(lambda _v: None)
    before = sys.getrefcount(True)
    for _ in range(200):
        emitter.value.emit(0.5)
    # A binding that decrements True on each emit crashes the interpreter at exit.
    assert sys.getrefcount(True) >= before - 5
