"""The README's performance table is the committed bench run, written by packaging/bench_readme.py, not retyped."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

from app.bench import BenchContext, exact, judged, write_json
from app.bench.intervals import Drift

ROOT = Path(__file__).resolve().parents[2]


def _pipeline() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_readme", ROOT / "packaging" / "bench_readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_shows_the_committed_run_row_for_row() -> None:
    pipeline = _pipeline()
    results = json.loads(pipeline.RESULTS.read_text(encoding="utf-8"))
    readme = pipeline.README.read_text(encoding="utf-8")
    shown = readme.split(pipeline.START, 1)[1].split(pipeline.END, 1)[0].strip()
    assert shown == pipeline.table(results)
    assert len(results["rows"]) > 50


RUN = {"when": "now", "machine": {"platform": "x", "python": "3.11"}, "details": {}}


def _row(**fields: object) -> dict[str, object]:
    return {"section": "remote", "metric": "speed", "value": 0.96, "unit": "ratio", "target": ">= 0.97",
            "verdict": None, "note": "", "rounds": [], "interval": None, **fields}  # fmt: skip


def _line(row: dict[str, object]) -> str:
    lines = _pipeline().table({**RUN, "rows": [row]}).splitlines()
    return next(line for line in lines if line.startswith(f"| {row['section']} |"))


def test_a_row_that_measured_nothing_says_why_and_is_neither_met_nor_missed() -> None:
    row = _row(section="monitor", metric="NVML's share", value=None, unit="ms", target="< 1",
               note="no NVIDIA GPU answered")  # fmt: skip
    assert _line(row) == "| monitor | NVML's share | not measured: no NVIDIA GPU answered |  |  | < 1 |  |"


def test_a_judged_row_shows_its_median_the_interval_its_rounds_and_the_verdict() -> None:
    row = _row(verdict="within noise", rounds=[0.95, 0.96, 0.99], interval={"low": 0.95, "high": 0.99})
    assert _line(row) == "| remote | speed | 0.960 ratio | 0.950 – 0.990 | 3 | >= 0.97 | within noise |"
    missed = _row(verdict="missed", rounds=[0.9, 0.9, 0.9], interval={"low": 0.9, "high": 0.9}, value=0.9)
    assert _line(missed).endswith("| **missed** |")


def test_a_deterministic_row_is_exact_and_a_row_with_no_verdict_says_why() -> None:
    exact = _row(section="memory_plan", value=0.003, unit="%", target="<= 5", verdict="met")
    assert _line(exact) == "| memory_plan | speed | 0.003 % | exact |  | <= 5 | met |"
    older = _row(note="no interval: run before intervals were recorded")
    assert _line(older).endswith("| >= 0.97 | no interval: run before intervals were recorded |")


def test_the_machine_s_speed_is_shown_per_section_below_the_rows() -> None:
    noise = {"streaming": {"min": 113.0, "median": 130.0, "max": 143.0, "drift": 1.265, "too_noisy": True,
                           "decode_rates": [113.0, 130.0, 143.0], "extra_rounds": 2, "seconds": 312.4},
             "hashing": {"note": "no calibration: no model", "decode_rates": [], "too_noisy": False,
                         "extra_rounds": 0, "seconds": 2.0}}  # fmt: skip
    lines = _pipeline().table({**RUN, "rows": [], "details": {"noise": noise}}).splitlines()
    assert "| streaming | 113.0 | 130.0 | 143.0 | 1.265 (too noisy to judge) | 2 | 312 |" in lines
    assert "| hashing | no calibration: no model | |  |  | 0 | 2 |" in lines
    assert "| whole run | 113.0 | 130.0 | 143.0 | 1.265 | 2 | 314 |" in lines
    assert "No calibration probes were recorded" in _pipeline().table({**RUN, "rows": []})


def test_what_the_bench_writes_is_what_the_table_reads(tmp_path: Path) -> None:
    context = BenchContext(model_path=tmp_path / "m.gguf")
    context.details["noise"] = {"hashing": {**Drift((100.0, 102.0)).summary(), "decode_rates": [100.0, 102.0],
                                            "too_noisy": False, "extra_rounds": 0, "seconds": 3.0}}  # fmt: skip
    rows = [judged("hashing", "ratio", [1.0, 1.02, 0.99], "x", ">= 0.9"), exact("memory_plan", "KV", 0.0, "%", "<= 5")]
    write_json(tmp_path / "results.json", rows, context)
    text = _pipeline().table(json.loads((tmp_path / "results.json").read_text()))
    assert "| hashing | ratio | 1.000 x | 0.990 – 1.020 | 3 | >= 0.9 | met |" in text.splitlines()
    assert "| memory_plan | KV | 0.000 % | exact |  | <= 5 | met |" in text.splitlines()
    assert "| hashing | 100.0 | 101.0 | 102.0 | 1.020 | 0 | 3 |" in text.splitlines()
