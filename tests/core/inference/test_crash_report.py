"""A llama.cpp that took its process down is reported in one line that says what to do."""

from __future__ import annotations

import signal

from app.core.inference.crash_report import PORTABLE_CMAKE_ARGS, describe_crash


def test_an_illegal_instruction_names_the_cause_and_the_rebuild_command() -> None:
    text = describe_crash(signal.SIGILL, "writing a reply")
    assert "Illegal instruction" in text and "CPU instructions this machine cannot run" in text
    assert PORTABLE_CMAKE_ARGS in text and "--no-binary llama-cpp-python" in text
    assert "\n" not in text


def test_the_oom_killer_and_other_signals_are_named() -> None:
    assert "memory runs out" in describe_crash(signal.SIGKILL, "loading x.gguf")
    assert describe_crash(signal.SIGABRT, "loading x.gguf").startswith("llama.cpp crashed (SIGABRT) while loading")
    assert "signal 99" in describe_crash(99, "loading x.gguf")
