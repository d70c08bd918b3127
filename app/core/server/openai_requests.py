"""The bodies of OpenAI requests read into Glassbox's own types, field by field.

Unknown fields are ignored, as the API's clients expect (they send `user`, `metadata`,
`store`, `tools` and more to every server). A known field with a wrong type or value is
refused with a 400 that names it. Sampling bounds are the settings' own (`SAMPLING_FIELDS`),
so the server accepts what the window accepts. llama-server's extra sampling fields
(`top_k`, `min_p`, `repeat_penalty`) are honoured too, and its `reasoning_format` (where a
thinking model's reasoning goes in the reply); a chat's thinking switch, effort and budget are
read from the fields llama-server's, vLLM's and OpenAI's clients send (thinking_fields.py).

Defaults where the request says nothing: OpenAI's request has no repeat penalty, so it is
off (1.0); a chat reply may run until the context is full (capped by the server's max_tokens
limit); a raw completion stops after 16 tokens, as in OpenAI's legacy API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.inference.sampling import InvalidSetting, SamplingParams
from app.core.inference.token_probs import TOP_ALTERNATIVES
from app.core.server.errors import invalid
from app.core.server.grammar import response_format_grammar
from app.core.server.image_parts import image_part
from app.core.server.reasoning_format import ReasoningFormat
from app.core.server.thinking_fields import thinking_values
from app.core.server.tool_calling import ToolRequest, answered_call_id, parse_tool_request, past_tool_calls
from app.core.types.messages import ChatMessage

NUMBER_FIELDS = ("temperature", "top_p", "presence_penalty", "frequency_penalty", "min_p", "repeat_penalty")
WHOLE_FIELDS = ("top_k",)
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
COMPLETION_DEFAULT_MAX_TOKENS = 16
RANDOM_SEED = -1  # llama.cpp's way to ask for a new seed


@dataclass(frozen=True)
class Limits:
    max_tokens: int  # the most a request may ask for
    fetch_image_urls: bool = False  # image_url parts may name http(s) addresses (image_parts.py)


@dataclass(frozen=True)
class ChatRequest:
    messages: tuple[ChatMessage, ...]
    params: SamplingParams
    model: str
    stream: bool = False
    include_usage: bool = False
    logprobs: bool = False
    top_logprobs: int = 0
    grammar: str = ""  # GBNF from response_format; "" = free text
    reasoning_format: ReasoningFormat = ReasoningFormat.AUTO
    tools: ToolRequest = field(default_factory=ToolRequest)  # tools, tool_choice, parallel_tool_calls (tool_calling.py)


@dataclass(frozen=True)
class CompletionRequest:
    prompt: str
    params: SamplingParams
    model: str
    stream: bool = False
    include_usage: bool = False
    logprobs: int | None = None  # how many alternatives per token; None: no logprobs


def parse_chat(body: Mapping[str, Any], limits: Limits) -> ChatRequest:
    _only_one_choice(body)
    logprobs = _bool(body, "logprobs")
    top_logprobs = _whole(body, "top_logprobs", 0, 20)
    if top_logprobs is not None and not logprobs:
        raise invalid("top_logprobs", "needs logprobs set to true.")
    top = _at_most_recorded("top_logprobs", top_logprobs or 0)
    return ChatRequest(
        messages=_messages(body.get("messages"), limits),
        params=replace(
            _sampling(body, limits, limits.max_tokens, ("max_completion_tokens", "max_tokens")), **thinking_values(body)
        ),
        model=_model(body),
        stream=_bool(body, "stream"),
        include_usage=_include_usage(body),
        logprobs=logprobs,
        top_logprobs=top,
        grammar=response_format_grammar(body.get("response_format")),
        reasoning_format=_reasoning_format(body.get("reasoning_format")),
        tools=parse_tool_request(body),
    )


def parse_completion(body: Mapping[str, Any], limits: Limits) -> CompletionRequest:
    _only_one_choice(body)
    if _bool(body, "echo"):
        raise invalid("echo", "this server does not repeat the prompt in the reply; leave echo out.")
    if body.get("suffix"):
        raise invalid("suffix", "this server does not fill in text before a suffix; leave suffix out.")
    best_of = _whole(body, "best_of", 1, 20)
    if best_of not in (None, 1):
        raise invalid("best_of", "this server writes one completion per request; best_of must be 1.")
    logprobs = _whole(body, "logprobs", 0, 5)
    return CompletionRequest(
        prompt=_prompt(body.get("prompt")),
        params=_sampling(body, limits, COMPLETION_DEFAULT_MAX_TOKENS, ("max_tokens",)),
        model=_model(body),
        stream=_bool(body, "stream"),
        include_usage=_include_usage(body),
        logprobs=None if logprobs is None else _at_most_recorded("logprobs", logprobs),
    )


# ---- fields --------------------------------------------------------------------------


def _sampling(body: Mapping[str, Any], limits: Limits, default_max: int, max_names: tuple[str, ...]) -> SamplingParams:
    values: dict[str, Any] = {}
    for name in NUMBER_FIELDS + WHOLE_FIELDS:
        value = body.get(name)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise invalid(name, f"must be a number, not {_shown(value)}.")
            values[name] = value
    seed = body.get("seed")
    if seed is not None and seed != RANDOM_SEED:
        values["seed"] = _integer(seed, "seed")
    stop = body.get("stop")
    if stop is not None:
        values["stop"] = [stop] if isinstance(stop, str) else stop
    base = replace(SamplingParams(), repeat_penalty=1.0, max_tokens=min(default_max, limits.max_tokens))
    try:
        params = base.with_values(values)
    except InvalidSetting as error:
        raise invalid(error.name, error.message) from None
    for name in max_names:  # the first one given wins (max_completion_tokens replaces max_tokens)
        if body.get(name) is not None:
            asked = _integer(body[name], name)
            if asked < 1:
                raise invalid(name, f"must be at least 1, not {asked}.")
            if asked > limits.max_tokens:
                raise invalid(name, f"this server allows at most {limits.max_tokens} tokens per reply, not {asked}.")
            return replace(params, max_tokens=asked)
    return params


def _messages(value: Any, limits: Limits) -> tuple[ChatMessage, ...]:
    if not isinstance(value, list) or not value:
        raise invalid("messages", "must be a non-empty list of messages.")
    messages = []
    for index, message in enumerate(value):
        where = f"messages[{index}]"
        if not isinstance(message, dict):
            raise invalid(where, "must be an object with a role and a content.")
        role = message.get("role")
        if role not in ROLES:
            raise invalid(f"{where}.role", f"must be system, developer, user, assistant or tool, not {_shown(role)}.")
        content, images = _content(message.get("content"), role, f"{where}.content", limits)
        calls = past_tool_calls(message, where) if role == "assistant" else ()
        answered = answered_call_id(message, where) if role == "tool" else ""
        reasoning = _past_reasoning(message, role, where)
        messages.append(ChatMessage(ROLES[role], content, reasoning, calls, answered, images))
    return tuple(messages)


def _past_reasoning(message: Mapping[str, Any], role: str, where: str) -> str:
    """An assistant message's `reasoning_content`, as llama-server reads it: the model's chat
    template decides whether it is rendered (most drop it)."""
    value = message.get("reasoning_content")
    if value is None or role != "assistant":
        return ""
    if not isinstance(value, str):
        raise invalid(f"{where}.reasoning_content", f"must be a text, not {_shown(value)}.")
    return value


def _content(value: Any, role: str, where: str, limits: Limits) -> tuple[str, tuple[Path, ...]]:
    """A message's text, and its images (a user's `image_url` parts; the model reads them before the text)."""
    if isinstance(value, str):
        return value, ()
    if value is None and role == "assistant":  # an assistant turn that only called tools
        return "", ()
    if isinstance(value, list):
        texts, images = [], []
        for index, part in enumerate(value):
            if isinstance(part, dict) and part.get("type") == "image_url" and role == "user":
                images.append(image_part(part, f"{where}[{index}]", limits.fetch_image_urls))
                continue
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise invalid(f"{where}[{index}]", "only text parts (and image_url parts of a user) are supported.")
            texts.append(part["text"])
        return "".join(texts), tuple(images)
    raise invalid(where, "must be a text or a list of text parts.")


def _prompt(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str):
        return value[0]
    raise invalid("prompt", "must be one text (lists of prompts and token ids are not supported).")


def _model(body: Mapping[str, Any]) -> str:
    value = body.get("model", "")
    if not isinstance(value, str):
        raise invalid("model", f"must be a text, not {_shown(value)}.")
    return value


def _reasoning_format(value: Any) -> ReasoningFormat:
    """llama-server's field; null is its default, as there."""
    if value is None:
        return ReasoningFormat.AUTO
    names = ", ".join(item.value for item in ReasoningFormat)
    if not isinstance(value, str):
        raise invalid("reasoning_format", f"must be one of {names}, not {_shown(value)}.")
    try:
        return ReasoningFormat(value)
    except ValueError:
        raise invalid("reasoning_format", f"must be one of {names}, not {_shown(value)}.") from None


def _only_one_choice(body: Mapping[str, Any]) -> None:
    n = body.get("n")
    if n is not None and n != 1:
        raise invalid("n", "this server writes one choice per request; n must be 1.")


def _include_usage(body: Mapping[str, Any]) -> bool:
    options = body.get("stream_options")
    if options is None:
        return False
    if not isinstance(options, dict):
        raise invalid("stream_options", 'must be an object such as {"include_usage": true}.')
    return _bool(options, "include_usage", "stream_options.include_usage")


def _bool(body: Mapping[str, Any], name: str, shown: str | None = None) -> bool:
    value = body.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise invalid(shown or name, f"must be true or false, not {_shown(value)}.")
    return value


def _whole(body: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    number = _integer(value, name)
    if not low <= number <= high:
        raise invalid(name, f"must be between {low} and {high}, not {number}.")
    return number


def _integer(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise invalid(name, f"must be a whole number, not {_shown(value)}.")
    return value


def _at_most_recorded(name: str, value: int) -> int:
    if value > TOP_ALTERNATIVES:
        raise invalid(name, f"this server records the {TOP_ALTERNATIVES} most likely tokens; ask for at most that.")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
