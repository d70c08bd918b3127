"""The `hashing` bench section: it compares the same digest both ways and reports a ratio."""

from __future__ import annotations

from pathlib import Path

from app.bench import BenchContext
from app.bench.hashing import RATIO, run
from tests.fakes.fake_hub import make_gguf


def test_hashing_bench_reports_the_verifier_to_hashlib_ratio(tmp_path: Path) -> None:
    context = BenchContext(model_path=make_gguf(tmp_path / "m.gguf"), quick=True)
    rows = {r.metric: r for r in run(context)}
    ratio = rows[RATIO]
    assert ratio.value > 0 and ratio.target == ">= 0.9" and ratio.verdict is not None
    assert ratio.interval is not None and len(ratio.rounds) >= 3  # quick: 3 rounds, more while within noise
    assert rows["verifier throughput"].unit == "MB/s"
    assert len(context.details["hashing"]["plain_seconds"]) == len(ratio.rounds)
