"""What to tell a person when llama.cpp took its process down with a signal.

An assert in llama.cpp calls abort(), a bad memory access is a segfault, the OOM killer
sends SIGKILL, and a build that uses CPU instructions this machine cannot run dies with
SIGILL ("Illegal instruction") at its first decode — the classic wall of native builds
inside virtual machines that advertise instructions (AMX tiles) they do not let a process
run. Whoever ran llama.cpp in a child process words the child's end with this.
"""

from __future__ import annotations

import signal
import sys

from app.core.support.formatting import fill
from app.core.support.user_text import N_

PORTABLE_CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
LLAMA_CPP_PYTHON = "llama-cpp-python==0.3.36"


def rebuild_command() -> str:
    """The pip command that rebuilds llama.cpp for any x86-64 CPU with AVX2 (what the set-up does)."""
    return (
        f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" pip install --force-reinstall --no-binary llama-cpp-python '
        f'--no-cache-dir "{LLAMA_CPP_PYTHON}"'
    )


def describe_crash(signal_number: int, doing: str) -> str:
    """One line: what ended llama.cpp while it was `doing` something, and what to do about it."""
    if signal_number == signal.SIGILL:
        if getattr(sys, N_("frozen"), False):
            return fill(
                N_(
                    "llama.cpp stopped with 'Illegal instruction' while {doing}: this Glassbox build "
                    "uses CPU instructions this machine cannot run (it needs a CPU with AVX2)."
                ),
                doing=doing,
            )
        return fill(
            N_(
                "llama.cpp stopped with 'Illegal instruction' while {doing}: this llama.cpp build "
                "uses CPU instructions this machine cannot run. Rebuild it for this CPU: "
                "{rebuild_command}"
            ),
            doing=doing,
            rebuild_command=rebuild_command(),
        )
    if signal_number == signal.SIGKILL:
        return fill(
            N_(
                "llama.cpp was killed (SIGKILL) while {doing}, most often by the system when "
                "memory runs out. Close other programs, or pick a smaller model or a shorter "
                "context."
            ),
            doing=doing,
        )
    try:
        name = signal.Signals(signal_number).name
    except ValueError:
        name = fill(N_("signal {signal_number}"), signal_number=signal_number)
    return fill(
        N_("llama.cpp crashed ({name}) while {doing}. Its last log lines are in the Glassbox log."),
        name=name,
        doing=doing,
    )


def describe_exit(process: str, exit_code: int | None, doing: str, last_lines: tuple[str, ...]) -> str:
    """One line for a child process running llama.cpp that ended while `doing` something: how it
    ended (`exit_code` negative: by that signal), then the last lines it printed, when there are any."""
    if exit_code is not None and exit_code < 0:
        message = describe_crash(-exit_code, doing)
    else:
        message = fill(
            N_("The {process} process ended unexpectedly (exit code {exit_code}) while {doing}."),
            process=process,
            exit_code=exit_code,
            doing=doing,
        )
    if last_lines:
        lines = " | ".join(last_lines)
        message = fill(N_("{message} Last lines from llama.cpp: {lines}"), message=message, lines=lines)
    return message
