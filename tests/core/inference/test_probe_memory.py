"""A load's batch probe is remembered under the model file, the settings that change how a batch is computed
and the llama.cpp build, and the next load of the same model the same way takes it instead of probing again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import app.core.inference.engine as engine_module
from app.core.inference.engine import Engine
from app.core.inference.exact_batch import BatchProbe, probe_batches
from app.core.inference.probe_memory import PROBES, probe_key, remember_probe, remembered_probe
from app.core.paths import app_paths
from app.core.types.load import LoadConfig, Speculative


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own: nothing another test remembered."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("GLASSBOX_CACHE", str(cache))
    return cache


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF" + bytes(60))
    return path


def test_a_remembered_probe_comes_back_as_it_was(own_cache: Path) -> None:
    probe = BatchProbe(True, {2: 1.4, 4: 2.1, 9: 3.8})
    remember_probe("a", probe)
    assert remembered_probe("a") == probe
    assert remembered_probe("b") is None
    assert app_paths().cache == own_cache and PROBES.path().is_file()


def test_the_key_follows_the_file_and_the_settings_that_change_a_batch(model_file: Path) -> None:
    config = LoadConfig(model_file, n_ctx=2048)
    key = probe_key(config, 4)
    assert probe_key(config, 4) == key
    for unchanged in (
        replace(config, speculative=Speculative.ON),
        replace(config, chat_template="chatml"),
        replace(config, reasoning="none"),
    ):
        assert probe_key(unchanged, 4) == key
    for changed in (
        replace(config, flash_attn=True),
        replace(config, n_ctx=4096),
        replace(config, n_gpu_layers=10),
        replace(config, type_k="q8_0"),
        replace(config, n_ubatch=256),
    ):
        assert probe_key(changed, 4) != key
    assert probe_key(config, 2) != key  # another thread count
    model_file.write_bytes(b"GGUF" + bytes(80))  # the file changed (a new download under the same name)
    assert probe_key(config, 4) != key


def test_an_entry_that_is_no_probe_is_none(own_cache: Path) -> None:
    PROBES.put("a", {"exact": "yes", "cost": 7})  # a cost that is no table of sizes
    PROBES.put("b", [1, 2])
    assert remembered_probe("a") is None and remembered_probe("b") is None


def test_a_probe_remembered_again_replaces_the_old_one(own_cache: Path) -> None:
    remember_probe("a", BatchProbe(True, {2: 1.5}))
    remember_probe("a", BatchProbe(False, {2: 1.9}))
    assert remembered_probe("a") == BatchProbe(False, {2: 1.9})


@pytest.mark.requires_model
def test_a_second_load_the_same_way_takes_the_remembered_probe_and_another_way_probes(
    starter_model: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    probed: list[BatchProbe] = []

    def counted(*args: object) -> BatchProbe:
        probed.append(probe_batches(*args))  # type: ignore[arg-type]
        return probed[-1]

    monkeypatch.setattr(engine_module, "probe_batches", counted)
    config = LoadConfig(starter_model, n_ctx=512)
    found: list[BatchProbe | None] = []
    for load in (config, config, replace(config, flash_attn=True)):
        engine = Engine()
        engine.load(load)
        try:
            engine.warm_up()
            found.append(engine._batch_probe)
        finally:
            engine.close()
    assert len(probed) == 2  # the first load and the one with flash attention
    assert found[0] == found[1] == probed[0]
    assert found[2] == probed[1] and found[2] is not None and found[2].exact  # flash attention: batches exact
