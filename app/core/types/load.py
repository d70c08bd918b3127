"""What a model load is asked for (LoadConfig) and what it did, stage by stage (LoadReport)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path


class Speculative(str, Enum):
    """Whether the engine drafts tokens by prompt lookup."""

    OFF = "off"
    AUTO = "auto"  # draft while it pays in this chat
    ON = "on"  # always draft when the lookup finds something


@dataclass(frozen=True)
class LoadConfig:
    """A load as the engine takes it: the model file and the model settings' fields in the engine's types.

    The fields, their defaults and bounds are declared once, in app.core.settings.ModelSettings (which
    builds this with `load_config`); they are named here again only so the engine reads them typed
    without importing the settings, and a test (tests/core/test_settings_fields.py) holds the two equal.
    """

    model_path: Path
    n_ctx: int = 4096
    n_gpu_layers: int = 0
    n_threads: int | None = None  # None: physical cores
    n_batch: int = 512
    speculative: Speculative = Speculative.AUTO  # drafting by prompt lookup (drafting.py)
    draft_model: Path | None = None  # drafting by this small model instead (draft_model.py); unused when Off
    mmproj: Path | None = None  # the projector that lets the model read images (projector.py); None: text only
    # Load options (load_options.py); the defaults are llama-cpp-python's.
    flash_attn: bool = False  # llama.cpp's fused attention; also makes batches decode like single tokens on the CPU
    type_k: str = "f16"  # KV cache types: f16, q8_0 or q4_0
    type_v: str = "f16"  # anything but f16 needs flash attention
    n_ubatch: int = 512
    use_mmap: bool = True
    use_mlock: bool = False
    rope_freq_base: float = 0.0  # 0: the model's own
    rope_freq_scale: float = 0.0  # 0: the model's own
    rope_scaling: str = "model"  # model, none, linear or yarn (load_options.ROPE_SCALING)
    reasoning: str = "auto"  # the reasoning markers: auto (as the template says), none, or a family's name
    chat_template: str = "model"  # the model's own (else one its tokens point to), raw, a family's name, or custom
    chat_template_text: str = ""  # the Jinja text of a custom chat template


@dataclass(frozen=True)
class LoadStage:
    name: str
    seconds: float
    detail: str = ""
    start_s: float = 0.0  # when the stage began, in seconds after the load began


@dataclass
class LoadReport:
    """What a load did, stage by stage, for the glass."""

    config: LoadConfig
    stages: list[LoadStage] = field(default_factory=list)
    started_at: float = 0.0  # time.perf_counter() when the load began (places log lines on the timeline)
    n_layers: int = 0
    n_ctx_train: int = 0
    chat_template: str = ""  # the template the prompt is built with (template_choice.py)
    template_note: str = ""  # where it came from, for Load details (a core text)
    template_warning: str = ""  # said at load: a base model ("" nothing to say)
    server: str = ""  # the saved server the model runs on; "" for this machine (config.model_path is then a file)
    draft_refused: str = ""  # why the draft model asked for does not draft (the model loaded without it)
    reasoning_family: str = ""  # the markers a thinking model writes its reasoning in ("": it does not reason)
    thinking_switch: str = ""  # how thinking is switched (app/core/reasoning/switch.py); "" without reasoning

    @property
    def total_seconds(self) -> float:
        return sum(stage.seconds for stage in self.stages)

    @property
    def context_past_training(self) -> bool:
        """The context is longer than the model was trained for (quality may drop past that length
        unless the RoPE frequency base or scale stretch it): worth a warning where the user reads it."""
        return self.config.n_ctx > self.n_ctx_train > 0
