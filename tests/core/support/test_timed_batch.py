"""Streamed items are handed on in batches: the first at once, then at most once per interval."""

from __future__ import annotations

from app.core.support.timed_batch import TimedBatch


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_first_item_goes_at_once_and_the_next_ones_wait_for_the_interval() -> None:
    clock, sent = Clock(), []
    batch: TimedBatch[str] = TimedBatch(0.5, sent.append, clock)
    batch.add("a")
    assert sent == [["a"]]  # the first token is not held back
    clock.now += 0.2
    batch.add("b")
    clock.now += 0.2
    batch.add("c")
    assert sent == [["a"]]
    clock.now += 0.1  # half a second since the last send
    batch.add("d")
    assert sent == [["a"], ["b", "c", "d"]]


def test_flush_sends_what_is_held_and_nothing_when_nothing_is() -> None:
    clock, sent = Clock(), []
    batch: TimedBatch[int] = TimedBatch(1.0, sent.append, clock)
    batch.flush()
    assert sent == []
    batch.add(1)
    batch.add(2)
    batch.flush()
    batch.flush()
    assert sent == [[1], [2]]
