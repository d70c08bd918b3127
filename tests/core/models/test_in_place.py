"""Models used in place and duplicate imports: nothing copied twice, nothing copied at all when used in place."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from pathlib import Path

import pytest

from app.core.models.elsewhere import FoundModel, ModelLocation, find_models_elsewhere, model_locations
from app.core.models.importing import AlreadyInLibrary, import_model, link_model
from app.core.models.library import delete_model, installed_models, library_entries
from app.core.models.links import LINKS_FILENAME, Missing, ModelSource
from app.core.paths import app_paths
from tests.fakes.fake_hub import make_gguf


@pytest.fixture
def models_dir() -> Path:
    return app_paths().ensure().models


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_importing_a_file_the_library_already_has_says_so_and_copies_nothing(models_dir: Path, tmp_path: Path) -> None:
    original = make_gguf(tmp_path / "first.Q4_0.gguf")
    imported = import_model(original, models_dir)
    copy = tmp_path / "elsewhere" / "renamed.Q4_0.gguf"
    copy.parent.mkdir()
    shutil.copyfile(original, copy)
    before = folder_size(models_dir)
    with pytest.raises(AlreadyInLibrary) as caught:
        import_model(copy, models_dir)
    assert caught.value.existing.path == imported.path and not caught.value.same_file
    assert "already in the library as first.Q4_0" in str(caught.value)
    assert not (models_dir / "imported" / "renamed.Q4_0.gguf").exists()
    assert folder_size(models_dir) == before


def test_a_different_file_of_the_same_size_is_still_imported(models_dir: Path, tmp_path: Path) -> None:
    import_model(make_gguf(tmp_path / "a.gguf", seed=1), models_dir)
    other = import_model(make_gguf(tmp_path / "b.gguf", seed=2), models_dir)  # same size, other bytes
    assert other.path == models_dir / "imported" / "b.gguf"


def test_adding_in_place_copies_nothing_and_the_library_lists_the_file_where_it_is(
    models_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "lmstudio" / "bartowski" / "Tiny-GGUF"
    folder.mkdir(parents=True)
    source = make_gguf(folder / "tiny.Q8_0.gguf")
    size = source.stat().st_size
    before = folder_size(models_dir)
    model = link_model(source, models_dir, origin=ModelSource.LM_STUDIO)
    assert model.path == source and model.in_place and model.source is ModelSource.LM_STUDIO
    assert source.stat().st_size == size
    assert folder_size(models_dir) - before < 4096  # only the small links record was written
    assert not list(models_dir.rglob("*.gguf"))
    assert [m.path for m in installed_models(models_dir) if not m.is_starter] == [source]
    with pytest.raises(AlreadyInLibrary) as again:
        link_model(source, models_dir)
    assert again.value.same_file


def test_removing_a_model_used_in_place_keeps_its_file(models_dir: Path, tmp_path: Path) -> None:
    source = make_gguf(tmp_path / "kept.gguf")
    model = link_model(source, models_dir)
    assert delete_model(model, models_dir) == []
    assert source.exists()
    assert [m for m in installed_models(models_dir) if not m.is_starter] == []


def test_a_linked_file_that_vanished_is_listed_as_missing_and_never_offered_to_load(
    models_dir: Path, tmp_path: Path
) -> None:
    source = make_gguf(tmp_path / "gone.gguf")
    link_model(source, models_dir, name="gone")
    source.unlink()
    assert [m for m in installed_models(models_dir) if not m.is_starter] == []  # pickers never see it
    (entry,) = [e for e in library_entries(models_dir) if not e.model.is_starter]
    assert entry.model.missing is Missing.GONE and entry.summary is None
    model = entry.model
    assert delete_model(model, models_dir) == []  # and it can be removed from the library
    assert [e for e in library_entries(models_dir) if not e.model.is_starter] == []


@pytest.mark.expected_log("app.core.models.links", logging.WARNING, "cannot be read")
def test_a_damaged_links_record_is_ignored(models_dir: Path) -> None:
    (models_dir / LINKS_FILENAME).write_text("{not json", encoding="utf-8")
    assert [m for m in installed_models(models_dir) if not m.is_starter] == []


def _ollama_store(root: Path, tmp_path: Path) -> Path:
    blob_source = make_gguf(tmp_path / "ollama-src.gguf", seed=3)
    digest = hashlib.sha256(blob_source.read_bytes()).hexdigest()
    blobs = root / "blobs"
    blobs.mkdir(parents=True)
    blob = blobs / f"sha256-{digest}"
    shutil.move(blob_source, blob)
    (blobs / "sha256-licence").write_text("MIT")
    manifest = root / "manifests" / "registry.ollama.ai" / "library" / "llama3.2" / "1b"
    manifest.parent.mkdir(parents=True)
    layers = [
        {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{digest}", "size": 1},
        {"mediaType": "application/vnd.ollama.image.license", "digest": "sha256:licence", "size": 3},
    ]
    manifest.write_text(json.dumps({"schemaVersion": 2, "layers": layers}))
    return blob


def test_models_of_lm_studio_ollama_and_the_hugging_face_cache_are_found_with_their_names(tmp_path: Path) -> None:
    home = tmp_path / "home"
    lmstudio = home / ".lmstudio" / "models" / "bartowski" / "Tiny-GGUF"
    lmstudio.mkdir(parents=True)
    make_gguf(lmstudio / "Tiny-Q4_K_M.gguf")
    make_gguf(lmstudio / "mmproj-Tiny-F16.gguf", seed=4)  # a projector, not a model
    (lmstudio / "notes.gguf").write_text("not a model")
    blob = _ollama_store(home / ".ollama" / "models", tmp_path)
    snapshot = home / ".cache" / "huggingface" / "hub" / "models--acme--Small-GGUF" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    hf_blob = snapshot.parent.parent / "blobs" / ("e" * 64)
    hf_blob.parent.mkdir()
    make_gguf(hf_blob, seed=6)
    (snapshot / "small.Q2_K.gguf").symlink_to(hf_blob)

    found = find_models_elsewhere(model_locations(home=home, env={}))
    by_source = {model.source: model for model in found}
    assert set(by_source) == {ModelSource.LM_STUDIO, ModelSource.OLLAMA, ModelSource.HF_CACHE}
    assert by_source[ModelSource.LM_STUDIO].name == "Tiny-Q4_K_M"
    assert by_source[ModelSource.OLLAMA] == FoundModel(
        "llama3.2:1b", blob, blob.stat().st_size, ModelSource.OLLAMA, blob.name.removeprefix("sha256-")
    )
    assert by_source[ModelSource.HF_CACHE].name == "small.Q2_K"
    assert by_source[ModelSource.HF_CACHE].sha256 == "e" * 64


def test_models_of_gpt4all_and_jan_old_and_new_are_found_a_jan_model_named_by_its_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    gpt4all = home / ".local" / "share" / "nomic.ai" / "GPT4All"
    gpt4all.mkdir(parents=True)
    make_gguf(gpt4all / "Llama-3.2-1B-Instruct-Q4_0.gguf")
    old_jan = home / "jan" / "models" / "qwen2.5-1.5b-instruct"
    old_jan.mkdir(parents=True)
    make_gguf(old_jan / "qwen2.5-1.5b-instruct-q4_k_m.gguf", seed=3)
    new_jan = home / "Library" / "Application Support" / "Jan" / "data" / "llamacpp" / "models" / "gemma-3-1b-it"
    new_jan.mkdir(parents=True)
    make_gguf(new_jan / "model.gguf", seed=5)

    found = find_models_elsewhere(model_locations(home=home, env={}))
    assert {(model.source, model.name) for model in found} == {
        (ModelSource.GPT4ALL, "Llama-3.2-1B-Instruct-Q4_0"),
        (ModelSource.JAN, "qwen2.5-1.5b-instruct-q4_k_m"),
        (ModelSource.JAN, "gemma-3-1b-it"),
    }


def test_windows_data_folders_are_where_gpt4all_and_jan_are_looked_for(tmp_path: Path) -> None:
    env = {"LOCALAPPDATA": "C:/Users/me/AppData/Local", "APPDATA": "C:/Users/me/AppData/Roaming"}
    locations = model_locations(home=tmp_path, env=env)
    assert ModelLocation(ModelSource.GPT4ALL, Path("C:/Users/me/AppData/Local/nomic.ai/GPT4All")) in locations
    assert ModelLocation(ModelSource.JAN, Path("C:/Users/me/AppData/Roaming/Jan/data/llamacpp/models")) in locations


def test_environment_variables_move_the_ollama_and_hugging_face_folders(tmp_path: Path) -> None:
    locations = model_locations(home=tmp_path, env={"OLLAMA_MODELS": "/srv/ollama", "HF_HOME": "/srv/hf"})
    assert ModelLocation(ModelSource.OLLAMA, Path("/srv/ollama")) in locations
    assert ModelLocation(ModelSource.HF_CACHE, Path("/srv/hf/hub")) in locations


def test_an_ollama_model_added_in_place_keeps_ollamas_name_and_hash(models_dir: Path, tmp_path: Path) -> None:
    blob = _ollama_store(tmp_path / "ollama", tmp_path)
    (found,) = find_models_elsewhere([ModelLocation(ModelSource.OLLAMA, tmp_path / "ollama")])
    model = link_model(found.path, models_dir, found.name, found.source, found.sha256)
    assert model.name == "llama3.2:1b" and model.path == blob
    (entry,) = [e for e in library_entries(models_dir) if not e.model.is_starter]
    assert entry.reference == "ollama" and entry.summary is not None
