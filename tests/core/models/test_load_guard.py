"""The load marker: written before a load, cleared after; what is left of it names the load that never finished."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.core.models.load_guard import begin_load, end_load, marker_path, unfinished_load


def test_a_load_that_began_and_never_ended_is_named(tmp_path: Path) -> None:
    model = tmp_path / "model.gguf"
    assert unfinished_load() is None
    begin_load(model)
    assert unfinished_load() == model


def test_a_load_that_ended_leaves_nothing() -> None:
    begin_load(Path("/models/a.gguf"))
    end_load()
    assert unfinished_load() is None
    assert not marker_path().exists()
    end_load()  # ending twice is harmless


def test_the_marker_is_written_whole_and_names_the_latest_load() -> None:
    begin_load(Path("/models/a.gguf"))
    begin_load(Path("/models/b.gguf"))
    assert unfinished_load() == Path("/models/b.gguf")
    assert [p.name for p in marker_path().parent.iterdir()] == [marker_path().name]  # no temporary file left


@pytest.mark.expected_log("app.core.models.load_guard", logging.WARNING, "Ignoring an unreadable load marker")
@pytest.mark.parametrize("content", ["{not json", '["a list"]', '{"model": 3}', '{"model": ""}'])
def test_a_damaged_marker_names_no_model(content: str) -> None:
    marker_path().parent.mkdir(parents=True, exist_ok=True)
    marker_path().write_text(content)
    assert unfinished_load() is None


@pytest.mark.expected_log("app.core.models.load_guard", logging.WARNING, "Could not record the model being loaded")
@pytest.mark.expected_log("app.core.models.load_guard", logging.WARNING, "Ignoring an unreadable load marker")
def test_a_data_folder_that_cannot_be_written_costs_the_protection_not_the_load(tmp_path: Path) -> None:
    marker_path().parent.parent.mkdir(parents=True, exist_ok=True)
    marker_path().parent.write_text("a file where the data folder should be")
    begin_load(tmp_path / "model.gguf")  # no exception
    assert unfinished_load() is None
