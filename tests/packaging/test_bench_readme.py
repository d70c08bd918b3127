"""The README's performance table is the committed bench run, written by packaging/bench_readme.py, not retyped."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

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


def test_a_row_that_measured_nothing_says_why_and_is_neither_met_nor_missed() -> None:
    pipeline = _pipeline()
    row = {"section": "monitor", "metric": "NVML's share", "value": None, "unit": "ms", "target": "< 1",
           "passed": None, "note": "no NVIDIA GPU answered"}  # fmt: skip
    line = pipeline.table({"when": "now", "machine": {"platform": "x", "python": "3.11"}, "rows": [row]}).splitlines()[
        -1
    ]
    assert line == "| monitor | NVML's share | not measured: no NVIDIA GPU answered | < 1 |  |"
