"""The suite in lanes (tests/lanes.py, the README's test command): every test runs in exactly one lane, and a
failing lane fails the run with every lane's closing line and minutes in the log."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from tests import lanes
from tests.lanes import Lane, LaneRun
from tests.repo import REPO_ROOT

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


def test_the_unit_lane_runs_a_worker_a_core_the_model_lane_one_more_and_the_others_one_process() -> None:
    workers = {lane.name: lane.workers for step in lanes.steps(workers=3) for lane in step}
    assert workers == {"unit": 3, "model": 4, "bundle": 1, "static": 1}
    unit = next(lane for step in lanes.steps(workers=3) for lane in step if lane.name == "unit")
    assert unit.pytest_args()[-2:] == ["-n", "3"]


def test_every_lane_decodes_on_one_openmp_thread_and_caches_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes decoding at once, each with a team of a thread a core, spin at each other's barriers;
    hundreds of processes that may not cache bytecode compile the app hundreds of times."""
    (tmp_path / "test_env.py").write_text(
        "import os\nimport sys\n\n\ndef test_env():\n"
        "    assert os.environ['OMP_THREAD_LIMIT'] == '1'\n"
        "    assert 'PYTHONDONTWRITEBYTECODE' not in os.environ and not sys.dont_write_bytecode\n"
    )
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    run = LaneRun(Lane("env", paths=(str(tmp_path / "test_env.py"),)))

    run.run(echo=False)

    assert run.passed, run.text()


def test_a_failing_lane_fails_the_run_and_the_log_gives_each_step_and_lanes_closing_line_and_minutes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_good.py").write_text("def test_good():\n    pass\n\n\ndef test_also_good():\n    pass\n")
    (tmp_path / "test_bad.py").write_text("def test_bad():\n    assert 1 == 2\n")
    good = Lane("good", paths=(str(tmp_path / "test_good.py"),))
    bad = Lane("bad", paths=(str(tmp_path / "test_bad.py"),))
    monkeypatch.setattr(lanes, "steps", lambda workers: [[good, bad]])
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # two bare pytest runs start in a blink
    monkeypatch.delenv(lanes.CI_STEPS, raising=False)

    assert lanes.main([]) == 1

    log = capsys.readouterr().out
    assert re.search(r"^=+ 2 passed in [\d.]+s =+$", log, re.M)  # each lane's own closing line
    assert re.search(r"^=+ 1 failed in [\d.]+s =+$", log, re.M)
    table = log[log.index("---- minutes") :].splitlines()[1:]
    assert re.fullmatch(r"step good \| bad +\d+\.\d min  cpu +\d+\.\d min", table[0])
    assert re.fullmatch(r"  good +\d+\.\d min  cpu +\d+\.\d min  ok +2 passed", table[1])
    assert re.fullmatch(r"  bad +\d+\.\d min  cpu +\d+\.\d min  FAILED  1 failed", table[2])
    assert re.fullmatch(r"lanes: 2 passed, 1 failed in \d+\.\d min", table[3])
    assert len(table) == 4  # outside .ci/run: no steps before the lanes, no line for the whole run


def test_the_table_starts_with_the_steps_ci_timed_before_the_lanes_and_ends_with_the_whole_runs_minutes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps_file = tmp_path / "steps.tsv"
    steps_file.write_text('apt-get update\t12.0\t3.0\n.venv/bin/pip install -e ".[test]"\t90.0\t60.0\n')
    monkeypatch.setenv(lanes.CI_STEPS, str(steps_file))
    unit = lanes.LaneRun(Lane("unit"), ["=== 5 passed in 1.00s ===\n"], returncode=0, seconds=120.0, cpu_seconds=222.0)
    table = lanes.summary(lanes.steps_before_the_lanes(), [lanes.StepRun([unit], 126.0)], 126.0).splitlines()[2:]

    assert re.fullmatch(r"apt-get update +0\.2 min  cpu +0\.1 min", table[0])
    assert re.fullmatch(r'\.venv/bin/pip install -e "\.\[test\]" +1\.5 min  cpu +1\.0 min', table[1])
    assert re.fullmatch(r"step unit +2\.1 min  cpu +3\.7 min", table[2])
    assert re.fullmatch(r"  unit +2\.0 min  cpu +3\.7 min  ok +5 passed", table[3])
    assert table[4:] == [
        "lanes: 5 passed in 2.1 min",
        "ci: 3.8 min, cpu 4.8 min (the steps before the lanes and the lanes)",
    ]


def test_a_step_whose_minutes_ci_could_not_read_shows_a_question_mark_and_the_whole_cpu_is_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps_file = tmp_path / "steps.tsv"
    steps_file.write_text("apt-get update\t12.0\tnot a number\n")
    monkeypatch.setenv(lanes.CI_STEPS, str(steps_file))
    unit = lanes.LaneRun(Lane("unit"), [], returncode=0, seconds=60.0, cpu_seconds=60.0)

    table = lanes.summary(lanes.steps_before_the_lanes(), [lanes.StepRun([unit], 60.0)], 60.0).splitlines()[2:]

    assert re.fullmatch(r"apt-get update +0\.2 min  cpu +\? min", table[0])
    assert table[-1] == "ci: 1.2 min, cpu ? min (the steps before the lanes and the lanes)"


def test_a_lane_that_is_not_there_is_refused_with_the_names_of_those_that_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert lanes.main(["units"]) == 2
    assert capsys.readouterr().err == "no lane named units; the lanes are model, unit, bundle, static\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason=".ci/run runs on Debian")
def test_ci_times_each_part_of_the_readme_test_command_before_the_lanes_for_their_table(tmp_path: Path) -> None:
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPO_ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        "<!-- test-command -->\n```sh\n"
        "true && sleep 0.1 && sh -c 'cat \"$GLASSBOX_CI_STEPS\"' tests.lanes\n"
        "```\n<!-- /test-command -->\n"
    )
    tools = tmp_path / "bin"  # what the script needs, and no apt-get: it installs nothing here
    tools.mkdir()
    for tool in ("awk", "cat", "dirname", "grep", "mktemp", "rm", "sed", "sh", "sleep"):
        (tools / tool).symlink_to(shutil.which(tool) or tool)
    no_apt = {**os.environ, "PATH": str(tools)}
    result = subprocess.run(
        [shutil.which("bash") or "bash", str(tmp_path / ".ci" / "run")],
        env=no_apt,
        capture_output=True,
        text=True,
        timeout=30,
    )

    assert result.returncode == 0, result.stderr
    steps = [line.split("\t") for line in result.stdout.splitlines()[1:]]
    assert [label for label, _wall, _cpu in steps] == ["true", "sleep 0.1"]
    assert float(steps[1][1]) >= 0.1 and all(float(cpu) >= 0 for _label, _wall, cpu in steps)
