"""The bench table: a row that was not measured says so and why, and is never a pass."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.bench import BenchContext, exact, format_noise, format_table, judged, not_measured, server_slots, write_json
from app.bench import remote as remote_section
from app.bench import server as server_section
from app.bench.intervals import Drift
from app.bench.streaming import workload
from tests.bench.quick import quick_context


def test_a_row_not_measured_shows_why_and_neither_passes_nor_fails() -> None:
    missing = not_measured("remote", "speed ratio", "openai is not installed", "ratio", ">= 0.97")
    assert not missing.measured and missing.verdict is None
    table = format_table([missing, judged("remote", "other", [1.0, 1.1, 1.2], "ratio", ">= 0.97")])
    assert "not measured: openai is not installed" in table
    line = next(line for line in table.splitlines() if "speed ratio" in line)
    assert "met" not in line and "missed" not in line and "0.000" not in line


def test_the_json_file_holds_null_for_a_value_not_measured(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    write_json(path, [not_measured("remote", "speed ratio", "no server")], BenchContext(model_path=tmp_path))
    (saved,) = json.loads(path.read_text())["rows"]  # strict JSON: no NaN
    assert saved["value"] is None and saved["note"] == "no server" and saved["verdict"] is None


def test_a_judged_row_shows_its_median_interval_rounds_and_verdict_words() -> None:
    rounds = [0.95, 0.99, 0.96, 0.98, 0.94]
    table = format_table(
        [judged("remote", "speed", rounds, "ratio", ">= 0.97"), exact("memory_plan", "KV error", 0.0, "%", "<= 5")]
    )
    speed = next(line for line in table.splitlines() if "speed" in line)
    interval = judged("remote", "speed", rounds, "ratio", ">= 0.97").interval
    assert interval is not None
    cells = [cell.strip() for cell in speed.strip("|").split("|")]
    assert cells == ["remote", "speed", "0.960", f"{interval.low:.3f} – {interval.high:.3f}", "5", "ratio", ">= 0.97",
                     "within noise"]  # fmt: skip
    kv = next(line for line in table.splitlines() if "KV error" in line)
    assert [cell.strip() for cell in kv.strip("|").split("|")] == ["memory_plan", "KV error", "0.000", "exact", "", "%",
                                                                   "<= 5", "met"]  # fmt: skip


def test_the_json_file_keeps_every_round_and_the_interval(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    write_json(
        path, [judged("remote", "speed", [1.0, 1.1, 1.2], "ratio", ">= 0.97")], BenchContext(model_path=tmp_path)
    )
    saved = json.loads(path.read_text())
    (speed,) = saved["rows"]
    assert speed["rounds"] == [1.0, 1.1, 1.2] and speed["value"] == 1.1 and speed["verdict"] == "met"
    assert 1.0 <= speed["interval"]["low"] <= speed["interval"]["high"] <= 1.2
    assert saved["statistics"]["resamples"] == 2000 and saved["statistics"]["min_rounds"] == 3


def test_the_noise_table_says_how_far_each_section_s_machine_moved_and_the_whole_run() -> None:
    noise = {
        "streaming": {**Drift((143.0, 113.0)).summary(), "decode_rates": [143.0, 113.0], "too_noisy": True,
                      "extra_rounds": 0, "seconds": 300.0},
        "hashing": {"note": "no calibration: llama.cpp could not load it", "decode_rates": [], "too_noisy": False,
                    "extra_rounds": 2, "seconds": 4.0},
        "threads": {**Drift((100.0, 104.0)).summary(), "decode_rates": [100.0, 104.0], "too_noisy": False,
                    "extra_rounds": 1, "seconds": 60.0},
    }  # fmt: skip
    streaming, hashing, _threads, whole = format_noise(noise).splitlines()[2:]
    assert "113.0" in streaming and "143.0" in streaming and "1.265 > 1.25: too noisy to judge" in streaming
    assert "no calibration: llama.cpp could not load it" in hashing and "| 2 " in hashing
    cells = [cell.strip() for cell in whole.strip("|").split("|")]
    assert cells == ["whole run", "100.0", "108.5", "143.0", "1.430", "3", "364"]


def test_the_remote_section_without_its_server_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_section, "server_missing", lambda: "llama_cpp.server is not installed")
    rows = remote_section.run(BenchContext(model_path=Path("unused.gguf"), quick=True))
    assert [r.target for r in rows] == [">= 0.97", "<= 5"]
    assert all(not r.measured and "llama_cpp.server" in r.note for r in rows)


@pytest.mark.requires_model
def test_the_remote_section_compares_glassbox_with_the_openai_client_on_one_server(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in remote_section.run(context)}
    speed = rows[remote_section.SPEED]
    assert speed.value > 0 and speed.verdict is not None and len(speed.rounds) >= 3
    assert rows[remote_section.EXTRA_TTFT].unit == "ms" and len(rows[remote_section.EXTRA_TTFT].rounds) >= 3
    assert len(context.details["remote"]["rounds"]["openai"]) == len(speed.rounds)


def test_the_server_section_without_the_openai_client_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'openai'")

    monkeypatch.setattr(server_section, "_openai", missing)
    rows = server_section.run(BenchContext(model_path=Path("unused.gguf"), quick=True))
    assert [r.target for r in rows] == [">= 0.95", "<= 5", ">= 1.3"]
    assert all(not r.measured and "openai" in r.note for r in rows)


@pytest.mark.requires_model
# The slots' context (4 × 2,560) is past the starter's training length as one sequence; each slot stays within it.
@pytest.mark.expected_log("llama.cpp", logging.WARNING, "n_ctx_train")
def test_the_server_section_compares_http_with_the_in_process_engine(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in server_section.run(context)}
    speed, extra = rows[server_section.SPEED], rows[server_section.EXTRA_TTFT]
    assert speed.value > 0 and speed.verdict is not None
    assert extra.unit == "ms" and extra.verdict is not None
    details = context.details["server"]
    rounds, _messages, _params = workload(context)
    assert all(len(details["rounds"][path]) == len(speed.rounds) >= rounds for path in server_section.PATHS)
    assert all(len(details["first_token_s"][path]) == len(extra.rounds) >= 10 for path in server_section.PATHS)
    assert details["throughput"]["1"] > 0 and details["throughput"]["4"] > 0
    aggregate = rows[server_slots.AGGREGATE]  # the same server with parallel slots, 4 clients ÷ 1
    assert aggregate.value > 0 and aggregate.verdict is not None
    [gap] = [r for r in rows.values() if r.metric.startswith("longest gap in a stream")]
    assert gap.measured and gap.value > 0, "the running stream outlasts even the shortest long prompt"
