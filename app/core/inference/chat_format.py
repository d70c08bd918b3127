"""The chat format: a model's Jinja chat template (chosen in template_choice.py) as a formatter."""

from __future__ import annotations

import llama_cpp
from llama_cpp import llama_chat_format


def chat_formatter(llama: llama_cpp.Llama, template: str) -> llama_chat_format.Jinja2ChatFormatter:
    """The prompt builder for `template` with the model's own BOS and EOS texts."""
    vocab = llama._model
    eos = llama.token_eos()
    bos = llama.token_bos()
    return llama_chat_format.Jinja2ChatFormatter(
        template=template,
        eos_token=vocab.token_get_text(eos) if eos != -1 else "",
        bos_token=vocab.token_get_text(bos) if bos != -1 else "",
        stop_token_ids=[eos],
    )


_SYSTEM_MARK = "\x00glassbox-system\x00"
_USER_MARK = "\x00glassbox-user\x00"


def default_system_prompt(template: str) -> str:
    """The system prompt a chat template puts in when the chat has none ("" when it puts none in).

    SmolLM2's template, for one, opens every chat without a system message with "You are a
    helpful AI assistant named SmolLM…". The template is rendered twice, with a marked system
    message and without one: what stands where the system text stood is the template's own.
    A template that cannot be rendered here (it needs tools, or raises) has no default to show.
    """
    if not template:
        return ""
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token="", bos_token="")
    try:
        with_system = formatter(
            messages=[{"role": "system", "content": _SYSTEM_MARK}, {"role": "user", "content": _USER_MARK}]
        ).prompt
        without = formatter(messages=[{"role": "user", "content": _USER_MARK}]).prompt
    except Exception:
        return ""
    if _SYSTEM_MARK not in with_system or _USER_MARK not in with_system or _USER_MARK not in without:
        return ""
    opening, rest = with_system.split(_SYSTEM_MARK, 1)
    closing = rest.split(_USER_MARK, 1)[0]
    before_user = without.split(_USER_MARK, 1)[0]
    if not before_user.startswith(opening) or not before_user.endswith(closing):
        return ""
    return before_user[len(opening) : len(before_user) - len(closing)].strip()
