"""Bench section `tools`: a tool call's overhead is measured against a real MCP server, per call."""

from __future__ import annotations

from pathlib import Path

from app.bench import BenchContext
from app.bench.tools import METRIC, SECTION, run


def test_the_overhead_of_each_call_is_judged_and_the_round_trip_is_part_of_it(tmp_path: Path) -> None:
    context = BenchContext(model_path=tmp_path / "unused.gguf", quick=True, base_rounds=3)

    rows = {row.metric: row for row in run(context)}

    overhead = rows[METRIC]
    assert overhead.verdict is not None and len(overhead.rounds) >= 3
    trips = context.details[SECTION]["round_trip_ms"]
    assert all(total >= trip for total, trip in zip(overhead.rounds, trips, strict=True))
    assert rows["of which the MCP round trip (median)"].value > 0
