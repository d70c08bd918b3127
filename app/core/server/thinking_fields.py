"""A chat request's thinking switch, reasoning effort and budget, in the fields other servers' clients send.

- `chat_template_kwargs: {"enable_thinking": false}` switches thinking off, as llama-server and vLLM
  pass it to Qwen3's template (Glassbox switches it the way the loaded model's template allows:
  its own variable, else an empty block after the generation prompt). `chat_template_kwargs.
  reasoning_effort` is read like the top-level field; other template variables are not passed to
  the template and are ignored, as unknown fields are.
- `reasoning_effort`: `low`, `medium` or `high`, as OpenAI's clients send it and gpt-oss's template
  reads it; a model without effort levels ignores it.
- `reasoning_budget_tokens` or `thinking_budget_tokens` (llama-server's names; the first wins when
  both are given): the most tokens the model may reason for before its block is closed and it
  answers. As in llama-server, -1 is no limit and 0 is no thinking at all.

A model that does not reason ignores all three. A value of the wrong type or out of range is refused
with a 400 that names the field.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any

from app.core.inference.sampling import SAMPLING_FIELDS
from app.core.reasoning.switch import EFFORTS
from app.core.server.errors import invalid

TEMPLATE_KWARGS = "chat_template_kwargs"
BUDGET_FIELDS = ("reasoning_budget_tokens", "thinking_budget_tokens")  # llama-server's, the one it prefers first
NO_LIMIT = -1  # llama-server's "no budget"
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40


def thinking_values(body: Mapping[str, Any]) -> dict[str, Any]:
    """The sampling values (`thinking`, `reasoning_effort`, `reasoning_budget`) the request asks for."""
    values: dict[str, Any] = {}
    kwargs = body.get(TEMPLATE_KWARGS)
    if kwargs is not None and not isinstance(kwargs, dict):
        raise invalid(TEMPLATE_KWARGS, 'must be an object such as {"enable_thinking": false}.')
    kwargs = kwargs or {}
    enable = kwargs.get("enable_thinking")
    if enable is not None:
        if not isinstance(enable, bool):
            raise invalid(f"{TEMPLATE_KWARGS}.enable_thinking", f"must be true or false, not {_shown(enable)}.")
        values["thinking"] = enable
    if kwargs.get("reasoning_effort") is not None:
        values["reasoning_effort"] = _effort(f"{TEMPLATE_KWARGS}.reasoning_effort", kwargs["reasoning_effort"])
    if body.get("reasoning_effort") is not None:  # the top-level field wins, as the request's own
        values["reasoning_effort"] = _effort("reasoning_effort", body["reasoning_effort"])
    name = next((name for name in BUDGET_FIELDS if body.get(name) is not None), None)
    if name is not None:
        budget = _budget(name, body[name])
        if budget == 0:
            values["thinking"] = False
        elif budget != NO_LIMIT:
            values["reasoning_budget"] = budget
    return values


def _shown(value: Any) -> str:
    """A value as a refusal quotes it, cut short."""
    return _SHORT.repr(value)


def _effort(name: str, value: Any) -> str:
    if not isinstance(value, str) or value not in EFFORTS:
        raise invalid(name, f"must be one of {', '.join(EFFORTS)}, not {_shown(value)}.")
    return value


def _budget(name: str, value: Any) -> int:
    most = int(SAMPLING_FIELDS["reasoning_budget"].maximum)
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(name, f"must be a whole number of tokens, not {_shown(value)}.")
    if not NO_LIMIT <= value <= most:
        raise invalid(name, f"must be between {NO_LIMIT} (no limit) and {most} tokens (0: no thinking), not {value}.")
    return value
