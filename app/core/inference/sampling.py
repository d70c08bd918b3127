"""Sampling parameters for one reply: the fields, their bounds and meaning, and presets.

Every field of `SamplingParams` is declared once, with its default, bounds and a one-line
explanation (`setting`); `SAMPLING_FIELDS` is derived from those declarations
(`field_specs`). The settings panel builds its form from these specs and the settings file
is validated with them, so the bounds live in one place. The model and monitor settings
declare their fields the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from typing import Any

from app.core.reasoning.switch import EFFORTS
from app.core.support.formatting import fill
from app.core.support.user_text import N_


class InvalidSetting(ValueError):
    """A value the user (or a settings file) gave is outside what the field accepts."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


MAX_PATH_CHARS = 4096  # PATH_MAX on Linux


@dataclass(frozen=True)
class FieldSpec:
    """One setting: what it is called, what it accepts and what it does.

    kind: "float", "int", "seed" (None = random, else a whole number), "strings" (a tuple of
    texts, at most `maximum` of them), "bool" (on or off), "choice" (one of `choices`;
    minimum and maximum unused for these two), "file" (a GGUF file's path, "" for none) or "text"
    (a text of at most `maximum` characters).
    """

    name: str
    label: str
    kind: str
    minimum: float
    maximum: float
    explanation: str
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        """The value converted to the field's type, or InvalidSetting saying what is wrong."""
        if self.kind == "strings":
            return self._check_strings(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidSetting(
                    self.name,
                    fill(
                        N_("{label} must be on or off (true or false), not {value}."),
                        label=self.label,
                        value=repr(value),
                    ),
                )
            return value
        if self.kind == "choice":
            if value not in self.choices:
                allowed = ", ".join(self.choices)
                raise InvalidSetting(
                    self.name,
                    fill(
                        N_("{label} must be one of {allowed}, not {value}."),
                        label=self.label,
                        allowed=allowed,
                        value=repr(value),
                    ),
                )
            return str(value)
        if self.kind == "file":
            return self._check_file(value)
        if self.kind == "text":
            return self._check_text(value)
        if self.kind == "seed" and value is None:
            return None
        number = self._as_number(value)
        if not self.minimum <= number <= self.maximum:
            raise InvalidSetting(
                self.name,
                fill(
                    N_("{label} must be between {minimum} and {maximum}, not {value}."),
                    label=self.label,
                    minimum=_fmt(self.minimum),
                    maximum=_fmt(self.maximum),
                    value=_fmt(number),
                ),
            )
        return float(number) if self.kind == "float" else int(number)

    def _as_number(self, value: Any) -> float:
        if isinstance(value, bool):
            raise InvalidSetting(
                self.name, fill(N_("{label} must be a number, not {value}."), label=self.label, value=f"{value!r}")
            )
        if isinstance(value, str):
            try:
                value = float(value.strip().replace(",", "."))
            except ValueError:
                raise InvalidSetting(
                    self.name, fill(N_("{label} must be a number, not “{value}”."), label=self.label, value=value)
                ) from None
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InvalidSetting(
                self.name, fill(N_("{label} must be a number, not {value}."), label=self.label, value=f"{value!r}")
            )
        if self.kind != "float" and value != int(value):
            raise InvalidSetting(
                self.name, fill(N_("{label} must be a whole number, not {value}."), label=self.label, value=_fmt(value))
            )
        return float(value)

    def _check_file(self, value: Any) -> str:
        if not isinstance(value, str) or "\x00" in value or len(value) > MAX_PATH_CHARS:
            raise InvalidSetting(self.name, fill(N_("{label} must be a file's path."), label=self.label))
        if value and not value.lower().endswith(".gguf"):
            raise InvalidSetting(
                self.name, fill(N_("{label} must be a GGUF file, not {value}."), label=self.label, value=value)
            )
        return value

    def _check_text(self, value: Any) -> str:
        if not isinstance(value, str) or "\x00" in value:
            raise InvalidSetting(self.name, fill(N_("{label} must be a text."), label=self.label))
        if len(value) > self.maximum:
            raise InvalidSetting(
                self.name,
                fill(
                    N_("{label}: at most {maximum} characters, not {n}."),
                    label=self.label,
                    maximum=f"{self.maximum:,.0f}",
                    n=f"{len(value):,}",
                ),
            )
        return value

    def _check_strings(self, value: Any) -> tuple[str, ...]:
        if isinstance(value, str) or not isinstance(value, (list, tuple)):
            raise InvalidSetting(self.name, fill(N_("{label} must be a list of texts."), label=self.label))
        items = tuple(value)
        if len(items) > self.maximum:
            raise InvalidSetting(
                self.name,
                fill(
                    N_("{label}: at most {maximum} entries, not {n_items}."),
                    label=self.label,
                    maximum=_fmt(self.maximum),
                    n_items=len(items),
                ),
            )
        for item in items:
            if not isinstance(item, str) or not item:
                raise InvalidSetting(
                    self.name, fill(N_("{label}: every entry must be a non-empty text."), label=self.label)
                )
            if len(item) > MAX_STOP_STRING_LENGTH:
                raise InvalidSetting(
                    self.name,
                    fill(
                        N_("{label}: “{item}…” is longer than {limit} characters."),
                        label=self.label,
                        item=item[:20],
                        limit=MAX_STOP_STRING_LENGTH,
                    ),
                )
        return items


SPEC_KEY = "spec"  # where a setting's FieldSpec sits in its dataclass field's metadata


def setting(
    default: Any,
    label: str,
    kind: str,
    minimum: float,
    maximum: float,
    explanation: str,
    choices: tuple[str, ...] = (),
) -> Any:
    """A dataclass field that declares a setting: its default, and its spec (named after the field)."""
    spec = FieldSpec("", label, kind, minimum, maximum, explanation, choices)
    return field(default=default, metadata={SPEC_KEY: spec})


def field_specs(settings_class: type) -> dict[str, FieldSpec]:
    """The specs a settings dataclass declares with `setting`, by field name, in declaration order."""
    return {
        item.name: replace(item.metadata[SPEC_KEY], name=item.name)
        for item in dataclass_fields(settings_class)
        if SPEC_KEY in item.metadata
    }


def _fmt(number: float) -> str:
    return f"{number:g}"


MAX_STOP_STRING_LENGTH = 100

MAX_SEED = 2**31 - 1


@dataclass(frozen=True)
class SamplingParams:
    """How the next token is chosen. temperature 0 means greedy (always the most likely token)."""

    temperature: float = setting(
        0.7,
        N_("Temperature"),
        "float",
        0.0,
        2.0,
        N_("How adventurous the choice of each token is: 0 always picks the most likely one, higher is more varied."),
    )
    top_p: float = setting(
        0.95,
        N_("Top-p"),
        "float",
        0.0,
        1.0,
        N_("Only the most likely tokens whose probabilities add up to this share are candidates (1 = all)."),
    )
    top_k: int = setting(
        40,
        N_("Top-k"),
        "int",
        0,
        1000,
        N_("Only the k most likely tokens are candidates (0 = no limit)."),
    )
    min_p: float = setting(
        0.05,
        N_("Min-p"),
        "float",
        0.0,
        1.0,
        N_("Drop tokens less likely than this fraction of the most likely token's probability (0 = off)."),
    )
    repeat_penalty: float = setting(
        1.1,
        N_("Repeat penalty"),
        "float",
        0.5,
        2.0,
        N_("Makes tokens that appeared recently less likely (1 = off, above 1 discourages repetition)."),
    )
    repeat_last_n: int = setting(
        64,
        N_("Repeat window"),
        "int",
        0,
        4096,
        N_("How many of the latest tokens the repeat penalties look at (0 = off)."),
    )
    presence_penalty: float = setting(
        0.0,
        N_("Presence penalty"),
        "float",
        -2.0,
        2.0,
        N_("Lowers every token that already appeared by a fixed amount, nudging towards new topics (0 = off)."),
    )
    frequency_penalty: float = setting(
        0.0,
        N_("Frequency penalty"),
        "float",
        -2.0,
        2.0,
        N_("Lowers tokens in proportion to how often they already appeared (0 = off)."),
    )
    seed: int | None = setting(
        None,
        N_("Seed"),
        "seed",
        0,
        MAX_SEED,
        N_(
            "Random: a new seed for every reply. Fixed: the same settings and prompt give the same reply when the "
            "prompt is computed the same way (part of it reused from the KV cache can tip a near tie)."
        ),
    )  # None: a new random seed for every reply
    max_tokens: int = setting(
        512,
        N_("Max tokens"),
        "int",
        1,
        32768,
        N_("The longest reply, in tokens; this much room is also kept free in the context window."),
    )
    stop: tuple[str, ...] = setting(
        (),
        N_("Stop strings"),
        "strings",
        0,
        16,
        N_("The reply ends as soon as it would contain one of these texts (one per line)."),
    )
    # A thinking model's reasoning (app/core/reasoning): shown only for a model that reasons, each where
    # its template allows it (families.py says which).
    thinking: bool = setting(
        True,
        N_("Thinking"),
        "bool",
        0,
        0,
        N_(
            "Let a thinking model reason before it answers. Off, it answers at once: through the template's "
            "own switch where it has one, else by starting the reply after an empty reasoning block."
        ),
    )
    reasoning_effort: str = setting(
        "medium",
        N_("Reasoning effort"),
        "choice",
        0,
        0,
        N_("How long a model with effort levels (gpt-oss) reasons before it answers: low, medium or high."),
        EFFORTS,
    )
    reasoning_budget: int = setting(
        0,
        N_("Thinking budget"),
        "int",
        0,
        32768,
        N_(
            "The most tokens a thinking model may reason for (0 = no limit): at the limit its reasoning block "
            "is closed for it and it goes on with the answer."
        ),
    )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the stop strings become a list."""
        data = asdict(self)
        data["stop"] = list(self.stop)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: SamplingParams | None = None) -> SamplingParams:
        """Strict: every given field is checked, unknown names are refused (InvalidSetting)."""
        return (base or cls()).with_values(data)

    def with_values(self, values: Mapping[str, Any]) -> SamplingParams:
        """A copy with `values` applied after checking each against its bounds."""
        return replace(self, **check_values(SAMPLING_FIELDS, values, "sampling"))

    def differences(self, other: SamplingParams) -> dict[str, Any]:
        """The fields whose values differ from `other`, with this object's values (JSON-ready)."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {name: value for name, value in mine.items() if theirs[name] != value}


SAMPLING_FIELDS: dict[str, FieldSpec] = field_specs(SamplingParams)
# The fields about a thinking model's reasoning (no sampler stage reads them): shown only for a model that reasons.
THINKING_FIELDS = ("thinking", "reasoning_effort", "reasoning_budget")


def lenient_sampling(data: Any, base: SamplingParams | None = None) -> tuple[SamplingParams, list[str]]:
    """Read sampling values from a file: bad or unknown entries fall back to `base`, each with a problem line."""
    base = base or SamplingParams()
    if not isinstance(data, Mapping):
        return base, ["the sampling settings were not a table; the defaults are used"] if data is not None else []
    good, problems = check_values_leniently(SAMPLING_FIELDS, data, base, "sampling")
    return replace(base, **good), problems


def check_values(fields: Mapping[str, FieldSpec], values: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """`values` converted by their fields' specs; an unknown name or a bad value raises InvalidSetting.

    `kind` names the group in the message ("sampling", "model").
    """
    checked: dict[str, Any] = {}
    for name, value in values.items():
        spec = fields.get(name)
        if spec is None:
            raise InvalidSetting(name, fill(N_("There is no {kind} setting called “{name}”."), kind=kind, name=name))
        checked[name] = spec.check(value)
    return checked


def check_values_leniently(
    fields: Mapping[str, FieldSpec], values: Mapping[str, Any], defaults: object, kind: str
) -> tuple[dict[str, Any], list[str]]:
    """The good entries of `values`, converted; each unknown name or bad value is left out with a
    problem line, which names the default (the attribute of `defaults`) used instead."""
    good: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in values.items():
        spec = fields.get(name)
        if spec is None:
            problems.append(fill(N_("unknown {kind} setting “{name}” was ignored"), kind=kind, name=name))
            continue
        try:
            good[name] = spec.check(value)
        except InvalidSetting as error:
            problems.append(
                fill(
                    N_("{message} The default ({default}) is used."),
                    message=error.message,
                    default=describe_value(getattr(defaults, name)),
                )
            )
    return good, problems


def describe_value(value: Any) -> str:
    """A setting's value as the user reads it (seed None is \"random\")."""
    if value is None:
        return N_("random")
    if isinstance(value, tuple):
        return ", ".join(value) or N_("none")
    if isinstance(value, bool):
        return N_("on") if value else N_("off")
    return _fmt(value) if isinstance(value, (int, float)) else str(value)


# The stages of llama.cpp's sampler chain in the order they run, each with the fields it
# reads (sampler_chain.py builds the chain from this): the penalties see every token, top-k,
# top-p and min-p cut the candidates, the temperature reshapes what is left, and the seeded
# draw picks one. This is llama-cpp-python's order and that of llama.cpp's own tools. At
# temperature 0 the draw is greedy (the most likely token after the penalties) and the
# stages between them change nothing.
SAMPLER_ORDER: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("penalties", ("repeat_last_n", "repeat_penalty", "frequency_penalty", "presence_penalty")),
    ("top_k", ("top_k",)),
    ("top_p", ("top_p",)),
    ("min_p", ("min_p",)),
    ("temperature", ("temperature",)),
    ("draw", ("seed",)),
)

GREEDY = SamplingParams(temperature=0.0, top_k=1, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=0)

# Presets set how tokens are chosen; they leave max tokens, seed and stop strings alone.
# Keyed by their English names (saved and compared as they are); N_ marks them, the UI shows them worded.
PRESETS: dict[str, dict[str, Any]] = {
    N_("Precise"): {
        "temperature": 0.2,
        "top_p": 0.9,
        "top_k": 20,
        "min_p": 0.1,
        "repeat_penalty": 1.1,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
    },
    N_("Balanced"): {
        "temperature": 0.7,
        "top_p": 0.95,
        "top_k": 40,
        "min_p": 0.05,
        "repeat_penalty": 1.1,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
    },
    N_("Creative"): {
        "temperature": 1.1,
        "top_p": 0.98,
        "top_k": 100,
        "min_p": 0.02,
        "repeat_penalty": 1.05,
        "presence_penalty": 0.3,
        "frequency_penalty": 0.1,
    },
}
PRESET_FIELDS: tuple[str, ...] = tuple(PRESETS["Balanced"])
