"""What a vision projector (an mmproj GGUF, app/core/inference/projector.py) adds to a load's memory.

libmtmd loads the projector beside the model: on the GPU when the model has layers there
(`use_gpu = n_gpu_layers > 0`), in RAM otherwise. It takes

- its weights: every tensor of the mmproj file, at its size in the file (read into a buffer
  of their own, not memory-mapped);
- a compute buffer for encoding one image: the vision tower (a ViT) runs over all the image's
  patches at once, so the peak is the attention scores, patches x patches per head (f32),
  beside a few activation rows per patch; with flash attention the scores are computed in
  tiles and never held whole. An estimate, sized for the largest image the file declares
  (`clip.vision.image_size`), the size libmtmd reserves the graph for.

The image's tokens are not counted here: they sit in the model's KV cache like text tokens,
within its n_ctx, so the KV cache the planner counts for n_ctx holds them already.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.models.gguf_info import GgufInfo

_FLOAT = 4  # bytes of an f32 activation or score


@dataclass(frozen=True)
class ProjectorMemory:
    """Bytes a projector takes beside its model; where they live follows the model's layers."""

    weights: int
    compute: int  # the image encoder's peak scratch memory (an estimate)
    image_tokens: int  # patches of the largest image: what one image costs in the context at most

    @property
    def total(self) -> int:
        return self.weights + self.compute


def projector_memory(info: GgufInfo, flash_attn: bool = False) -> ProjectorMemory:
    """The projector `info` (read from its mmproj file) as the planner counts it."""
    metadata = info.metadata
    image_size = _int(metadata.get("clip.vision.image_size"))
    patch_size = _int(metadata.get("clip.vision.patch_size"))
    embedding = _int(metadata.get("clip.vision.embedding_length"))
    feed_forward = _int(metadata.get("clip.vision.feed_forward_length"))
    heads = _int(metadata.get("clip.vision.attention.head_count"))
    patches = (image_size // patch_size) ** 2 if patch_size else 0
    scores = 0 if flash_attn else patches * heads  # score floats per patch, held at once
    per_patch = scores + 3 * embedding + feed_forward
    return ProjectorMemory(weights=info.tensor_bytes, compute=patches * per_patch * _FLOAT, image_tokens=patches)


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
