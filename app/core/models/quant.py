"""Quantization types of GGUF files: names parsed from file names, quality notes and ranks.

Whether a variant fits this machine, and which one to suggest, is the memory package's
job (`app.core.memory.fit`); this module only knows the quantizations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.support.formatting import fill
from app.core.support.user_text import N_


@dataclass(frozen=True)
class QuantType:
    name: str
    rank: int  # higher is closer to the original weights
    note: str


# Ordered best first; ranks follow the usual perplexity ordering of llama.cpp's quantize table.
_TABLE: tuple[tuple[str, str], ...] = (
    ("F32", N_("32-bit floats: the original weights, twice the size of F16; rarely worth it")),
    ("F16", N_("16-bit floats: lossless in practice, the largest useful size")),
    ("BF16", N_("16-bit brain floats: lossless in practice, the largest useful size")),
    ("Q8_0", N_("8-bit: near-lossless, about half the size of F16")),
    ("Q8_K_XL", N_("8-bit with some tensors kept larger: near-lossless")),
    ("Q6_K_XL", N_("6-bit with some tensors kept larger: practically as good as Q8_0")),
    ("Q6_K", N_("6-bit: practically as good as Q8_0, noticeably smaller")),
    ("Q5_K_XL", N_("5-bit with some tensors kept larger: very low loss")),
    ("Q5_K_M", N_("5-bit: very low loss; a good choice when it fits")),
    ("Q5_K_S", N_("5-bit: low loss, a little smaller than Q5_K_M")),
    ("Q5_1", N_("5-bit (legacy): low loss")),
    ("Q5_0", N_("5-bit (legacy): low loss")),
    ("Q4_K_XL", N_("4-bit with some tensors kept larger: balanced, slightly better than Q4_K_M")),
    ("Q4_K_M", N_("4-bit: balanced quality and size; the usual recommendation")),
    ("Q4_K_S", N_("4-bit: a little more loss than Q4_K_M, a little smaller")),
    ("IQ4_NL", N_("4-bit i-quant: close to Q4_K_S; slower on some CPUs")),
    ("IQ4_XS", N_("4-bit i-quant: close to Q4_K_S and smaller; slower on some CPUs")),
    ("MXFP4", N_("4-bit microscaling floats: the native format of some recent models")),
    ("Q4_1", N_("4-bit (legacy): more loss than Q4_K_M at a similar size")),
    ("Q4_0", N_("4-bit (legacy): more loss than Q4_K_M at a similar size; fast on ARM CPUs")),
    ("Q3_K_XL", N_("3-bit with some tensors kept larger: noticeable loss")),
    ("Q3_K_L", N_("3-bit: noticeable loss; for tight memory")),
    ("Q3_K_M", N_("3-bit: noticeable loss; for tight memory")),
    ("IQ3_M", N_("3-bit i-quant: noticeable loss, better than Q3_K_S")),
    ("IQ3_S", N_("3-bit i-quant: clear loss")),
    ("Q3_K_S", N_("3-bit: clear loss")),
    ("IQ3_XS", N_("3-bit i-quant: clear loss")),
    ("IQ3_XXS", N_("3-bit i-quant: clear loss, the smallest 3-bit")),
    ("Q2_K_XL", N_("2-bit with some tensors kept larger: heavy loss")),
    ("Q2_K", N_("2-bit: heavy loss; a last resort for very large models")),
    ("Q2_K_S", N_("2-bit: heavy loss; a last resort for very large models")),
    ("IQ2_M", N_("2-bit i-quant: heavy loss; only for very large models")),
    ("IQ2_S", N_("2-bit i-quant: heavy loss; only for very large models")),
    ("IQ2_XS", N_("2-bit i-quant: very heavy loss; only for very large models")),
    ("IQ2_XXS", N_("2-bit i-quant: very heavy loss; only for very large models")),
    ("TQ2_0", N_("ternary: only for models trained ternary (BitNet)")),
    ("TQ1_0", N_("ternary: only for models trained ternary (BitNet)")),
    ("IQ1_M", N_("1-bit i-quant: severe loss; barely usable")),
    ("IQ1_S", N_("1-bit i-quant: severe loss; barely usable")),
)

QUANT_TYPES: dict[str, QuantType] = {
    name: QuantType(name, rank=len(_TABLE) - index, note=note) for index, (name, note) in enumerate(_TABLE)
}

_QUANT_PATTERN = re.compile(
    r"(?<![A-Za-z0-9])("
    r"IQ[1-4]_(?:XXS|XS|NL|S|M)"
    r"|TQ[12]_0"
    r"|Q[2-8]_K_(?:XL|L|M|S)"
    r"|Q[2-8]_K"
    r"|Q[4-8]_[01]"
    r"|BF16|F16|FP16|F32|FP32|MXFP4"
    r")(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_ALIASES = {"FP16": "F16", "FP32": "F32"}


def parse_quant(filename: str) -> str | None:
    """The quantization named in a GGUF file name (`model.Q4_K_M.gguf` -> "Q4_K_M"), or None.

    The last match wins: names like `Q8_0-model-Q4_K_M.gguf` come from repos whose own name
    carries a quantization, and the file's own tag sits next to the extension.
    """
    matches = _QUANT_PATTERN.findall(filename.rsplit("/", 1)[-1])
    if not matches:
        return None
    name = matches[-1].upper()
    return _ALIASES.get(name, name)


def quality_note(quant: str | None) -> str:
    if quant is None:
        return N_("quantization not named in the file name")
    known = QUANT_TYPES.get(quant)
    return known.note if known else fill(N_("{quant}: not a quantization Glassbox knows"), quant=quant)


def quality_rank(quant: str | None) -> int:
    """Higher is closer to the original weights; 0 for unknown names."""
    known = QUANT_TYPES.get(quant or "")
    return known.rank if known else 0
