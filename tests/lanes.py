"""The suite in lanes, as CI runs it: `python -m tests.lanes` (the README's test command).

One serial run spent its minutes on a few heavy things in a row. The lanes split them:

- unit: every test that loads no model, on every core at once (pytest-xdist);
- model: the tests that load the real starter model, the main-window tests among them (marker
  `requires_model`), on a worker a core and one more. llama.cpp decodes with a team of OpenMP threads, one a core, that
  spin at a barrier for every graph node, so two processes decoding at once with a team each wait on
  each other's threads (see app/bench/streaming.py: in_own_thread; a trial of two such workers on a
  loaded machine had a prompt evaluation run past the 300 s timeout). Every lane therefore runs with
  OMP_THREAD_LIMIT=1 (LANE_ENVIRONMENT): a decode is one thread, and the cores go to more processes
  instead, which also keeps the model lane from starving the lanes beside it. (Every lane also caches
  bytecode, whatever the environment says: LANE_ENVIRONMENT_UNSET);
- bundle: the PyInstaller bundle built and run as a user would (marker `slow`);
- static: ruff, the formatter, mypy and the import contracts, once (tests/test_static_checks.py,
  tests/test_architecture.py).

All four run side by side as one step (`steps`): the model lane computes nearly all the time, while the
unit lane waits on timeouts, children and sockets for a third of its time and the bundle on the disk.
Each lane prints pytest's own output and closing line (the first, longest lane of a step as
it runs, the others when they end); the closing table says how many minutes of wall time and of CPU
time the steps .ci/run timed before the lanes (installing: GLASSBOX_CI_STEPS), each step of lanes and
each lane took, and what the lanes found together. CPU time is what the work cost whatever else ran on
the machine, except the engine processes the suite forks from a forkserver (tests/conftest.py): the
forkserver reaps them and is never waited for, so their CPU time is not counted; wall time depends on
all of it. The exit status is non-zero when any lane fails.

`python -m tests.lanes unit model` runs only the lanes named.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from tests.repo import REPO_ROOT

STATIC_TESTS = ("tests/test_static_checks.py", "tests/test_architecture.py")
# pytest's closing line: "==== 3 failed, 1200 passed, 2 skipped in 171.20s (0:02:51) ===="
CLOSING_LINE = re.compile(r"^=+ (?P<counts>.+) in [\d.]+s\b.* =+$")
COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b")
CI_STEPS = "GLASSBOX_CI_STEPS"  # the file where .ci/run writes the minutes of its steps before the lanes
# What every lane's processes run with: one OpenMP thread for each decode (see the model lane above).
LANE_ENVIRONMENT = {"OMP_THREAD_LIMIT": "1"}
# What they run without: the suite starts hundreds of Python processes (pytest's workers, engines, the
# command line, servers), and where the environment forbids bytecode caches (this CI image sets
# PYTHONDONTWRITEBYTECODE) each compiles every module it imports, and pytest rewrites every test module,
# again: a worker's collection alone took 13 s instead of 5.
LANE_ENVIRONMENT_UNSET = ("PYTHONDONTWRITEBYTECODE",)
NO_TESTS_RAN = 5  # pytest's exit status when a lane selected nothing: a lane that tests nothing is a fault


def lane_environment() -> dict[str, str]:
    """This process's environment as every lane's processes get it."""
    inherited = {name: value for name, value in os.environ.items() if name not in LANE_ENVIRONMENT_UNSET}
    return {**inherited, **LANE_ENVIRONMENT}


@dataclass(frozen=True)
class Lane:
    """One pytest run: which files, which marks, on how many processes."""

    name: str
    markers: str | None = None  # pytest's -m expression; none: every test of its files
    paths: tuple[str, ...] = ()  # the test files it runs; none: the whole suite
    ignored: tuple[str, ...] = ()  # files it leaves to another lane
    workers: int = 1  # more than one: that many pytest-xdist processes

    def pytest_args(self) -> list[str]:
        args = [*self.paths, *(f"--ignore={path}" for path in self.ignored)]
        if self.markers is not None:
            args += ["-m", self.markers]
        if self.workers > 1:
            args += ["-n", str(self.workers)]
        return args


def steps(workers: int) -> list[list[Lane]]:
    """The lanes in the order they run; the lanes of one step run side by side. One step: the unit lane
    waits more than it computes (a third of its time, its processes wait on timeouts, children and
    sockets), and the bundle's build waits on the disk, so beside the model lane they fill the cores it
    leaves idle instead of taking minutes of their own."""
    return [
        [
            # A worker a core, and one more: a worker whose engine (a process of its own) decodes waits meanwhile.
            Lane("model", "requires_model and not slow", ignored=STATIC_TESTS, workers=workers + 1),
            Lane("unit", "not requires_model and not slow", ignored=STATIC_TESTS, workers=workers),
            Lane("bundle", "slow", ignored=STATIC_TESTS),
            Lane("static", paths=STATIC_TESTS),
        ],
    ]


@dataclass
class LaneRun:
    """One lane's pytest process: its output, its exit status and its wall time."""

    lane: Lane
    lines: list[str] = field(default_factory=list)
    returncode: int | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None  # of the lane's processes together; None where the system does not say

    def run(self, echo: bool) -> None:
        """Run the lane to its end, copying its output to ours as it comes when `echo`."""
        started = time.monotonic()
        command = [sys.executable, "-m", "pytest", *self.lane.pytest_args()]
        with subprocess.Popen(
            command,
            cwd=REPO_ROOT,
            env=lane_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                self.lines.append(line)
                if echo:
                    sys.stdout.write(line)
                    sys.stdout.flush()
            if hasattr(os, "wait4"):  # not on Windows
                _, status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(status)
                self.cpu_seconds = usage.ru_utime + usage.ru_stime
        self.returncode = process.returncode
        self.seconds = time.monotonic() - started

    def text(self) -> str:
        return "".join(self.lines)

    @property
    def passed(self) -> bool:
        return self.returncode == 0

    def closing_line(self) -> str:
        """pytest's closing line without its rules, or what stands in for it when the lane never got there."""
        for line in reversed(self.lines):
            if match := CLOSING_LINE.match(line.strip()):
                return match["counts"]
        if self.returncode == NO_TESTS_RAN:
            return "no tests ran"
        return f"ended with exit status {self.returncode} before pytest's closing line"

    def counts(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for number, outcome in COUNT.findall(self.closing_line()):
            found["error" if outcome.startswith("error") else outcome] += int(number)
        return found


@dataclass(frozen=True)
class Minutes:
    """One row of the closing table: what ran, its wall time and its CPU time (None: not known)."""

    label: str
    seconds: float | None
    cpu_seconds: float | None

    def cells(self, width: int) -> str:
        return f"{self.label:<{width}}  {_minutes(self.seconds):>5} min  cpu {_minutes(self.cpu_seconds):>5} min"


def _minutes(seconds: float | None) -> str:
    return "?" if seconds is None else f"{seconds / 60:.1f}"


@dataclass(frozen=True)
class StepRun:
    """The lanes of one step, run side by side, and the step's wall time."""

    runs: list[LaneRun]
    seconds: float

    def minutes(self) -> Minutes:
        names = " | ".join(run.lane.name for run in self.runs)
        return Minutes(f"step {names}", self.seconds, _sum([run.cpu_seconds for run in self.runs]))

    def lane_minutes(self) -> list[Minutes]:
        return [Minutes(f"  {run.lane.name}", run.seconds, run.cpu_seconds) for run in self.runs]


def run_step(lanes: Sequence[Lane]) -> list[LaneRun]:
    """Run the lanes side by side: the first one's output as it comes, each other's whole when it has ended."""
    runs = [LaneRun(lane) for lane in lanes]
    threads = [
        threading.Thread(target=run.run, args=(index == 0,), name=run.lane.name) for index, run in enumerate(runs)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for run in runs[1:]:
        sys.stdout.write(f"\n---- lane {run.lane.name} (ran beside lane {runs[0].lane.name}) ----\n{run.text()}")
    sys.stdout.flush()
    return runs


def summary(before: Sequence[Minutes], steps_run: Sequence[StepRun], wall_seconds: float) -> str:
    """The minutes of each step before the lanes (.ci/run's install), of each step of lanes and of each of its
    lanes with its closing line, then the counts of every lane together and the minutes of the whole run."""
    rows = [*before, *(row for step in steps_run for row in (step.minutes(), *step.lane_minutes()))]
    width = max((len(row.label) for row in rows), default=0)
    lines = ["", "---- minutes of wall time and of CPU time (the lanes of one step ran side by side) ----"]
    lines += [row.cells(width) for row in before]
    for step in steps_run:
        lines.append(step.minutes().cells(width))
        for run, row in zip(step.runs, step.lane_minutes(), strict=True):
            verdict = "ok" if run.passed else "FAILED"
            lines.append(f"{row.cells(width)}  {verdict:<6}  {run.closing_line()}")
    total: Counter[str] = Counter()
    for step in steps_run:
        for run in step.runs:
            total.update(run.counts())
    found = ", ".join(
        f"{total[outcome]} {outcome}" for outcome in ("passed", "failed", "error", "skipped") if total[outcome]
    )
    lines.append(f"lanes: {found or 'no tests'} in {wall_seconds / 60:.1f} min")
    if before:
        wall = _sum([row.seconds for row in before] + [wall_seconds])
        cpu = _sum([row.cpu_seconds for row in (*before, *(step.minutes() for step in steps_run))])
        lines.append(f"ci: {_minutes(wall)} min, cpu {_minutes(cpu)} min (the steps before the lanes and the lanes)")
    return "\n".join(lines) + "\n"


def steps_before_the_lanes() -> list[Minutes]:
    """The steps .ci/run timed before it started the lanes (installing), from the file GLASSBOX_CI_STEPS names:
    a line per step, `label<TAB>wall seconds<TAB>CPU seconds`. None outside .ci/run."""
    path = os.environ.get(CI_STEPS)
    if not path or not os.path.isfile(path):
        return []
    rows = []
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            label, _, times = line.rstrip("\n").partition("\t")
            wall, _, cpu = times.partition("\t")
            rows.append(Minutes(label, _seconds(wall), _seconds(cpu)))
    return rows


def _seconds(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _sum(seconds: Sequence[float | None]) -> float | None:
    """The sum, or None when any part is not known."""
    known = [part for part in seconds if part is not None]
    return sum(known) if len(known) == len(seconds) else None


def main(argv: Sequence[str]) -> int:
    if importlib.util.find_spec("xdist") is None:
        print("the unit lane needs pytest-xdist: pip install -e '.[test]'", file=sys.stderr)
        return 2
    plan = steps(workers=max(2, os.cpu_count() or 1))
    known = [lane.name for step in plan for lane in step]
    if unknown := [name for name in argv if name not in known]:
        print(f"no lane named {', '.join(unknown)}; the lanes are {', '.join(known)}", file=sys.stderr)
        return 2
    chosen = [[lane for lane in step if not argv or lane.name in argv] for step in plan]
    started = time.monotonic()
    steps_run: list[StepRun] = []
    for step in chosen:
        if step:
            names = " and ".join(lane.name for lane in step)
            print(f"\n---- lane {names}: pytest {' | '.join(_args(lane) for lane in step)}")
            sys.stdout.flush()
            step_started = time.monotonic()
            runs = run_step(step)
            steps_run.append(StepRun(runs, time.monotonic() - step_started))
    sys.stdout.write(summary(steps_before_the_lanes(), steps_run, time.monotonic() - started))
    return 0 if all(run.passed for step in steps_run for run in step.runs) else 1


def _args(lane: Lane) -> str:
    return " ".join(arg if " " not in arg else repr(arg) for arg in lane.pytest_args())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
