"""A StopFlag is a threading.Event that wakes whoever waits on something else for it."""

from __future__ import annotations

import queue
import threading

from app.core.support.stop_flag import StopFlag


def test_it_is_an_event_that_any_thread_sets_and_a_new_job_clears() -> None:
    flag = StopFlag()
    assert isinstance(flag, threading.Event) and not flag.is_set()
    setter = threading.Thread(target=flag.set)
    setter.start()
    setter.join()
    assert flag.wait(0) and flag.is_set()
    flag.clear()
    assert not flag.is_set()


def test_setting_it_wakes_a_thread_that_waits_on_a_queue() -> None:
    flag = StopFlag()
    events: queue.Queue[str] = queue.Queue()
    woken: list[str] = []

    def wait_for_an_event() -> None:
        with flag.waking(lambda: events.put("woken")):
            woken.append(events.get(timeout=30))  # a wait with no polling in it

    waiter = threading.Thread(target=wait_for_an_event)
    waiter.start()
    while waiter.is_alive() and not flag._wakers:  # the waiter has registered
        threading.Event().wait(0.001)
    flag.set()
    waiter.join(timeout=30)
    assert woken == ["woken"] and flag.is_set()


def test_a_waker_is_called_only_inside_its_block() -> None:
    flag = StopFlag()
    calls: list[str] = []
    with flag.waking(lambda: calls.append("inside")):
        flag.set()
    flag.clear()
    flag.set()
    assert calls == ["inside"]
