"""A tiny projector GGUF (mmproj) with random weights that llama.cpp's libmtmd really loads.

No vision model can be fetched on a test machine, so the tests and the `vision` bench build
one: a LLaVA-1.5 style projector (`clip.projector_type = "mlp"`): a small CLIP vision tower
that cuts the image into patches, then two linear layers with a GELU between them that map
each patch to one embedding of the text model's size. The layout (metadata keys and tensor
names) is the one clip.cpp reads for real LLaVA projectors; only the sizes are small. What a
model "sees" through random weights is noise, so replies to an image are nonsense, but every
stage (load, pairing, encoding, image tokens in the KV cache) runs for real.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gguf import GGUFWriter

# CLIP's preprocessing constants (what real LLaVA projectors carry).
_IMAGE_MEAN = (0.48145466, 0.4578275, 0.40821073)
_IMAGE_STD = (0.26862954, 0.26130258, 0.27577711)


@dataclass(frozen=True)
class SyntheticProjector:
    text_embd: int = 576  # the text model's embedding size (the starter model's)
    image_size: int = 64
    patch_size: int = 8  # 64 / 8 = 8 × 8 = 64 image tokens
    vision_embd: int = 64
    vision_ff: int = 128
    vision_heads: int = 4
    vision_layers: int = 2
    projector_hidden: int = 128

    @property
    def image_tokens(self) -> int:
        """Embeddings one image becomes: one per patch."""
        return (self.image_size // self.patch_size) ** 2


def write_synthetic_projector(path: Path, spec: SyntheticProjector, seed: int = 0) -> Path:
    """Write `spec` as a projector GGUF at `path` and return the path."""
    rng = np.random.default_rng(seed)
    writer = GGUFWriter(path, "clip")
    writer.add_name("synthetic-llava-projector")
    writer.add_bool("clip.has_vision_encoder", True)
    writer.add_bool("clip.has_text_encoder", False)
    writer.add_bool("clip.has_llava_projector", True)
    writer.add_string("clip.projector_type", "mlp")
    writer.add_bool("clip.use_gelu", True)
    writer.add_uint32("clip.vision.image_size", spec.image_size)
    writer.add_uint32("clip.vision.patch_size", spec.patch_size)
    writer.add_uint32("clip.vision.embedding_length", spec.vision_embd)
    writer.add_uint32("clip.vision.feed_forward_length", spec.vision_ff)
    writer.add_uint32("clip.vision.projection_dim", spec.text_embd)
    writer.add_uint32("clip.vision.block_count", spec.vision_layers)
    writer.add_uint32("clip.vision.attention.head_count", spec.vision_heads)
    writer.add_float32("clip.vision.attention.layer_norm_epsilon", 1e-5)
    writer.add_array("clip.vision.image_mean", list(_IMAGE_MEAN))
    writer.add_array("clip.vision.image_std", list(_IMAGE_STD))
    for name, shape in _tensor_shapes(spec):
        if name.endswith(".bias"):
            writer.add_tensor(name, np.zeros(shape, dtype=np.float32))
        elif name.endswith("ln1.weight") or name.endswith("ln2.weight") or name.startswith("v.pre_ln"):
            writer.add_tensor(name, np.ones(shape, dtype=np.float32))
        else:
            values = rng.standard_normal(shape, dtype=np.float32) * 0.02
            writer.add_tensor(name, values.astype(np.float16 if len(shape) > 1 else np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _tensor_shapes(spec: SyntheticProjector) -> list[tuple[str, tuple[int, ...]]]:
    """Tensor names with numpy shapes (outermost dimension first), as clip.cpp names them."""
    embd, ff = spec.vision_embd, spec.vision_ff
    shapes: list[tuple[str, tuple[int, ...]]] = [
        ("v.patch_embd.weight", (embd, 3, spec.patch_size, spec.patch_size)),
        ("v.position_embd.weight", (spec.image_tokens, embd)),
        ("v.pre_ln.weight", (embd,)),
        ("v.pre_ln.bias", (embd,)),
    ]
    for layer in range(spec.vision_layers):
        block = f"v.blk.{layer}"
        for part in ("attn_q", "attn_k", "attn_v", "attn_out"):
            shapes += [(f"{block}.{part}.weight", (embd, embd)), (f"{block}.{part}.bias", (embd,))]
        for norm in ("ln1", "ln2"):
            shapes += [(f"{block}.{norm}.weight", (embd,)), (f"{block}.{norm}.bias", (embd,))]
        shapes += [
            (f"{block}.ffn_up.weight", (ff, embd)),
            (f"{block}.ffn_up.bias", (ff,)),
            (f"{block}.ffn_down.weight", (embd, ff)),
            (f"{block}.ffn_down.bias", (embd,)),
        ]
    shapes += [
        ("mm.0.weight", (spec.projector_hidden, embd)),
        ("mm.0.bias", (spec.projector_hidden,)),
        ("mm.2.weight", (spec.text_embd, spec.projector_hidden)),
        ("mm.2.bias", (spec.text_embd,)),
    ]
    return shapes
