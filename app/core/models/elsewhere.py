"""Models other apps already keep on this computer, so they can be used in place instead of copied.

Where each app keeps them (read at call time, so tests and portable setups can move them):
- LM Studio: `~/.lmstudio/models` and the older `~/.cache/lm-studio/models`, as
  `<publisher>/<repository>/<file>.gguf`.
- Ollama: `$OLLAMA_MODELS`, else `~/.ollama/models` (and the Linux service's
  `/usr/share/ollama/.ollama/models`). Its manifests (`manifests/<registry>/<namespace>/<model>/<tag>`)
  name the model layer, a blob `blobs/sha256-<hex>` that is a GGUF file without the extension, and
  for a vision model its projector layer, another such blob.
- The Hugging Face cache: `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`,
  as `models--<owner>--<name>/snapshots/<revision>/<file>.gguf` (links to `blobs/<sha256>`).
- GPT4All: `nomic.ai/GPT4All` in the user's data folder (`$XDG_DATA_HOME` or `~/.local/share`,
  `~/Library/Application Support`, `%LOCALAPPDATA%`), the `.gguf` files side by side.
- Jan: `~/jan/models` (before 0.6), then `Jan/data/llamacpp/models` in the user's data folder
  (`~/.local/share`, `~/Library/Application Support`, `%APPDATA%`), as `<model id>/model.gguf`:
  such a model is named by its folder.

Only GGUF files are offered (checked by their magic bytes); projector files (`mmproj`) and
the second and later shards of a split model are not models of their own (the library pairs a
model with the projector beside it, projector_pairing.py).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from app.core.models.library import SPLIT_PATTERN, split_shards
from app.core.models.links import ModelSource
from app.core.models.projector_pairing import is_projector_name

log = logging.getLogger(__name__)

GGUF_MAGIC = b"GGUF"
OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_PROJECTOR_LAYER = "application/vnd.ollama.image.projector"
OLLAMA_LIBRARY = ("registry.ollama.ai", "library")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class FoundModel:
    name: str
    path: Path  # the file to use in place (the first shard of a split model)
    size_bytes: int  # all its files together
    source: ModelSource
    sha256: str | None = None  # the hash the app recorded for it, when its storage names one
    projector: Path | None = None  # its vision projector where the app keeps it apart (Ollama's projector layer)


@dataclass(frozen=True)
class ModelLocation:
    source: ModelSource
    folder: Path


def model_locations(home: Path | None = None, env: Mapping[str, str] | None = None) -> list[ModelLocation]:
    """The folders where LM Studio, Ollama, the Hugging Face cache, GPT4All and Jan keep models on this computer."""
    home = home or Path.home()
    env = os.environ if env is None else env
    lmstudio = [home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"]
    ollama = [Path(env["OLLAMA_MODELS"])] if env.get("OLLAMA_MODELS") else []
    ollama += [home / ".ollama" / "models", Path("/usr/share/ollama/.ollama/models")]
    if env.get("HF_HUB_CACHE"):
        hf_cache = Path(env["HF_HUB_CACHE"])
    elif env.get("HF_HOME"):
        hf_cache = Path(env["HF_HOME"]) / "hub"
    else:
        hf_cache = home / ".cache" / "huggingface" / "hub"
    locations = [ModelLocation(ModelSource.LM_STUDIO, folder) for folder in lmstudio]
    locations += [ModelLocation(ModelSource.OLLAMA, folder) for folder in ollama]
    locations.append(ModelLocation(ModelSource.HF_CACHE, hf_cache))
    local_data = [Path(env["XDG_DATA_HOME"])] if env.get("XDG_DATA_HOME") else []
    local_data += [home / ".local" / "share", home / "Library" / "Application Support"]
    gpt4all = [*local_data, *([Path(env["LOCALAPPDATA"])] if env.get("LOCALAPPDATA") else [])]
    jan = [*local_data, *([Path(env["APPDATA"])] if env.get("APPDATA") else [])]
    locations += [ModelLocation(ModelSource.GPT4ALL, folder / "nomic.ai" / "GPT4All") for folder in gpt4all]
    locations.append(ModelLocation(ModelSource.JAN, home / "jan" / "models"))
    locations += [ModelLocation(ModelSource.JAN, folder / "Jan" / "data" / "llamacpp" / "models") for folder in jan]
    return locations


def find_models_elsewhere(locations: list[ModelLocation] | None = None) -> list[FoundModel]:
    """Every GGUF model in those folders, each file once (sorted by where, then name). Never raises."""
    found: dict[Path, FoundModel] = {}
    for location in model_locations() if locations is None else locations:
        if not location.folder.is_dir():
            continue
        try:
            models = list(_SCANNERS[location.source](location.folder))
        except OSError as error:
            log.warning("Cannot look for models in %s: %s", location.folder, error.strerror or error)
            continue
        for model in models:
            found.setdefault(model.path.resolve(), model)
    return sorted(found.values(), key=lambda m: (m.source.value, m.name.lower(), str(m.path)))


def _gguf_files(folder: Path) -> Iterator[Path]:
    """Model files under `folder`: .gguf, not a projector, not a later shard."""
    for path in sorted(folder.rglob("*.gguf")):
        if is_projector_name(path) or not path.is_file():
            continue
        split = SPLIT_PATTERN.match(path.name)
        if split is not None and int(split["index"]) != 1:
            continue
        yield path


def _model_size(path: Path) -> int:
    return sum(shard.stat().st_size for shard in split_shards(path) if shard.is_file())


def _name(path: Path) -> str:
    split = SPLIT_PATTERN.match(path.name)
    return split["base"] if split else path.stem


def _is_gguf(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(4) == GGUF_MAGIC
    except OSError:
        return False


def _scan_lmstudio(folder: Path) -> Iterator[FoundModel]:
    for path in _gguf_files(folder):
        if _is_gguf(path):
            yield FoundModel(_name(path), path, _model_size(path), ModelSource.LM_STUDIO)


def _scan_gpt4all(folder: Path) -> Iterator[FoundModel]:
    for path in _gguf_files(folder):
        if _is_gguf(path):
            yield FoundModel(_name(path), path, _model_size(path), ModelSource.GPT4ALL)


def _scan_jan(folder: Path) -> Iterator[FoundModel]:
    for path in _gguf_files(folder):
        if _is_gguf(path):
            name = path.parent.name if path.stem == "model" else _name(path)  # <model id>/model.gguf
            yield FoundModel(name, path, _model_size(path), ModelSource.JAN)


def _scan_hf_cache(folder: Path) -> Iterator[FoundModel]:
    for repo in sorted(folder.glob("models--*")):
        for path in _gguf_files(repo / "snapshots"):
            if not _is_gguf(path):
                continue
            blob = path.resolve().name
            sha = blob if _SHA256.match(blob) else None
            yield FoundModel(_name(path), path, _model_size(path), ModelSource.HF_CACHE, sha)


def _scan_ollama(folder: Path) -> Iterator[FoundModel]:
    manifests = folder / "manifests"
    if not manifests.is_dir():
        return
    for manifest in sorted(p for p in manifests.rglob("*") if p.is_file()):
        parts = manifest.relative_to(manifests).parts
        digests = _ollama_layer_digests(manifest)
        digest = digests.get(OLLAMA_MODEL_LAYER)
        if digest is None or len(parts) < 2:
            continue
        blob = folder / "blobs" / digest.replace(":", "-")
        if not blob.is_file() or not _is_gguf(blob):
            continue
        sha = digest.split(":", 1)[1] if digest.startswith("sha256:") else None
        projector_digest = digests.get(OLLAMA_PROJECTOR_LAYER)
        projector = folder / "blobs" / projector_digest.replace(":", "-") if projector_digest else None
        if projector is not None and not _is_gguf(projector):
            projector = None
        yield FoundModel(_ollama_name(parts), blob, blob.stat().st_size, ModelSource.OLLAMA, sha, projector)


def _ollama_layer_digests(manifest: Path) -> dict[str, str]:
    """{media type: digest} of a manifest's layers (the model's weights, a vision model's projector …)."""
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    layers = data.get("layers") if isinstance(data, dict) else None
    digests: dict[str, str] = {}
    for layer in layers if isinstance(layers, list) else []:
        if isinstance(layer, dict) and isinstance(layer.get("mediaType"), str) and isinstance(layer.get("digest"), str):
            digests.setdefault(layer["mediaType"], layer["digest"])
    return digests


def _ollama_name(parts: tuple[str, ...]) -> str:
    """`llama3.2:1b` for the official library, `owner/model:tag` for others, as `ollama list` shows them."""
    *path, tag = parts
    if tuple(path[:2]) == OLLAMA_LIBRARY:
        path = path[2:]
    elif path[:1] == [OLLAMA_LIBRARY[0]]:
        path = path[1:]
    return "/".join(path) + ":" + tag


_SCANNERS = {
    ModelSource.LM_STUDIO: _scan_lmstudio,
    ModelSource.OLLAMA: _scan_ollama,
    ModelSource.HF_CACHE: _scan_hf_cache,
    ModelSource.GPT4ALL: _scan_gpt4all,
    ModelSource.JAN: _scan_jan,
}
