"""`python -m app bench` runs each section in a process of its own and gathers what each measured;
`--section` runs exactly the sections named, `--list` names them."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest

from app.bench import NOISE, SECTIONS, BenchContext
from app.bench.hashing import RATIO
from app.bench.runner import run_sections
from app.main import main
from tests.fakes.fake_hub import make_gguf


def test_a_section_s_rows_and_details_come_back_from_its_own_process(tmp_path: Path) -> None:
    context = BenchContext(model_path=make_gguf(tmp_path / "m.gguf"), quick=True)
    rows = run_sections(context, only=["hashing"])
    assert {r.section for r in rows} == {"hashing"}
    ratio = next(r for r in rows if r.metric == RATIO)
    assert ratio.value > 0 and ratio.verdict is not None
    assert len(context.details["hashing"]["plain_seconds"]) == len(ratio.rounds)
    # The tiny test file is no model llama.cpp loads: the section ran without calibration, and says why.
    (noise,) = context.details[NOISE].values()
    assert noise["decode_rates"] == [] and noise["note"].startswith("no calibration:") and not noise["too_noisy"]
    assert multiprocessing.active_children() == []  # the section's process has ended


def test_a_section_that_fails_is_named_with_its_traceback(tmp_path: Path) -> None:
    context = BenchContext(model_path=tmp_path / "missing.gguf", quick=True)
    with pytest.raises(RuntimeError, match=r"(?s)the bench section hashing failed:.*FileNotFoundError"):
        run_sections(context, only=["hashing"])
    assert multiprocessing.active_children() == []


def test_list_names_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--list"]) == 0
    assert capsys.readouterr().out.split() == SECTIONS


def test_section_runs_exactly_the_section_named_with_the_rounds_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, results = make_gguf(tmp_path / "m.gguf"), tmp_path / "bench.json"
    arguments = ["--section", "hashing", "--rounds", "4", "--extra-seconds", "0", "--json", str(results)]
    status = main(["bench", "--model", str(model), *arguments])
    saved = json.loads(results.read_text())
    assert {r["section"] for r in saved["rows"]} == {"hashing"}
    assert list(saved["details"][NOISE]) == ["hashing"]
    (ratio,) = [r for r in saved["rows"] if r["metric"] == RATIO]
    assert len(ratio["rounds"]) == 4  # no extra rounds: --extra-seconds 0
    assert status == (3 if ratio["verdict"] == "missed" else 0)
    assert "| hashing |" in capsys.readouterr().out


def test_an_unknown_section_is_refused_with_the_names_of_the_real_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--section", "hashing,nonsense"]) == 1
    error = capsys.readouterr().err
    assert "no bench section nonsense" in error and "hashing" in error and "streaming" in error


@pytest.mark.parametrize("rounds", ["0", "many"])
def test_rounds_must_be_a_whole_number_of_at_least_one(rounds: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--rounds", rounds])
    assert exit_.value.code == 2 and "at least 1" in capsys.readouterr().err
