"""The real starter model for the tests that need it, and the `requires_model` marker that sets them apart.

A test that uses `starter_model`, `engine` or `open_main_window` is marked automatically; one that
loads the starter some other way (a bare MainWindow, the CLI in a child process) carries the marker
by hand. An unmarked test that loads the starter model in this process fails and says so, so that
`pytest -m "not requires_model"` stays a run of unit tests that never loads it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import llama_cpp
import pytest

from app.core.inference.engine import Engine
from app.core.models.starter import find_starter_model
from app.core.models.validation import ModelFileError
from app.core.types.load import LoadConfig

MARKER = "requires_model"
MODEL_FIXTURES = {"starter_model", "engine", "open_main_window"}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(MARKER)


@functools.cache
def _starter() -> Path | None:
    return find_starter_model()


@pytest.fixture(autouse=True)
def unmarked_tests_do_not_load_the_starter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    starter = _starter()
    if request.node.get_closest_marker(MARKER) is not None or starter is None:
        return
    llama = llama_cpp.Llama

    def refuse_the_starter(model_path: str, *args: Any, **kwargs: Any) -> llama_cpp.Llama:
        if Path(model_path) == starter:
            raise RuntimeError(f"this test loads the starter model: mark it @pytest.mark.{MARKER}")
        return llama(model_path, *args, **kwargs)

    # The class's stand-in, not its __init__: a refused Llama is never half-built (its __del__ would fail).
    monkeypatch.setattr(llama_cpp, "Llama", refuse_the_starter)


@pytest.fixture(scope="session")
def starter_model() -> Path:
    path = _starter()
    if path is None:
        pytest.fail("the starter model is missing: install the project with the [starter] extra")
    return path


@pytest.fixture(scope="session")
def engine(starter_model: Path) -> Iterator[Engine]:
    """One loaded starter model shared by the tests that only read from it or generate."""
    shared = Engine()
    shared.load(LoadConfig(starter_model, n_ctx=2048))
    yield shared
    shared.close()


def refusal_reason(path: Path) -> str:
    """Loading `path` is refused before llama.cpp runs, with a message naming the file; returns the reason."""
    engine = Engine()
    with pytest.raises(ModelFileError) as caught:
        engine.load(LoadConfig(path, n_ctx=256))
    assert not engine.is_loaded
    assert str(path) in str(caught.value)
    return caught.value.reason
