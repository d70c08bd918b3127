"""Checks a projector file (mmproj) against the model it is loaded with, before libmtmd sees it.

A vision model reads images through a projector: a small vision encoder whose output is one
embedding of the text model's size per image token. A projector of another model makes
embeddings of another size (libmtmd then fails with a line in the log only), and a model file
or an audio projector picked by mistake is no image reader at all: each gets its reason here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.models.gguf_info import GgufInfoError, read_gguf_info
from app.core.support.user_text import N_, fill
from app.core.types.errors import EngineError

PROJECTOR_ARCHITECTURE = "clip"  # what llama.cpp's converter writes into every mmproj file


@dataclass(frozen=True)
class ProjectorFile:
    path: Path
    projector_type: str  # "mlp" (LLaVA), "gemma3", "qwen2vl_merger", ...
    embedding_length: int  # what one image token becomes: the text model's embedding size; 0: not written
    bytes: int  # the projector's weights


def check_projector_file(path: Path, model_name: str, model_embedding: int) -> ProjectorFile:
    """The projector at `path` if it reads images into embeddings of `model_embedding` values; else
    EngineError saying why it does not belong to `model_name`."""
    if not path.is_file():
        raise EngineError(fill(N_("The projector file {path} does not exist."), path=path))
    try:
        info = read_gguf_info(path)
    except GgufInfoError as error:
        raise EngineError(
            fill(N_("{name} is not a projector file: {reason}"), name=path.name, reason=error.reason)
        ) from error
    if info.architecture != PROJECTOR_ARCHITECTURE:
        raise EngineError(
            fill(
                N_("{name} is not a projector (mmproj) file but a model ({architecture}); pick the mmproj file."),
                name=path.name,
                architecture=info.architecture or "?",
            )
        )
    if info.metadata.get("clip.has_vision_encoder") is not True:
        raise EngineError(fill(N_("The projector {name} does not read images."), name=path.name))
    projector_type = info.metadata.get("clip.vision.projector_type", info.metadata.get("clip.projector_type", ""))
    dimension = info.metadata.get("clip.vision.projection_dim", 0)
    embedding = dimension if isinstance(dimension, int) else 0
    if embedding and embedding != model_embedding:
        raise EngineError(
            fill(
                N_(
                    "The projector {name} does not belong to {model}: it turns an image into embeddings of "
                    "{projector_size} values, and {model} takes {model_size}. Pick the projector made for this model."
                ),
                name=path.name,
                model=model_name,
                projector_size=embedding,
                model_size=model_embedding,
            )
        )
    return ProjectorFile(path, str(projector_type), embedding, info.tensor_bytes)
