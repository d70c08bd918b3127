"""Typed settings in one place: defaults and bounds per field, a schema version, a JSON file.

Layout of the file (schema 3):

    {"schema_version": 3,
     "sampling": {SamplingParams fields},          defaults for new replies
     "model": {ModelSettings fields},              applied when a model is loaded
     "model_overrides": {"model.gguf": {some ModelSettings fields}},  one model's own load settings
     "chat": {"system_prompt": "", "window_policy": "rolling"},   defaults for chats
     "presets": {"name": {SamplingParams fields}},                the user's presets
     "servers": [{SavedServer fields}],                            remote servers (their keys: the keyring)
     "appearance": {"language": "system", "theme": "system"},     interface language and colours
     "monitor": {MonitorSettings fields},                         alert thresholds, idle unload, degradation
     "hub": {"endpoint": ""},                                    a Hugging Face Hub mirror ("" : none)
     "serving": {ServingSettings fields}}                         how the window's API server serves the model

Each field of a section is declared once, with its bounds (`setting`), and the field tables
(`LOAD_FIELDS`, `MONITOR_FIELDS`, `SAMPLING_FIELDS`) are derived from those declarations; a
model's own load settings are checked by the same `LOAD_FIELDS`.

The servers, appearance, monitor, serving, model_overrides and hub sections came after schema 3 without a new version: a
file without one reads as its defaults, and an older Glassbox keeps a section as one it does
not know.

Schema 1 is the flat layout: every setting at the top level, as a hand-written file
naturally is (`{"temperature": 0.3}`); a file without `schema_version` is read as schema 1
and migrated. Schema 2 had no GPU layers: every model started on the CPU. Reading never
fails: a damaged file is kept beside the new one and the defaults are used, a bad value
falls back to its default, and each of these produces a notice for the user. Sections this
version does not know are kept and written back.

Per-chat settings (`ChatSettings`) hold only what a chat changes; everything else comes
from the defaults, so changing a default reaches every chat that did not override it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from app.core.backends.servers import SavedServer, ServerError
from app.core.chat.context_window import WindowPolicy
from app.core.hub.mirror import endpoint_problem, normal_endpoint
from app.core.inference.decoding_mode import DecodingSettings
from app.core.inference.load_options import CACHE_TYPES, ROPE_SCALING, load_option_problems
from app.core.inference.sampling import (
    PRESETS,
    SAMPLING_FIELDS,
    FieldSpec,
    InvalidSetting,
    SamplingParams,
    check_values,
    check_values_leniently,
    field_specs,
    lenient_sampling,
    setting,
)
from app.core.inference.slots import MAX_SLOTS
from app.core.inference.template_check import MAX_TEMPLATE_CHARS
from app.core.inference.template_choice import CHOICES as TEMPLATE_CHOICES
from app.core.inference.template_choice import MODEL_OWN
from app.core.memory.planner import ContextSettings
from app.core.monitor.alerts import AlertThresholds
from app.core.paths import app_paths
from app.core.reasoning.switch import AUTO as REASONING_AUTO
from app.core.reasoning.switch import OVERRIDES as REASONING_OVERRIDES
from app.core.support.atomic import atomic_write
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.load import LoadConfig, Speculative

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3
MAX_GPU_LAYERS = 1024  # above any model's layer count: llama.cpp offloads what the model has
MAX_SYSTEM_PROMPT_CHARS = 20_000
MAX_PRESET_NAME = 40
MAX_FILE_DEPTH = 16  # nesting a settings file may have; the schema needs 4, deeper is damage (or an attack)


class SettingsError(Exception):
    """Settings could not be saved; the message says what to do."""


@dataclass(frozen=True)
class ModelSettings:
    """How a model is loaded: the one place the settings panel, the GPU panel and the main window read it.

    Beside the context, threads and GPU layers, the load options of load_options.py; their
    defaults are llama-cpp-python's (flash attention aside: see `flash_attn`)."""

    n_ctx: int = setting(
        4096,
        N_("Context length"),
        "int",
        256,
        131072,
        N_(
            "How many tokens the model sees at once, prompt and reply together; more needs more memory. "
            "Past the length the model was trained for, replies get worse unless the RoPE settings below "
            "stretch it. Applies when the model is loaded again."
        ),
    )
    n_threads: int = setting(
        0,
        N_("Threads"),
        "int",
        0,
        256,
        N_(
            "CPU threads for generation (0 = automatic: one per physical core, which the bench's thread "
            "sweep checks). Applies when the model is loaded again."
        ),
    )  # 0: automatic (one per physical core)
    n_gpu_layers: int = setting(
        0,
        N_("GPU layers"),
        "int",
        0,
        MAX_GPU_LAYERS,
        N_(
            "Model layers put on the GPU (0 = CPU only); more is faster while they fit in the GPU's memory. "
            "Applies when the model is loaded again."
        ),
    )  # 0: everything on the CPU
    speculative: str = setting(
        Speculative.AUTO.value,
        N_("Speculative decoding"),
        "choice",
        0,
        0,
        N_(
            "Guess the next tokens from the conversation (prompt lookup) and check them in one batch: "
            "replies that repeat text (edits, code) come faster, and are the same tokens as without it. "
            "Auto drafts only where it pays and where batches decode exactly like single tokens "
            "(with flash attention on the CPU). Applies when the model is loaded again."
        ),
        tuple(mode.value for mode in Speculative),
    )
    draft_model: str = setting(
        "",
        N_("Draft model"),
        "file",
        0,
        0,
        N_(
            "A small model with the same vocabulary (a smaller size or quantization of the same family) "
            "guesses the next tokens instead of the conversation; the model checks them in one batch and "
            "keeps its own choice, so replies are unchanged. It pays when the draft is much faster than "
            "the model and often right. Its memory comes on top of the model's. Applies when the model "
            "is loaded again."
        ),
    )  # a small GGUF of the same vocabulary that drafts instead of prompt lookup; "" none
    mmproj: str = setting(
        "",
        N_("Projector (images)"),
        "file",
        0,
        0,
        N_(
            "The projector file (mmproj-*.gguf) made for this model: with it a vision model reads the images "
            "attached to a message. Each image takes tokens of the context. When none is chosen, the projector "
            "beside the model that belongs to it is used. Applies when the model is loaded again."
        ),
    )  # the mmproj GGUF of a vision model; "": the one beside it that belongs to it, if any
    flash_attn: bool = setting(
        False,
        N_("Flash attention"),
        "bool",
        0,
        0,
        N_(
            "llama.cpp's fused attention: less memory for attention's scratch, often faster on a GPU, and "
            "needed for a quantized V cache and for Auto speculative decoding. "
            "Applies when the model is loaded again."
        ),
    )
    type_k: str = setting(
        "f16",
        N_("K cache type"),
        "choice",
        0,
        0,
        N_(
            "How the attention keys are stored: f16 (exact), q8_0 (half the memory, close to f16) or "
            "q4_0 (a quarter, noticeably less exact). Applies when the model is loaded again."
        ),
        tuple(CACHE_TYPES),
    )
    type_v: str = setting(
        "f16",
        N_("V cache type"),
        "choice",
        0,
        0,
        N_(
            "How the attention values are stored, as for keys; anything but f16 needs flash attention."
            " Applies when the model is loaded again."
        ),
        tuple(CACHE_TYPES),
    )
    n_batch: int = setting(
        512,
        N_("Batch size (n_batch)"),
        "int",
        1,
        8192,
        N_(
            "Prompt tokens handed to llama.cpp at once; also the most tokens one speculative check holds."
            " Applies when the model is loaded again."
        ),
    )
    n_ubatch: int = setting(
        512,
        N_("Micro-batch (n_ubatch)"),
        "int",
        1,
        8192,
        N_(
            "Tokens computed at once inside a batch (at most n_batch): larger speeds up prompt processing "
            "up to a point, and the compute buffers grow with it. Applies when the model is loaded again."
        ),
    )
    use_mmap: bool = setting(
        True,
        N_("Map the model file (mmap)"),
        "bool",
        0,
        0,
        N_(
            "Read the weights from the file as they are needed instead of copying them first: a faster "
            "start, and the pages are shared with the system's file cache. Applies when the model is loaded again."
        ),
    )
    use_mlock: bool = setting(
        False,
        N_("Lock the model in RAM (mlock)"),
        "bool",
        0,
        0,
        N_(
            "Keep the weights in RAM so the system never swaps them out; needs the RAM free, and the "
            "system may refuse to lock that much. Applies when the model is loaded again."
        ),
    )
    rope_freq_base: float = setting(
        0.0,
        N_("RoPE frequency base"),
        "float",
        0,
        1e9,
        N_(
            "The position encoding's frequency base (0 = the model's own); raising it stretches the context "
            "past the training length (NTK scaling). Applies when the model is loaded again."
        ),
    )  # 0: the model's own
    rope_freq_scale: float = setting(
        0.0,
        N_("RoPE frequency scale"),
        "float",
        0,
        1,
        N_(
            "Position interpolation (0 = the model's own): 0.5 lets a model trained for 4,096 tokens read "
            "8,192, with some loss of quality. Applies when the model is loaded again."
        ),
    )
    rope_scaling: str = setting(
        "model",
        N_("RoPE scaling"),
        "choice",
        0,
        0,
        N_(
            "How positions past the training length are stretched with the scale above: the model's own "
            "way, none, linear (plain position interpolation) or YaRN, which keeps nearby positions sharp "
            "and loses less quality for the same stretch. Applies when the model is loaded again."
        ),
        tuple(ROPE_SCALING),
    )
    reasoning: str = setting(
        REASONING_AUTO,
        N_("Reasoning markers"),
        "choice",
        0,
        0,
        N_(
            "How the model marks its reasoning apart from its answer. Auto reads it from the model's chat "
            "template; name the markers for a thinking model whose template does not say (think: <think>…"
            "</think>, magistral: [THINK]…[/THINK], harmony: gpt-oss's channels, seed: <seed:think>, gemma4: "
            "Gemma 4's thought channel), or none to show everything as the answer. Applies when the model is "
            "loaded again."
        ),
        REASONING_OVERRIDES,
    )
    chat_template: str = setting(
        MODEL_OWN,
        N_("Chat template"),
        "choice",
        0,
        0,
        N_(
            "How a chat is turned into the text the model reads. The model's own: the template in its file, "
            "else llama.cpp's built-in one that its tokens point to (Load details says which). Name a family "
            "for a model whose template is missing or wrong, or Raw completion for a base model: no template, "
            "the text is continued as it is. Applies when the model is loaded again."
        ),
        TEMPLATE_CHOICES,
    )
    chat_template_text: str = setting(
        "",
        N_("Your own chat template"),
        "text",
        0,
        MAX_TEMPLATE_CHARS,
        N_(
            "The Jinja text of a chat template of your own, used when the Chat template is Your own: "
            "a sample conversation is rendered with it before it is saved, and a template that fails is refused. "
            "Applies when the model is loaded again."
        ),
    )  # used with chat_template "custom"; edited in the template editor the Chat template row opens

    def load_config(self, path: Path) -> LoadConfig:
        """How `path` is loaded with these settings: each field as the engine takes it."""
        values = {item.name: getattr(self, item.name) for item in dataclass_fields(self)}
        return LoadConfig(path, **{name: _AS_LOADED.get(name, _same)(value) for name, value in values.items()})

    def context_settings(self) -> ContextSettings:
        """What the memory plan reads of these settings (no model file needed for that)."""
        return ContextSettings.for_config(self.load_config(Path()))


def _same(value: Any) -> Any:
    return value


# The fields the engine takes in another type than the file stores (LoadConfig mirrors ModelSettings'
# fields one for one, a test checks it): how each is converted.
_AS_LOADED: dict[str, Callable[[Any], Any]] = {
    "n_threads": lambda threads: threads or None,
    "speculative": Speculative,
    "draft_model": lambda path: Path(path) if path else None,
    "mmproj": lambda path: Path(path) if path else None,
}

LOAD_FIELDS: dict[str, FieldSpec] = field_specs(ModelSettings)
# Typed in the GPU offload panel, whose slider knows the model's layer count, rather than in
# the settings panel's "Model" fields; checked and saved like them.
GPU_LAYERS_FIELD = LOAD_FIELDS["n_gpu_layers"]
# Edited in the template editor that the Chat template field opens, not as a field of its own.
TEMPLATE_TEXT_FIELD = LOAD_FIELDS["chat_template_text"]
MODEL_FIELDS: dict[str, FieldSpec] = {
    name: spec for name, spec in LOAD_FIELDS.items() if name not in (GPU_LAYERS_FIELD.name, TEMPLATE_TEXT_FIELD.name)
}


@dataclass(frozen=True)
class MonitorSettings(AlertThresholds):
    """Alert thresholds (0 turns an alert off; declared in AlertThresholds), idle unload, and how a model
    that does not fit degrades."""

    idle_unload_minutes: int = setting(
        0,
        N_("Unload an idle model after (minutes)"),
        "int",
        0,
        10_080,
        N_(
            "Unload the model by itself after this long without use; the next message loads it again. "
            "0 keeps it loaded."
        ),
    )
    # A model that does not fit: load the smaller installed variant at once (always said), instead of asking.
    switch_to_smaller_variant: bool = False

    def alert_thresholds(self) -> AlertThresholds:
        return AlertThresholds(**{item.name: getattr(self, item.name) for item in dataclass_fields(AlertThresholds)})


MONITOR_FIELDS: dict[str, FieldSpec] = field_specs(MonitorSettings)
# yes/no settings of the monitor section: the fields without a spec (no bounds to check)
MONITOR_SWITCHES = tuple(item.name for item in dataclass_fields(MonitorSettings) if item.name not in MONITOR_FIELDS)


@dataclass(frozen=True)
class ServingSettings:
    """How the window's API server (the Server panel) serves the loaded model; read when it starts."""

    parallel: int = setting(
        0,
        N_("Parallel replies"),
        "int",
        0,
        MAX_SLOTS,
        N_(
            "How many replies the model writes at once, in one batch, while the server runs; the window's chat "
            "is one of them. 0: what the memory plan allows, at most 4. Applied when the server starts."
        ),
    )


SERVING_FIELDS: dict[str, FieldSpec] = field_specs(ServingSettings)


@dataclass(frozen=True)
class ChatDefaults:
    system_prompt: str = ""  # empty: the model's own default, if its template has one
    window_policy: WindowPolicy = WindowPolicy.ROLLING


class Language(StrEnum):
    """The interface language; SYSTEM follows the operating system's locale."""

    SYSTEM = "system"
    ENGLISH = "en"
    SIMPLIFIED_CHINESE = "zh_CN"


class Theme(StrEnum):
    """The colours; SYSTEM follows the operating system's light or dark scheme, live."""

    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True)
class Appearance:
    language: Language = Language.SYSTEM
    theme: Theme = Theme.SYSTEM

    def to_dict(self) -> dict[str, str]:
        return {"language": self.language.value, "theme": self.theme.value}


@dataclass(frozen=True)
class HubSettings:
    """The Hugging Face Hub to use: a mirror's address, or "" for HF_ENDPOINT or huggingface.co (core/hub/mirror.py)."""

    endpoint: str = ""


@dataclass(frozen=True)
class Settings:
    sampling: SamplingParams = field(default_factory=SamplingParams)
    model: ModelSettings = field(default_factory=ModelSettings)
    chat: ChatDefaults = field(default_factory=ChatDefaults)
    presets: dict[str, SamplingParams] = field(default_factory=dict)  # the user's own presets
    servers: tuple[SavedServer, ...] = ()  # OpenAI-compatible servers, in the order they were added
    appearance: Appearance = field(default_factory=Appearance)
    monitor: MonitorSettings = field(default_factory=MonitorSettings)
    hub: HubSettings = field(default_factory=HubSettings)
    serving: ServingSettings = field(default_factory=ServingSettings)
    # Per-model load settings: model key (its file's name) -> the model fields it sets otherwise than `model`
    model_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The tools the user said "Always allow this tool" to, as (MCP server, tool) pairs: they run unasked, in every
    # chat, until the user takes that back on the MCP servers page.
    tools_always_allowed: tuple[tuple[str, str], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)  # sections a newer Glassbox wrote; kept as they are

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
            "schema_version": SCHEMA_VERSION,
            "sampling": self.sampling.to_dict(),
            "model": asdict(self.model),
            "chat": {"system_prompt": self.chat.system_prompt, "window_policy": self.chat.window_policy.value},
            "presets": {name: params.to_dict() for name, params in self.presets.items()},
            "servers": [server.to_dict() for server in self.servers],
            "appearance": self.appearance.to_dict(),
            "monitor": asdict(self.monitor),
            "hub": asdict(self.hub),
            "serving": asdict(self.serving),
            "model_overrides": {key: dict(values) for key, values in self.model_overrides.items()},
            "tools_always_allowed": [{"server": s, "tool": t} for s, t in self.tools_always_allowed],
        }

    def with_tool_always_allowed(self, server: str, tool: str) -> Settings:
        """The tool `tool` of the MCP server `server` runs unasked from now on."""
        if (server, tool) in self.tools_always_allowed:
            return self
        return replace(self, tools_always_allowed=(*self.tools_always_allowed, (server, tool)))

    def without_tool_always_allowed(self, server: str, tool: str) -> Settings:
        """The tool is asked about again before each call."""
        kept = tuple(pair for pair in self.tools_always_allowed if pair != (server, tool))
        return replace(self, tools_always_allowed=kept)

    def server(self, name: str) -> SavedServer | None:
        return next((server for server in self.servers if server.name.casefold() == name.casefold()), None)

    def with_server(self, server: SavedServer) -> Settings:
        """Add the server, or replace the one of the same name where it was."""
        if self.server(server.name) is None:
            return replace(self, servers=(*self.servers, server))
        same = server.name.casefold()
        return replace(self, servers=tuple(server if s.name.casefold() == same else s for s in self.servers))

    def without_server(self, name: str) -> Settings:
        return replace(self, servers=tuple(s for s in self.servers if s.name.casefold() != name.casefold()))

    def model_for(self, key: str) -> ModelSettings:
        """How the model `key` is loaded: its own load settings where it has them, the model section's elsewhere."""
        return replace(self.model, **self.model_overrides.get(key, {}))

    def with_model(self, values: Mapping[str, Any], key: str | None = None) -> Settings:
        """Change model load settings, each checked against its bounds (InvalidSetting names the first bad one).

        With a model `key`, the values are that model's own; one equal to the model section's stops being its own.
        """
        checked = check_values(LOAD_FIELDS, values, "model")
        model = replace(self.model if key is None else self.model_for(key), **checked)
        problems = load_option_problems(model.load_config(Path()))  # options that do not go together
        if problems:
            raise InvalidSetting(next(iter(values), "model"), problems[0])
        if key is None:
            return replace(self, model=model)
        own = {name: value for name, value in asdict(model).items() if getattr(self.model, name) != value}
        overrides = {k: v for k, v in self.model_overrides.items() if k != key}
        return replace(self, model_overrides={**overrides, key: own} if own else overrides)

    def without_model(self, key: str) -> Settings:
        """Forget the model `key`'s own load settings: it loads with the model section's."""
        return replace(self, model_overrides={k: v for k, v in self.model_overrides.items() if k != key})

    def with_monitor(self, values: Mapping[str, Any]) -> Settings:
        """Change monitor settings, each checked (InvalidSetting names the first bad one)."""
        numbers = {k: v for k, v in values.items() if k not in MONITOR_SWITCHES}
        switches = {k: v for k, v in values.items() if k in MONITOR_SWITCHES}
        for name, value in switches.items():
            if not isinstance(value, bool):
                raise InvalidSetting(
                    name, fill(N_("{name} must be true or false, not {value}."), name=name, value=f"{value!r}")
                )
        checked = check_values(MONITOR_FIELDS, numbers, "monitor")
        return replace(self, monitor=replace(self.monitor, **checked, **switches))

    def with_serving(self, values: Mapping[str, Any]) -> Settings:
        """Change how the API server serves, each value checked (InvalidSetting names the first bad one)."""
        return replace(self, serving=replace(self.serving, **check_values(SERVING_FIELDS, values, "serving")))

    def with_preset(self, name: str, params: SamplingParams) -> Settings:
        """Save `params` as a user preset (replacing one of the same name)."""
        name = " ".join(name.split())
        if not name:
            raise InvalidSetting("preset", N_("A preset needs a name."))
        if len(name) > MAX_PRESET_NAME:
            raise InvalidSetting(
                "preset",
                fill(N_("A preset name can be at most {limit} characters."), limit=MAX_PRESET_NAME),
            )
        if name.casefold() in (builtin.casefold() for builtin in PRESETS):
            raise InvalidSetting("preset", fill(N_("“{name}” is a built-in preset; choose another name."), name=name))
        return replace(self, presets={**self.presets, name: params})

    def without_preset(self, name: str) -> Settings:
        return replace(self, presets={k: v for k, v in self.presets.items() if k != name})

    def preset_values(self, name: str) -> dict[str, Any]:
        """What applying the preset sets: a built-in one sets how tokens are chosen, a user one everything."""
        if name in PRESETS:
            return dict(PRESETS[name])
        if name in self.presets:
            return self.presets[name].to_dict()
        raise InvalidSetting("preset", fill(N_("There is no preset called “{name}”."), name=name))


@dataclass(frozen=True)
class ChatSettings:
    """What one chat changes from the defaults; None (or no entry) means "use the default"."""

    system_prompt: str | None = None
    window_policy: WindowPolicy | None = None
    sampling: dict[str, Any] = field(default_factory=dict)  # field name -> value
    decoding: DecodingSettings = field(default_factory=DecodingSettings)  # sampling, greedy or beam search
    tool_servers: tuple[str, ...] = ()  # the MCP servers (mcp.json names) whose tools replies may call
    # (server, tool): tools of those servers switched off in this chat; every other tool of theirs is on,
    # so a tool a server adds later is on until switched off
    tools_off: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"sampling": dict(self.sampling)}
        if self.decoding != DecodingSettings():
            data["decoding"] = self.decoding.to_dict()
        if self.tool_servers:
            data["tool_servers"] = list(self.tool_servers)
        if self.tools_off:
            data["tools_off"] = [{"server": s, "tool": t} for s, t in self.tools_off]
        if self.system_prompt is not None:
            data["system_prompt"] = self.system_prompt
        if self.window_policy is not None:
            data["window_policy"] = self.window_policy.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChatSettings:
        """Lenient (the chat database is ours, but may come from another version): bad entries are dropped."""
        sampling: dict[str, Any] = {}
        raw = data.get("sampling")
        for name, value in raw.items() if isinstance(raw, Mapping) else ():
            spec = SAMPLING_FIELDS.get(name)
            try:
                if spec is not None:
                    sampling[name] = _json_value(spec.check(value))
            except InvalidSetting as error:
                log.warning("Chat setting dropped: %s", error.message)
        prompt = data.get("system_prompt")
        servers = data.get("tool_servers")
        return cls(
            system_prompt=prompt if isinstance(prompt, str) else None,
            window_policy=_policy(data.get("window_policy")),
            sampling=sampling,
            decoding=DecodingSettings.from_dict(data.get("decoding")),
            tool_servers=tuple(dict.fromkeys(n for n in servers if isinstance(n, str) and n))
            if isinstance(servers, list)
            else (),
            tools_off=_read_tool_pairs(data.get("tools_off")),
        )

    def tool_on(self, server: str, tool: str) -> bool:
        """Whether the model may call `tool` of `server` in this chat, `server` being one of its tool servers."""
        return (server, tool) not in self.tools_off

    def with_tool(self, server: str, tool: str, on: bool) -> ChatSettings:
        """The tool switched on or off in this chat."""
        kept = tuple(pair for pair in self.tools_off if pair != (server, tool))
        return replace(self, tools_off=kept if on else (*kept, (server, tool)))

    def with_sampling(self, values: Mapping[str, Any], defaults: SamplingParams) -> ChatSettings:
        """Set sampling values for this chat (checked); values equal to the default stop being overrides."""
        merged = effective_sampling(defaults, self).with_values(values)
        return replace(self, sampling=merged.differences(defaults))


@dataclass(frozen=True)
class EffectiveSettings:
    """What a chat actually uses: its own values where it has them, the defaults elsewhere."""

    sampling: SamplingParams
    system_prompt: str
    window_policy: WindowPolicy


def effective_sampling(defaults: SamplingParams, chat: ChatSettings) -> SamplingParams:
    return defaults.with_values(chat.sampling)


def effective(settings: Settings, chat: ChatSettings) -> EffectiveSettings:
    return EffectiveSettings(
        sampling=effective_sampling(settings.sampling, chat),
        system_prompt=settings.chat.system_prompt if chat.system_prompt is None else chat.system_prompt,
        window_policy=chat.window_policy or settings.chat.window_policy,
    )


def check_system_prompt(text: str) -> str:
    if len(text) > MAX_SYSTEM_PROMPT_CHARS:
        raise InvalidSetting(
            "system_prompt",
            fill(
                N_("The system prompt can be at most {limit} characters."),
                limit=f"{MAX_SYSTEM_PROMPT_CHARS:,}",
            ),
        )
    return text


@dataclass
class LoadedSettings:
    settings: Settings
    notices: list[str] = field(default_factory=list)  # what the user should be told (a reset, a fallback)


def load_settings(path: Path) -> LoadedSettings:
    """Read the settings file; never raises. Missing file: defaults, no notice.

    A file of any shape that cannot be settings (not JSON, not UTF-8, nested thousands deep,
    a folder in its place, values no migration expects) is set aside with a notice.
    """
    if not path.exists():
        return LoadedSettings(Settings())
    try:
        data = _parse(path)
    except RecursionError:  # the JSON reader's own limit, far above MAX_FILE_DEPTH
        return _reset_damaged(path, ValueError(f"the file is nested more than {MAX_FILE_DEPTH} levels deep"))
    except (OSError, ValueError) as error:
        return _reset_damaged(path, error)
    notices: list[str] = []
    version = data.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return _reset_damaged(path, ValueError(f"unknown schema version {version!r}"))
    if version > SCHEMA_VERSION:
        notices.append(
            fill(
                N_(
                    "The settings were written by a newer Glassbox (schema {version}); the settings "
                    "this version knows are used and the others are kept."
                ),
                version=version,
            )
        )
    try:
        for step in range(version, SCHEMA_VERSION):
            data = _MIGRATIONS[step](data)
            log.info("Settings migrated from schema %d to %d", step, step + 1)
        settings = _read(data, notices)
    except (ValueError, TypeError, OverflowError) as error:  # a value of a shape no reader expects
        return _reset_damaged(path, error)
    for notice in notices:
        log.warning("Settings: %s", notice)
    return LoadedSettings(settings, notices)


def read_appearance(path: Path) -> Appearance:
    """The language and theme in the settings file, read before the window exists; never raises, never moves files.

    A damaged file reads as the defaults here: `load_settings` (called later by the settings
    store) is the one that sets it aside and tells the user.
    """
    try:
        data = _parse(path)
    except (OSError, ValueError, RecursionError):
        return Appearance()
    return _read_appearance(data.get("appearance"), [])


def _parse(path: Path) -> dict[str, Any]:
    """The file's JSON object; ValueError when it is not one, or is nested deeper than settings ever are."""
    data = json.loads(path.read_bytes().decode("utf-8"))
    if not isinstance(data, dict):
        raise ValueError("the file does not hold a JSON object")
    if _depth(data) > MAX_FILE_DEPTH:
        raise ValueError(f"the file is nested more than {MAX_FILE_DEPTH} levels deep")
    return data


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in `value`, counted without recursion."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_FILE_DEPTH:
            break
        pending.extend((child, depth + 1) for child in children)
    return deepest


def save_settings(path: Path, settings: Settings) -> None:
    """Write atomically (a crash leaves the old file or the new one, never half of one)."""
    previous_version = _file_version(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if previous_version > SCHEMA_VERSION:
            backup = path.with_name(f"{path.name}.schema-{previous_version}.bak")
            if not backup.exists():
                atomic_write(backup, path.read_bytes())
        atomic_write(path, json.dumps(settings.to_dict(), indent=2, ensure_ascii=False))
    except OSError as error:
        log.error("Could not save settings to %s: %s", path, error)
        raise SettingsError(
            fill(
                N_(
                    "The settings could not be saved to {path} ({strerror}). Check that the folder is "
                    "writable and the disk is not full; the settings stay in use until Glassbox "
                    "closes."
                ),
                path=path,
                strerror=error.strerror or error,
            )
        ) from error


def _file_version(path: Path) -> int:
    try:
        version = json.loads(path.read_text(encoding="utf-8")).get("schema_version", 1)
    except (OSError, ValueError, AttributeError, RecursionError):  # a damaged file that could not be set aside
        return 0
    return version if isinstance(version, int) else 0


def _reset_damaged(path: Path, error: Exception) -> LoadedSettings:
    aside = path.with_name(f"{path.name}.damaged-{datetime.now():%Y%m%d-%H%M%S}")
    try:
        path.replace(aside)
        kept = f"it was kept as {aside.name}"
    except OSError as move_error:
        kept = f"it could not be set aside ({move_error.strerror or move_error}) and will be overwritten"
    notice = f"The settings file could not be read ({error}); {kept} and the defaults are in use."
    log.error("%s", notice)
    return LoadedSettings(Settings(), [notice])


def _migrate_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Flat keys into sections."""
    sampling = {k: v for k, v in data.items() if k in SAMPLING_FIELDS}
    model = {k: v for k, v in data.items() if k in LOAD_FIELDS}
    chat = {k: v for k, v in data.items() if k in ("system_prompt", "window_policy")}
    known = {*sampling, *model, *chat, "schema_version"}
    rest = {k: v for k, v in data.items() if k not in known}
    return {**rest, "schema_version": 2, "sampling": sampling, "model": model, "chat": chat}


def _migrate_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """GPU layers join the model section: a schema-2 Glassbox loaded every model with none."""
    model = data.get("model")
    if isinstance(model, Mapping):
        data = {**data, "model": {"n_gpu_layers": 0, **model}}
    return {**data, "schema_version": 3}


_MIGRATIONS = {1: _migrate_1_to_2, 2: _migrate_2_to_3}


def _read(data: dict[str, Any], notices: list[str]) -> Settings:
    sampling, problems = lenient_sampling(data.get("sampling"))
    notices.extend(problems)
    presets: dict[str, SamplingParams] = {}
    raw_presets = data.get("presets")
    for name, values in raw_presets.items() if isinstance(raw_presets, Mapping) else ():
        params, problems = lenient_sampling(values)
        notices.extend(fill(N_("Preset “{name}”: {problem}"), name=name, problem=problem) for problem in problems)
        presets[str(name)] = params
    known = {"schema_version", "sampling", "model", "model_overrides", "chat", "presets", "servers"}
    known |= {"appearance", "monitor", "tools_always_allowed", "hub", "serving"}
    model = _read_model(data.get("model"), notices)
    return Settings(
        sampling=sampling,
        model=model,
        model_overrides=_read_model_overrides(data.get("model_overrides"), model, notices),
        chat=_read_chat(data.get("chat"), notices),
        presets=presets,
        servers=_read_servers(data.get("servers"), notices),
        appearance=_read_appearance(data.get("appearance"), notices),
        monitor=_read_monitor(data.get("monitor"), notices),
        tools_always_allowed=_read_tool_pairs(data.get("tools_always_allowed")),
        hub=_read_hub(data.get("hub"), notices),
        serving=_read_serving(data.get("serving"), notices),
        extra={k: v for k, v in data.items() if k not in known},
    )


def _read_servers(data: Any, notices: list[str]) -> tuple[SavedServer, ...]:
    servers: list[SavedServer] = []
    for entry in data if isinstance(data, list) else ():
        try:
            server = SavedServer.from_dict(entry if isinstance(entry, Mapping) else {})
        except ServerError as error:
            notices.append(fill(N_("A saved server was dropped: {error}."), error=error))
            continue
        if all(server.name.casefold() != kept.name.casefold() for kept in servers):
            servers.append(server)
    return tuple(servers)


def _read_hub(data: Any, notices: list[str]) -> HubSettings:
    endpoint = data.get("endpoint", "") if isinstance(data, Mapping) else ""
    problem = endpoint_problem(endpoint) if isinstance(endpoint, str) else N_("it is not text")
    if problem is not None:
        notices.append(
            fill(N_("The Hub mirror setting was dropped ({problem}); the default Hub is used."), problem=problem)
        )
        return HubSettings()
    return HubSettings(normal_endpoint(endpoint))


def _read_appearance(data: Any, notices: list[str]) -> Appearance:
    appearance = Appearance()
    if not isinstance(data, Mapping):
        return appearance
    if "language" in data:
        try:
            appearance = replace(appearance, language=Language(data["language"]))
        except ValueError:
            notices.append(
                fill(
                    N_("Unknown interface language {value}; the system's language is used."),
                    value=f"{data['language']!r}",
                )
            )
    if "theme" in data:
        try:
            appearance = replace(appearance, theme=Theme(data["theme"]))
        except ValueError:
            notices.append(
                fill(N_("Unknown theme {value}; the system's colours are used."), value=f"{data['theme']!r}")
            )
    return appearance


def _read_model(data: Any, notices: list[str]) -> ModelSettings:
    defaults = ModelSettings()
    if not isinstance(data, Mapping):
        return defaults
    good, problems = check_values_leniently(LOAD_FIELDS, data, defaults, "model")
    notices.extend(problems)
    return replace(defaults, **good)


_TEMPLATE_SETTINGS = ("chat_template", TEMPLATE_TEXT_FIELD.name)


def _read_model_overrides(data: Any, model: ModelSettings, notices: list[str]) -> dict[str, dict[str, Any]]:
    """Each model's own load settings, checked by the model fields; a bad value follows the model section."""
    overrides: dict[str, dict[str, Any]] = {}
    for key, values in data.items() if isinstance(data, Mapping) else ():
        if not isinstance(values, Mapping):
            continue
        good, problems = check_values_leniently(LOAD_FIELDS, values, model, "model")
        clashes = load_option_problems(replace(model, **good).load_config(Path()))  # options that do not go together
        if clashes:
            # A template of its own that no longer renders costs the template only; other clashes, all of them.
            others = {name: value for name, value in good.items() if name not in _TEMPLATE_SETTINGS}
            left = load_option_problems(replace(model, **others).load_config(Path()))
            good, problems = (others if not left else {}), [*problems, *clashes]
        notices.extend(fill(N_("Model “{name}”: {problem}"), name=key, problem=problem) for problem in problems)
        if good:
            overrides[str(key)] = good
    return overrides


def _read_tool_pairs(data: Any) -> tuple[tuple[str, str], ...]:
    """The (server, tool) pairs of a list of {"server", "tool"} objects (the tools always allowed, a chat's tools
    switched off); an entry of another shape is not one (that tool is asked about, or on)."""
    pairs: dict[tuple[str, str], None] = {}
    for entry in data if isinstance(data, list) else ():
        server, tool = (entry.get(key) if isinstance(entry, Mapping) else None for key in ("server", "tool"))
        if isinstance(server, str) and isinstance(tool, str) and server and tool:
            pairs[(server, tool)] = None
    return tuple(pairs)


def _read_monitor(data: Any, notices: list[str]) -> MonitorSettings:
    defaults = MonitorSettings()
    if not isinstance(data, Mapping):
        return defaults
    numbers = {k: v for k, v in data.items() if k not in MONITOR_SWITCHES}
    good, problems = check_values_leniently(MONITOR_FIELDS, numbers, defaults, "monitor")
    notices.extend(problems)
    for name in MONITOR_SWITCHES:
        if name not in data:
            continue
        if isinstance(data[name], bool):
            good[name] = data[name]
        else:
            notices.append(
                fill(
                    N_("{name} must be true or false, not {value}. The default ({default}) is used."),
                    name=name,
                    value=f"{data[name]!r}",
                    default=getattr(defaults, name),
                )
            )
    return replace(defaults, **good)


def _read_serving(data: Any, notices: list[str]) -> ServingSettings:
    defaults = ServingSettings()
    if not isinstance(data, Mapping):
        return defaults
    good, problems = check_values_leniently(SERVING_FIELDS, data, defaults, "serving")
    notices.extend(problems)
    return replace(defaults, **good)


def _read_chat(data: Any, notices: list[str]) -> ChatDefaults:
    chat = ChatDefaults()
    if not isinstance(data, Mapping):
        return chat
    prompt = data.get("system_prompt", "")
    if isinstance(prompt, str) and len(prompt) <= MAX_SYSTEM_PROMPT_CHARS:
        chat = replace(chat, system_prompt=prompt)
    else:
        notices.append(N_("The default system prompt was not a text of a usable length; it is empty now."))
    if "window_policy" in data:
        policy = _policy(data["window_policy"])
        if policy is None:
            notices.append(
                fill(
                    N_("Unknown window policy {value}; the rolling window is used."), value=f"{data['window_policy']!r}"
                )
            )
        else:
            chat = replace(chat, window_policy=policy)
    return chat


def _policy(value: Any) -> WindowPolicy | None:
    try:
        return WindowPolicy(value)
    except ValueError:
        return None


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def saved_context() -> ContextSettings:
    """The context the saved settings load a model with: what the GPU panel and the fit hints plan for."""
    return load_settings(app_paths().settings_file).settings.model.context_settings()
