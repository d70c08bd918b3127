"""Graceful degradation: when a model does not fit as asked, a more heavily quantized copy of it.

Fewer GPU layers is the first answer (app.core.memory.fallback); this is the second. A
variant is another GGUF file of the same model: the same architecture, layer count,
embedding width, vocabulary and parameter count, and the same name once the quantization
tag is taken out of it (or the same `general.name`). Whether a variant fits is the memory
planner's verdict (app.core.memory.fit.plan_fit, as the GPU panel and the Models window
judge), never the file size.

"Fits as asked": with GPU layers asked for, the planner can put at least that many on the
GPU (all of them for "all"); on the CPU, it fits in the RAM. The offer is the best-quality
installed variant below the model's quantization that fits as asked; if none does, the
one that puts the most layers on the GPU, when that is more than the model itself gets.
When no installed variant fits as asked, the offer also names a quantization to download
(the best of Q8_0, Q6_K, Q5_K_M, Q4_K_M, Q3_K_M, Q2_K below the current one that fits as
asked), planned from this model's own header with its weight matrices at that type: an
estimate (real mixes keep a few tensors larger), and marked as one.

`offer_after_load` is the window's entry: a load that ran out of memory even on the CPU,
one that fell back to fewer GPU layers, or a loaded model that no longer fits because
another program took the VRAM. What happened to the model itself outranks its plan (a
plan can be optimistic); its variants are judged by the planner. `switch_config` is the
load of the offered variant: with the GPU layers asked for when it fits as asked, else
with those the planner gives it.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

from app.core.memory.fit import Fit, FitHint, Machine, plan_fit
from app.core.memory.planner import ContextSettings, MemoryPlanner
from app.core.models.gguf_info import GgufInfo, GgufInfoError, TensorInfo, read_gguf_info
from app.core.models.library import SPLIT_PATTERN, InstalledModel, is_inside
from app.core.models.quant import parse_quant, quality_rank
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.load import LoadConfig

log = logging.getLogger(__name__)

DOWNLOAD_LADDER: dict[str, GGMLQuantizationType] = {
    "Q8_0": GGMLQuantizationType.Q8_0,
    "Q6_K": GGMLQuantizationType.Q6_K,
    "Q5_K_M": GGMLQuantizationType.Q5_K,
    "Q4_K_M": GGMLQuantizationType.Q4_K,
    "Q3_K_M": GGMLQuantizationType.Q3_K,
    "Q2_K": GGMLQuantizationType.Q2_K,
}

Judge = Callable[[GgufInfo], FitHint]


class Reach(enum.IntEnum):
    """How far a plan goes towards what was asked, comparable between variants of one model."""

    NO_FIT = 0
    SOME = 1  # runs, but with fewer GPU layers than asked
    AS_ASKED = 2


@dataclass(frozen=True)
class LocalVariant:
    model: InstalledModel
    quant: str | None
    hint: FitHint


@dataclass(frozen=True)
class DownloadVariant:
    quant: str
    repo_id: str | None  # where the model came from (models/<owner>/<repo>/…); None for an imported file
    hint: FitHint  # estimated from the loaded model's header


@dataclass(frozen=True)
class DegradationOffer:
    model_path: Path
    quant: str | None
    current: FitHint
    wanted_layers: int  # GPU layers asked for (the model's "all" for all; 0 on the CPU)
    local: LocalVariant | None
    download: DownloadVariant | None

    @property
    def local_fits_as_asked(self) -> bool:
        return self.local is not None and _reach(self.local.hint, self.wanted_layers) is Reach.AS_ASKED

    @property
    def message(self) -> str:
        """For the user and the log: what does not fit, and what would."""
        lines = [fill(N_("{name} does not fit as asked ({text})."), name=self.model_path.name, text=self.current.text)]
        if self.local is not None:
            quant = self.local.quant or N_("another quantization")
            verdict = N_("fits as asked") if self.local_fits_as_asked else N_("fits better")
            lines.append(
                fill(
                    N_("{name} ({quant}) is in the library and {verdict}: {text}."),
                    name=self.local.model.path.name,
                    quant=quant,
                    verdict=verdict,
                    text=self.local.hint.text,
                )
            )
        if self.download is not None:
            source = fill(N_(" from {repo_id}"), repo_id=self.download.repo_id) if self.download.repo_id else ""
            verdict = (
                N_("would fit as asked")
                if _reach(self.download.hint, self.wanted_layers) is Reach.AS_ASKED
                else N_("would fit better")
            )
            lines.append(
                fill(
                    N_("A {quant} copy{source} {verdict}: {text}."),
                    quant=self.download.quant,
                    source=source,
                    verdict=verdict,
                    text=self.download.hint.text,
                )
            )
        return " ".join(lines)


def planner_judge(machine: Machine, context: ContextSettings) -> Judge:
    """The verdict the GPU panel and the Models window give: the planner on this machine's free memory."""

    def judge(info: GgufInfo) -> FitHint:
        return plan_fit(MemoryPlanner(info, machine.runtime_overhead), machine, context)

    return judge


class LoadTrouble(enum.Enum):
    OUT_OF_MEMORY = "out of memory"  # even the CPU-only load ran out of memory
    FELL_BACK = "fell back"  # it loaded, with fewer GPU layers than asked
    VRAM_TAKEN = "VRAM taken"  # loaded as asked, but another program has taken the VRAM since


def offer_after_load(
    config: LoadConfig,
    trouble: LoadTrouble,
    installed: Sequence[InstalledModel],
    machine: Machine,
    models_dir: Path | None = None,
    loaded_layers: int = 0,
) -> DegradationOffer | None:
    """The smaller variant to offer after `trouble` with the load `config` asked for (None: none helps).

    `loaded_layers`: the GPU layers the fallback ended with (for FELL_BACK)."""
    context = ContextSettings.for_load(config.n_ctx, config.n_batch)
    planned = planner_judge(machine, context)
    try:
        failed_file = (config.model_path.resolve(), config.model_path.stat().st_size)
    except OSError as error:
        log.info("No smaller variant can be planned for %s: %s", config.model_path.name, error)
        return None

    def judge(info: GgufInfo) -> FitHint:
        hint = planned(info)
        if (info.path.resolve(), info.file_size) != failed_file:  # a variant, or a download planned from the header
            return hint
        if trouble is LoadTrouble.OUT_OF_MEMORY:
            return replace(hint, fit=Fit.NO_FIT, gpu_layers=0, text="ran out of memory even on the CPU")
        if trouble is LoadTrouble.FELL_BACK and (hint.fit is Fit.NO_FIT or hint.gpu_layers > loaded_layers):
            fit = Fit.PARTIAL if loaded_layers > 0 else Fit.RAM
            text = f"ran out of GPU memory and loaded with {loaded_layers} GPU layers"
            return replace(hint, fit=fit, gpu_layers=loaded_layers, text=text)
        return hint

    return offer_smaller_variant(
        config.model_path, installed, machine, context, config.n_gpu_layers, models_dir, judge=judge
    )


def switch_config(config: LoadConfig, offer: DegradationOffer) -> LoadConfig | None:
    """The load of the offered installed variant in place of `config`; None when only a download is offered."""
    if offer.local is None:
        return None
    layers = config.n_gpu_layers if offer.local_fits_as_asked else max(0, offer.local.hint.gpu_layers)
    return replace(config, model_path=offer.local.model.path, n_gpu_layers=layers)


def offer_smaller_variant(
    model_path: Path,
    installed: Sequence[InstalledModel],
    machine: Machine,
    context: ContextSettings,
    n_gpu_layers: int,
    models_dir: Path | None = None,
    judge: Judge | None = None,
) -> DegradationOffer | None:
    """A smaller variant of the model (installed, or to download) when it does not fit as asked.

    None when the model fits as asked, or its header cannot be read (then nothing can be planned).
    `n_gpu_layers` is what was asked (-1: all); `models_dir` tells the repository a download came from.
    """
    judge = judge or planner_judge(machine, context)
    try:
        info = read_gguf_info(model_path)
    except GgufInfoError as error:
        log.info("No smaller variant can be planned for %s: %s", model_path.name, error)
        return None
    wanted = _wanted_layers(n_gpu_layers, info, machine)
    current = judge(info)
    current_reach = _reach(current, wanted)
    if current_reach is Reach.AS_ASKED:
        return None
    quant = _quant_of(model_path, info)
    local = _best_local(model_path, info, quant, installed, judge, wanted, current)
    download = None
    if local is None or _reach(local.hint, wanted) is not Reach.AS_ASKED:
        download = _best_download(info, quant, judge, wanted, current, _repo_id(model_path, models_dir))
    if local is None and download is None:
        return None
    offer = DegradationOffer(model_path, quant, current, wanted, local, download)
    log.info("%s", offer.message)
    return offer


def variants(model_path: Path, installed: Sequence[InstalledModel]) -> list[tuple[InstalledModel, GgufInfo]]:
    """The other installed files of the same model (any quantization), with their headers."""
    try:
        info = read_gguf_info(model_path)
    except GgufInfoError:
        return []
    return _variants(model_path, info, installed)


def same_model(a: GgufInfo, b: GgufInfo) -> bool:
    """Two files of one model: the same shapes and parameter count, and the same name without the quantization."""
    shapes_match = (
        a.architecture == b.architecture
        and a.block_count == b.block_count
        and a.embedding_length == b.embedding_length
        and a.vocab_size == b.vocab_size
        and a.parameter_count == b.parameter_count
    )
    if not shapes_match:
        return False
    named_alike = "general.name" in a.metadata and a.metadata.get("general.name") == b.metadata.get("general.name")
    return named_alike or base_name(a.path.name) == base_name(b.path.name)


def base_name(filename: str) -> str:
    """A model file's name without its quantization tag, split suffix and extension, for comparing."""
    split = SPLIT_PATTERN.match(filename)
    stem = split["base"] if split else re.sub(r"\.gguf$", "", filename, flags=re.IGNORECASE)
    quant = parse_quant(stem)
    if quant is not None:
        stem = re.sub(re.escape(quant), "", stem, flags=re.IGNORECASE)
    return re.sub(r"[\s._\-]+", "-", stem).strip("-").casefold()


def requantized(info: GgufInfo, target: GGMLQuantizationType) -> GgufInfo:
    """The header as it would be with every weight matrix that is larger per weight stored as `target`."""
    block, block_bytes = GGML_QUANT_SIZES[target]
    tensors: list[TensorInfo] = []
    for tensor in info.tensors:
        per_weight = tensor.n_bytes / tensor.n_elements if tensor.n_elements else 0.0
        if len(tensor.shape) >= 2 and tensor.shape[0] % block == 0 and per_weight > block_bytes / block:
            tensor = replace(tensor, ggml_type=target, n_bytes=tensor.n_elements // block * block_bytes)
        tensors.append(tensor)
    saved = info.tensor_bytes - sum(t.n_bytes for t in tensors)
    return replace(info, tensors=tuple(tensors), file_size=info.file_size - saved, _by_name={})


# ---- parts -----------------------------------------------------------------------------


def _wanted_layers(n_gpu_layers: int, info: GgufInfo, machine: Machine) -> int:
    """GPU layers asked for, within the model's "all"; 0 when there is no GPU to offload to."""
    if machine.free_vram is None:
        return 0
    total = info.block_count + 1
    return total if n_gpu_layers < 0 or n_gpu_layers > total else n_gpu_layers


def _reach(hint: FitHint, wanted: int) -> Reach:
    if hint.fit is Fit.NO_FIT:
        return Reach.NO_FIT
    if wanted == 0 or hint.gpu_layers >= wanted:
        return Reach.AS_ASKED
    return Reach.SOME


def _score(hint: FitHint, wanted: int) -> tuple[int, int]:
    """Better is: fits as asked, then more layers on the GPU."""
    return _reach(hint, wanted), hint.gpu_layers if hint.fit is not Fit.NO_FIT else -1


def _quant_of(path: Path, info: GgufInfo) -> str | None:
    return parse_quant(path.name) or info.declared_file_type


def _variants(
    model_path: Path, info: GgufInfo, installed: Sequence[InstalledModel]
) -> list[tuple[InstalledModel, GgufInfo]]:
    found = []
    for model in installed:
        if model.path.resolve() == model_path.resolve():
            continue
        try:
            other = read_gguf_info(model.path)
        except GgufInfoError as error:
            log.debug("Skipping %s as a variant: %s", model.path.name, error)
            continue
        if same_model(info, other):
            found.append((model, other))
    return found


def _best_local(
    model_path: Path,
    info: GgufInfo,
    quant: str | None,
    installed: Sequence[InstalledModel],
    judge: Judge,
    wanted: int,
    current: FitHint,
) -> LocalVariant | None:
    rank = quality_rank(quant)
    best: tuple[tuple[int, int], int, LocalVariant] | None = None
    for model, other in _variants(model_path, info, installed):
        other_quant = _quant_of(model.path, other)
        if other.tensor_bytes >= info.tensor_bytes or (rank and quality_rank(other_quant) >= rank):
            continue  # not more heavily quantized
        hint = judge(other)
        score = _score(hint, wanted)
        if score <= _score(current, wanted):
            continue  # no better than the model itself
        quality = other.tensor_bytes  # within fitting variants, the larger is the better quality
        if score[0] is Reach.AS_ASKED:
            score = (score[0], 0)  # as asked is as asked: then quality decides
        if best is None or (score, quality) > (best[0], best[1]):
            best = (score, quality, LocalVariant(model, other_quant, hint))
    return best[2] if best is not None else None


def _best_download(
    info: GgufInfo, quant: str | None, judge: Judge, wanted: int, current: FitHint, repo_id: str | None
) -> DownloadVariant | None:
    rank = quality_rank(quant)
    fallback: DownloadVariant | None = None
    for name, tensor_type in DOWNLOAD_LADDER.items():  # best quality first
        if rank and quality_rank(name) >= rank:
            continue
        smaller = requantized(info, tensor_type)
        if smaller.tensor_bytes >= info.tensor_bytes:
            continue
        hint = judge(smaller)
        hint = replace(hint, estimated=True, text=f"{hint.text} (planned from this model's header at {name})")
        if _reach(hint, wanted) is Reach.AS_ASKED:
            return DownloadVariant(name, repo_id, hint)
        if _score(hint, wanted) > _score(current, wanted):
            fallback = DownloadVariant(name, repo_id, hint)  # the smallest rung that helps at all
    return fallback


def _repo_id(model_path: Path, models_dir: Path | None) -> str | None:
    if models_dir is None or not is_inside(model_path, models_dir):
        return None
    try:
        parts = model_path.resolve().relative_to(models_dir.resolve()).parts
    except ValueError:
        return None
    if len(parts) != 3 or parts[0] == "imported":
        return None
    return f"{parts[0]}/{parts[1]}"
