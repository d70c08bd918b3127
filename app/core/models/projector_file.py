"""Checks a projector file (mmproj) against the model it is loaded with, before llama.cpp sees either.

A vision model reads images through a projector: a small vision encoder whose output is one
embedding of the text model's size per image token. A projector of another model makes
embeddings of another size (libmtmd then fails with a line in the log only), a projector made
for another architecture feeds a model tokens it was never trained on, and a model file or an
audio projector picked by mistake is no image reader at all: each gets its reason here. Both
headers are read without loading anything, so a wrong pair is refused before the model loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.core.models.gguf_info import GgufInfo, GgufInfoError, MetaValue, read_gguf_info, read_model_shape
from app.core.support.user_text import N_, fill
from app.core.types.errors import EngineError

PROJECTOR_ARCHITECTURE = "clip"  # what llama.cpp's converter writes into every mmproj file

# Projectors that only one family of text models reads (llama.cpp's mtmd builds their image tokens
# for that family): the projector type (clip.vision.projector_type) -> the model architectures it
# belongs to. Generic projectors (LLaVA's "mlp", "ldp", ...) are not listed: any model of their
# embedding size takes them.
ARCHITECTURES_OF_PROJECTOR: Mapping[str, frozenset[str]] = {
    "gemma3": frozenset({"gemma3"}),
    "gemma3nv": frozenset({"gemma3n"}),
    "llama4": frozenset({"llama4"}),
    "qwen2vl_merger": frozenset({"qwen2vl"}),
    "qwen2.5vl_merger": frozenset({"qwen2vl"}),
    "qwen3vl_merger": frozenset({"qwen3vl", "qwen3vlmoe"}),
}


@dataclass(frozen=True)
class ProjectorFile:
    path: Path
    projector_type: str  # "mlp" (LLaVA), "gemma3", "qwen2vl_merger", ...
    embedding_length: int  # what one image token becomes: the text model's embedding size; 0: not written
    bytes: int  # the projector's weights


@dataclass(frozen=True)
class ModelShape:
    """What a projector is checked against: the text model's name, architecture and embedding size."""

    name: str
    architecture: str
    embedding_length: int

    @classmethod
    def of(cls, model: Path) -> ModelShape:
        """Read from `model`'s header (its first entries only). Raises GgufInfoError with the reason."""
        architecture, embedding = read_model_shape(model)
        return cls(model.name, architecture, embedding)


def check_projector_file(path: Path, model: ModelShape) -> ProjectorFile:
    """The projector at `path` if it reads images into embeddings `model` takes; else EngineError
    saying why it does not belong to `model`."""
    if not path.is_file():
        raise EngineError(fill(N_("The projector file {path} does not exist."), path=path))
    try:
        info = read_gguf_info(path)
    except GgufInfoError as error:
        raise EngineError(
            fill(N_("{name} is not a projector file: {reason}"), name=path.name, reason=error.reason)
        ) from error
    problem = projector_problem(info, model)
    if problem is not None:
        raise EngineError(problem)
    return ProjectorFile(path, projector_type(info.metadata), projection_size(info.metadata), info.tensor_bytes)


def projector_problem(info: GgufInfo, model: ModelShape) -> str | None:
    """Why the projector read as `info` does not read images for `model`, or None when it does."""
    name = info.path.name
    if info.architecture != PROJECTOR_ARCHITECTURE:
        return fill(
            N_("{name} is not a projector (mmproj) file but a model ({architecture}); pick the mmproj file."),
            name=name,
            architecture=info.architecture or "?",
        )
    if info.metadata.get("clip.has_vision_encoder") is not True:
        return fill(N_("The projector {name} does not read images."), name=name)
    embedding = projection_size(info.metadata)
    if embedding and model.embedding_length and embedding != model.embedding_length:
        return fill(
            N_(
                "The projector {name} does not belong to {model}: it turns an image into embeddings of "
                "{projector_size} values, and {model} takes {model_size}. Pick the projector made for this model."
            ),
            name=name,
            model=model.name,
            projector_size=embedding,
            model_size=model.embedding_length,
        )
    kind = projector_type(info.metadata)
    belongs_to = ARCHITECTURES_OF_PROJECTOR.get(kind)
    if belongs_to is not None and model.architecture and model.architecture not in belongs_to:
        return fill(
            N_(
                "The projector {name} does not belong to {model}: it is made for {architectures} models "
                "({kind} projector), and {model} is a {architecture} model. Pick the projector made for this model."
            ),
            name=name,
            model=model.name,
            architectures=", ".join(sorted(belongs_to)),
            kind=kind,
            architecture=model.architecture,
        )
    return None


def projector_type(metadata: Mapping[str, MetaValue]) -> str:
    return str(metadata.get("clip.vision.projector_type", metadata.get("clip.projector_type", "")))


def projection_size(metadata: Mapping[str, MetaValue]) -> int:
    """The size of the embeddings the projector makes (the text model's embedding size); 0: not written."""
    dimension = metadata.get("clip.vision.projection_dim", 0)
    return dimension if isinstance(dimension, int) and not isinstance(dimension, bool) else 0
