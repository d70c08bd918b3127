"""The library pairs a vision model with its projector (mmproj): beside it in the models folder, in LM Studio's
and the Hugging Face cache's folders, beside a file opened with Open file…, or as Ollama's projector layer.

A projector is paired only when it belongs to the model (the embeddings it makes are the model's size, and it is
made for the model's architecture), so a projector of another model in the same folder is never taken; a
projector file is never listed as a model of its own.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from gguf import GGUFWriter

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.models.elsewhere import ModelLocation, find_models_elsewhere
from app.core.models.importing import import_model, link_model
from app.core.models.library import LibraryError, installed_models, projector_of
from app.core.models.links import LINKS_FILENAME, ModelSource
from app.core.models.projector_pairing import projector_beside
from app.core.paths import app_paths

EMBD = 64  # the test models' embedding size


@pytest.fixture
def models_dir() -> Path:
    return app_paths().ensure().models


def model_file(path: Path, n_embd: int = EMBD, seed: int = 0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    spec = SyntheticModel(n_layers=1, n_embd=n_embd, n_head=4, n_head_kv=4, n_ff=64, n_vocab=300)
    return write_synthetic_model(path, spec, seed=seed)


def projector(path: Path, text_embd: int = EMBD) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_synthetic_projector(path, SyntheticProjector(text_embd=text_embd))


def projector_for_family(path: Path, kind: str, text_embd: int = EMBD) -> Path:
    """A projector header that only models of one family read (Gemma 3's, Qwen2-VL's …)."""
    writer = GGUFWriter(path, "clip")
    writer.add_bool("clip.has_vision_encoder", True)
    writer.add_string("clip.vision.projector_type", kind)
    writer.add_uint32("clip.vision.projection_dim", text_embd)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def library(models_dir: Path) -> dict[str, Path | None]:
    return {model.name: model.projector for model in installed_models(models_dir) if not model.is_starter}


def test_a_downloaded_vision_model_is_listed_once_with_its_projector_and_the_projector_is_no_model(
    models_dir: Path,
) -> None:
    repo = models_dir / "ggml-org" / "tiny-vision-GGUF"
    model = model_file(repo / "tiny-vision-Q8_0.gguf")
    mmproj = projector(repo / "mmproj-tiny-vision-f16.gguf")
    assert library(models_dir) == {"tiny-vision-Q8_0": mmproj}
    listed = next(m for m in installed_models(models_dir) if m.path == model)
    assert listed.sees_images


def test_every_quantization_in_a_repository_folder_shares_its_projector(models_dir: Path) -> None:
    repo = models_dir / "ggml-org" / "tiny-vision-GGUF"
    model_file(repo / "tiny-vision-Q4_K_M.gguf")
    model_file(repo / "tiny-vision-Q8_0.gguf", seed=1)
    mmproj = projector(repo / "mmproj-model-f16.gguf")
    assert library(models_dir) == {"tiny-vision-Q4_K_M": mmproj, "tiny-vision-Q8_0": mmproj}


def test_a_text_model_is_listed_without_a_projector(models_dir: Path) -> None:
    model_file(models_dir / "imported" / "plain.gguf")
    assert library(models_dir) == {"plain": None}
    assert not next(m for m in installed_models(models_dir) if m.name == "plain").sees_images


def test_a_projector_of_another_size_in_the_same_folder_is_not_paired(models_dir: Path) -> None:
    folder = models_dir / "imported"
    model_file(folder / "small.gguf", n_embd=EMBD)
    model_file(folder / "wide.gguf", n_embd=128, seed=1)
    mmproj = projector(folder / "mmproj-wide-f16.gguf", text_embd=128)
    assert library(models_dir) == {"small": None, "wide": mmproj}


def test_a_projector_made_for_another_architecture_is_not_paired(tmp_path: Path) -> None:
    model = model_file(tmp_path / "llama-like.gguf")  # a llama model of the projector's embedding size
    projector_for_family(tmp_path / "mmproj-gemma-3-f16.gguf", "gemma3")
    assert projector_beside(model) is None
    generic = projector(tmp_path / "mmproj-llava-f16.gguf")
    assert projector_beside(model) == generic


def test_among_several_projectors_that_belong_the_one_named_most_like_the_model_is_paired(tmp_path: Path) -> None:
    model = model_file(tmp_path / "gemma-3-4b-it-Q4_K_M.gguf")
    projector(tmp_path / "mmproj-gemma-3-27b-it-f16.gguf")
    named_like_it = projector(tmp_path / "mmproj-gemma-3-4b-it-f16.gguf")
    assert projector_beside(model) == named_like_it


def test_a_damaged_projector_file_is_not_paired(tmp_path: Path) -> None:
    model = model_file(tmp_path / "model.gguf")
    (tmp_path / "mmproj-model-f16.gguf").write_bytes(b"GGUF but cut short")
    assert projector_beside(model) is None


def test_a_model_found_in_lm_studio_s_folder_is_used_in_place_with_the_projector_beside_it(
    models_dir: Path, tmp_path: Path
) -> None:
    lmstudio = tmp_path / "lmstudio"
    repo = lmstudio / "lmstudio-community" / "tiny-vision-GGUF"
    model_file(repo / "tiny-vision-Q4_K_M.gguf")
    mmproj = projector(repo / "mmproj-model-f16.gguf")
    (found,) = find_models_elsewhere([ModelLocation(ModelSource.LM_STUDIO, lmstudio)])
    link_model(found.path, models_dir, found.name, found.source)
    assert library(models_dir) == {"tiny-vision-Q4_K_M": mmproj}
    assert projector_of(models_dir, found.path) == mmproj


def test_a_model_opened_with_open_file_comes_with_the_projector_beside_it(models_dir: Path, tmp_path: Path) -> None:
    downloads = tmp_path / "Downloads"
    model = model_file(downloads / "tiny-vision.gguf")
    mmproj = projector(downloads / "mmproj-tiny-vision-f16.gguf")
    added = link_model(model, models_dir)  # what Open file… does
    assert added.projector == mmproj


def _ollama_vision_model(root: Path, tmp_path: Path) -> tuple[Path, Path]:
    """An Ollama store holding a vision model: its weights and its projector as two blobs of one manifest."""
    blobs = root / "blobs"
    blobs.mkdir(parents=True)
    paths = []
    layers = []
    for kind, source in (
        ("model", model_file(tmp_path / "weights.gguf")),
        ("projector", projector(tmp_path / "vision.gguf")),
    ):
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        blob = blobs / f"sha256-{digest}"
        shutil.copyfile(source, blob)
        paths.append(blob)
        layers.append({"mediaType": f"application/vnd.ollama.image.{kind}", "digest": f"sha256:{digest}"})
    manifest = root / "manifests" / "registry.ollama.ai" / "library" / "llava-tiny" / "latest"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"schemaVersion": 2, "layers": layers}))
    return paths[0], paths[1]


def test_an_ollama_vision_model_brings_its_projector_layer_and_the_library_remembers_it(
    models_dir: Path, tmp_path: Path
) -> None:
    store = tmp_path / "ollama"
    weights, projector_blob = _ollama_vision_model(store, tmp_path)
    (found,) = find_models_elsewhere([ModelLocation(ModelSource.OLLAMA, store)])
    assert (found.name, found.path, found.projector) == ("llava-tiny:latest", weights, projector_blob)
    link_model(found.path, models_dir, found.name, found.source, found.sha256, projector=found.projector)
    assert library(models_dir) == {"llava-tiny:latest": projector_blob}
    assert projector_of(models_dir, weights) == projector_blob
    record = json.loads((models_dir / LINKS_FILENAME).read_text())
    assert record["links"][0]["projector"] == str(projector_blob)


def test_an_ollama_projector_that_has_gone_leaves_the_model_a_text_model(models_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "ollama"
    weights, projector_blob = _ollama_vision_model(store, tmp_path)
    link_model(weights, models_dir, "llava-tiny:latest", ModelSource.OLLAMA, projector=projector_blob)
    projector_blob.unlink()
    assert library(models_dir) == {"llava-tiny:latest": None}


def test_a_projector_file_opened_or_imported_as_a_model_is_refused_with_the_reason(
    models_dir: Path, tmp_path: Path
) -> None:
    mmproj = projector(tmp_path / "mmproj-tiny-vision-f16.gguf")
    why = r"mmproj-tiny-vision-f16\.gguf is a projector \(mmproj\) file, not a model: .* Keep it in the folder"
    with pytest.raises(LibraryError, match=why):
        link_model(mmproj, models_dir)  # Open file…
    with pytest.raises(LibraryError, match=why):
        import_model(mmproj, models_dir)
    assert library(models_dir) == {} and not list(models_dir.rglob("*.gguf"))
