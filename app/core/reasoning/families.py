"""What a model's chat template says about its reasoning: the family's markers, whether the
generation prompt opens the block itself, how thinking is switched, and whether past reasoning
is sent back.

Everything is read by rendering the template with Jinja as the engine does, never by guessing
from a reply's text: the family is the one whose markers the template writes (harmony channels,
Gemma 4's thought channel, Seed-OSS's `<seed:think>`, `[THINK]`, `<think>`); the reply starts
inside the block when the rendered generation prompt ends with the opening marker (DeepSeek-R1's
distills, QwQ); the switch is the template variable that changes the prompt (`enable_thinking`
for Qwen3 and Gemma 4, `reasoning_effort` for gpt-oss), else an empty block prefilled after the
generation prompt; past reasoning is kept when a reasoning given as `reasoning_content` (as
llama.cpp passes it) shows up in the next prompt.

A template that says nothing of reasoning has none, unless the user names the markers for the
model (the model settings' `reasoning` override).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from llama_cpp import llama_chat_format

from app.core.reasoning.splitter import (
    FAMILIES,
    GEMMA_THOUGHT,
    HARMONY,
    SEED_THINK,
    THINK_BRACKETS,
    THINK_TAGS,
    ReasoningMarkers,
)
from app.core.reasoning.switch import AUTO, EFFORTS, NONE, ThinkingSwitch


@dataclass(frozen=True)
class ReasoningSupport:
    """A reasoning model's family and what its template allows."""

    markers: ReasoningMarkers
    starts_inside: bool = False  # the generation prompt opens the block: the reply starts inside it
    switch: ThinkingSwitch = ThinkingSwitch.PREFILL
    keeps_past_reasoning: bool = False  # the template renders an earlier reply's reasoning_content

    @property
    def family(self) -> str:
        return self.markers.family

    @property
    def efforts(self) -> tuple[str, ...]:
        return EFFORTS if self.switch is ThinkingSwitch.EFFORT else ()

    @property
    def can_switch_off(self) -> bool:
        return self.switch is not ThinkingSwitch.EFFORT

    def off_prefill(self) -> str:
        """What is written after the generation prompt so the reply starts after an empty block
        (PREFILL only: the template's variable does it otherwise)."""
        if self.switch is not ThinkingSwitch.PREFILL:
            return ""
        closing = self.markers.close + ("\n\n" if self.markers is THINK_TAGS else "")
        return closing if self.starts_inside else self.markers.open + closing

    def closing(self) -> str:
        """What the engine writes to close the block at the thinking budget, so that the answer follows."""
        if self.markers is HARMONY:  # the analysis message ends, and the final one begins
            return self.markers.close + "<|start|>assistant" + self.markers.answer_open
        return self.markers.close + ("\n\n" if self.markers is THINK_TAGS else "")


_USER = "\x00glassbox-user\x00"
_PAST_REASONING = "\x00glassbox-reasoning\x00"


def template_variables(support: ReasoningSupport | None, *, thinking: bool = True, effort: str = "") -> dict[str, Any]:
    """The variables the template is rendered with for a reply with thinking on or off (and the effort
    where the family has one); {} for a model without reasoning."""
    if support is None:
        return {}
    if support.switch is ThinkingSwitch.EFFORT:
        return {"reasoning_effort": effort if effort in EFFORTS else "medium"}
    return {"enable_thinking": thinking}  # as llama.cpp passes it, also to templates that ignore it


def reasoning_support(template: str, override: str = AUTO) -> ReasoningSupport | None:
    """What `template` says about reasoning (None: the model does not reason), or what the user's
    `override` (a family name, or "none") says instead."""
    if override == NONE or (not template and override == AUTO):
        return None
    markers = FAMILIES.get(override) or _family_markers(template)
    if markers is None:
        return None
    if not template:
        return ReasoningSupport(markers)
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token="", bos_token="")
    try:
        on = _generation_prompt(formatter, enable_thinking=True)
        off = _generation_prompt(formatter, enable_thinking=False)
        switch = ThinkingSwitch.PREFILL
        if on != off:
            switch = ThinkingSwitch.TEMPLATE
        elif _prompt(formatter, reasoning_effort="low") != _prompt(formatter, reasoning_effort="high"):
            switch = ThinkingSwitch.EFFORT  # gpt-oss says it in the system message
    except Exception:  # a template that cannot be rendered here (it needs tools, or raises): its family alone
        return ReasoningSupport(markers)
    try:
        keeps = _keeps_past_reasoning(formatter)
    except Exception:  # it refuses an earlier reply with reasoning: it is sent none
        keeps = False
    starts_inside = on.rstrip().endswith(markers.open)
    return ReasoningSupport(markers, starts_inside, switch, keeps)


def _family_markers(template: str) -> ReasoningMarkers | None:
    """The family whose markers the template writes."""
    if "<|channel|>" in template and "analysis" in template:
        return HARMONY
    for markers in (GEMMA_THOUGHT, SEED_THINK):  # before <think>, which a template may name too
        if markers.open in template:
            return markers
    if THINK_BRACKETS.open in template:
        return THINK_BRACKETS
    if THINK_TAGS.open in template or THINK_TAGS.close in template:
        return THINK_TAGS
    return None


def _render(formatter: llama_chat_format.Jinja2ChatFormatter, messages: list[Any], **variables: Any) -> str:
    return formatter(messages=messages, **variables).prompt


def _prompt(formatter: llama_chat_format.Jinja2ChatFormatter, **variables: Any) -> str:
    return _render(formatter, [{"role": "user", "content": _USER}], **variables)


def _generation_prompt(formatter: llama_chat_format.Jinja2ChatFormatter, **variables: Any) -> str:
    """What the template writes after the one user message: where the reply starts."""
    return _prompt(formatter, **variables).split(_USER, 1)[-1]


def _keeps_past_reasoning(formatter: llama_chat_format.Jinja2ChatFormatter) -> bool:
    past = {"role": "assistant", "content": "Four.", "reasoning_content": _PAST_REASONING}
    messages = [{"role": "user", "content": "2+2?"}, past, {"role": "user", "content": _USER}]
    return _PAST_REASONING in _render(formatter, messages, enable_thinking=True)
