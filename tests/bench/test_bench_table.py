"""The bench table: a row that was not measured says so and why, and is never a pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.bench import BenchContext, format_table, not_measured, row, write_json
from app.bench import remote as remote_section
from app.bench import server as server_section
from app.bench.streaming import workload


def test_a_row_not_measured_shows_why_and_neither_passes_nor_fails() -> None:
    missing = not_measured("remote", "speed ratio", "openai is not installed", "ratio", ">= 0.97")
    assert not missing.measured and missing.passed is None
    table = format_table([missing, row("remote", "other", 1.0, "ratio", ">= 0.97")])
    assert "not measured: openai is not installed" in table
    line = next(line for line in table.splitlines() if "speed ratio" in line)
    assert "yes" not in line and "NO" not in line and "0.000" not in line


def test_the_json_file_holds_null_for_a_value_not_measured(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    write_json(path, [not_measured("remote", "speed ratio", "no server")], BenchContext(model_path=tmp_path))
    (saved,) = json.loads(path.read_text())["rows"]  # strict JSON: no NaN
    assert saved["value"] is None and saved["note"] == "no server" and saved["passed"] is None


def test_the_remote_section_without_its_server_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(remote_section, "server_missing", lambda: "llama_cpp.server is not installed")
    rows = remote_section.run(BenchContext(model_path=Path("unused.gguf"), quick=True))
    assert [r.target for r in rows] == [">= 0.97", "<= 5"]
    assert all(not r.measured and "llama_cpp.server" in r.note for r in rows)


@pytest.mark.requires_model
def test_the_remote_section_compares_glassbox_with_the_openai_client_on_one_server(starter_model: Path) -> None:
    context = BenchContext(model_path=starter_model, quick=True)
    rows = {r.metric: r for r in remote_section.run(context)}
    assert rows[remote_section.SPEED].value > 0 and rows[remote_section.SPEED].passed is not None
    assert rows[remote_section.EXTRA_TTFT].unit == "ms"
    assert len(context.details["remote"]["rounds"]["openai"]) == 2


def test_the_server_section_without_the_openai_client_is_not_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'openai'")

    monkeypatch.setattr(server_section, "_openai", missing)
    rows = server_section.run(BenchContext(model_path=Path("unused.gguf"), quick=True))
    assert [r.target for r in rows] == [">= 0.95", "<= 5"]
    assert all(not r.measured and "openai" in r.note for r in rows)


@pytest.mark.requires_model
def test_the_server_section_compares_http_with_the_in_process_engine(starter_model: Path) -> None:
    context = BenchContext(model_path=starter_model, quick=True)
    rows = {r.metric: r for r in server_section.run(context)}
    assert rows[server_section.SPEED].value > 0 and rows[server_section.SPEED].passed is not None
    assert rows[server_section.EXTRA_TTFT].unit == "ms" and rows[server_section.EXTRA_TTFT].passed is not None
    details = context.details["server"]
    rounds, _messages, _params = workload(context)
    assert all(len(details["rounds"][path]) == rounds for path in server_section.PATHS)
    assert all(len(details["first_token_s"][path]) == 10 for path in server_section.PATHS)
    assert details["throughput"]["1"] > 0 and details["throughput"]["4"] > 0
