"""The suite in lanes (tests/lanes.py, the README's test command): every test runs in exactly one lane, and a
failing lane fails the run with every lane's closing line and minutes in the log."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from tests import lanes
from tests.lanes import Lane

STATIC_FILE = lanes.STATIC_TESTS[0]
OTHER_FILE = "tests/core/chat/test_store.py"
MARKS = ("requires_model", "slow")


def runs_test(lane: Lane, path: str, marks: set[str]) -> bool:
    """Whether the lane runs a test of this file that carries these marks, as pytest selects."""
    if (lane.paths and path not in lane.paths) or path in lane.ignored:
        return False
    return lane.markers is None or Expression.compile(lane.markers).evaluate(lambda name, **_: name in marks)


@pytest.mark.parametrize("path", [STATIC_FILE, OTHER_FILE])
@pytest.mark.parametrize("marks", [set(chosen) for n in range(3) for chosen in itertools.combinations(MARKS, n)])
def test_every_test_runs_in_exactly_one_lane(path: str, marks: set[str]) -> None:
    every_lane = [lane for step in lanes.steps(workers=2) for lane in step]
    assert len([lane for lane in every_lane if runs_test(lane, path, marks)]) == 1


def test_the_unit_lane_runs_on_every_worker_and_the_others_in_one_process() -> None:
    workers = {lane.name: lane.workers for step in lanes.steps(workers=3) for lane in step}
    assert workers == {"unit": 3, "model": 1, "bundle": 1, "static": 1}
    unit = next(lane for step in lanes.steps(workers=3) for lane in step if lane.name == "unit")
    assert unit.pytest_args()[-2:] == ["-n", "3"]


def test_a_failing_lane_fails_the_run_and_the_log_gives_each_lanes_closing_line_and_minutes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_good.py").write_text("def test_good():\n    pass\n\n\ndef test_also_good():\n    pass\n")
    (tmp_path / "test_bad.py").write_text("def test_bad():\n    assert 1 == 2\n")
    good = Lane("good", paths=(str(tmp_path / "test_good.py"),))
    bad = Lane("bad", paths=(str(tmp_path / "test_bad.py"),))
    monkeypatch.setattr(lanes, "steps", lambda workers: [[good, bad]])
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # two bare pytest runs start in a blink

    assert lanes.main([]) == 1

    log = capsys.readouterr().out
    assert re.search(r"^=+ 2 passed in [\d.]+s =+$", log, re.M)  # each lane's own closing line
    assert re.search(r"^=+ 1 failed in [\d.]+s =+$", log, re.M)
    table = log[log.index("---- lanes") :].splitlines()[1:]
    assert re.fullmatch(r"good +\d+\.\d min  cpu +\d+\.\d min  ok +2 passed", table[0])
    assert re.fullmatch(r"bad +\d+\.\d min  cpu +\d+\.\d min  FAILED  1 failed", table[1])
    assert re.fullmatch(r"lanes: 2 passed, 1 failed in \d+\.\d min", table[2])


def test_a_lane_that_is_not_there_is_refused_with_the_names_of_those_that_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert lanes.main(["units"]) == 2
    assert capsys.readouterr().err == "no lane named units; the lanes are unit, model, bundle, static\n"
