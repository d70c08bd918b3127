"""`python -m app bench` runs each section in a process of its own and gathers what each measured."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from app.bench import BenchContext, run_sections
from tests.fakes.fake_hub import make_gguf


def test_a_section_s_rows_and_details_come_back_from_its_own_process(tmp_path: Path) -> None:
    context = BenchContext(model_path=make_gguf(tmp_path / "m.gguf"), quick=True)
    rows = run_sections(context, only=["hashing"])
    assert {r.section for r in rows} == {"hashing"}
    ratio = next(r for r in rows if r.metric == "verifier / hashlib.sha256 throughput")
    assert ratio.value > 0 and ratio.passed is not None
    assert len(context.details["hashing"]["plain_seconds"]) == 2
    assert multiprocessing.active_children() == []  # the section's process has ended


def test_a_section_that_fails_is_named_with_its_traceback(tmp_path: Path) -> None:
    context = BenchContext(model_path=tmp_path / "missing.gguf", quick=True)
    with pytest.raises(RuntimeError, match=r"(?s)the bench section hashing failed:.*FileNotFoundError"):
        run_sections(context, only=["hashing"])
    assert multiprocessing.active_children() == []
