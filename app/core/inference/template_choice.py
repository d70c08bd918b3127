"""Which chat template a model is given, and what the user is told about it.

A model's own template (`tokenizer.chat_template` in its file) is used as it is. A model without
one is not silently given ChatML: the chat format its tokens were taught is looked for (Gemma's
turn markers, Llama 3's headers, ChatML's, Phi-3's, Mistral's [INST]), as llama.cpp's built-in
templates know them, and the load says which was used. A model without a template whose name does
not say it was tuned to chat (instruct, chat, it) looks like a base model: it continues text rather
than answers, and the load says so plainly and points to raw completion.

The per-model setting `chat_template` overrides all this: one of the known families, `raw` (no
template: the messages' text is given as it is and the model continues it), or `custom`: the Jinja
text of the setting `chat_template_text`, which template_check.py tried before it was saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.core.support.formatting import fill
from app.core.support.user_text import N_

MODEL_OWN = "model"  # the setting's default: the file's template, else one found as said above
RAW = "raw"  # no template: raw completion
CUSTOM = "custom"  # the user's own Jinja text (the setting chat_template_text)

CHATML = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
# Jinja equivalents of llama.cpp's built-in templates for the families a model's tokens can tell apart.
BUILT_IN: dict[str, str] = {
    "chatml": CHATML,
    "llama3": (
        "{{ bos_token }}{% for message in messages %}<|start_header_id|>{{ message['role'] }}<|end_header_id|>\n\n"
        "{{ message['content'] | trim }}<|eot_id|>{% endfor %}"
        "{% if add_generation_prompt %}<|start_header_id|>assistant<|end_header_id|>\n\n{% endif %}"
    ),
    "gemma": (
        "{{ bos_token }}{% for message in messages %}"
        "{% set role = 'model' if message['role'] == 'assistant' else 'user' %}"
        "<start_of_turn>{{ role }}\n{{ message['content'] | trim }}<end_of_turn>\n{% endfor %}"
        "{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}"
    ),
    "phi3": (
        "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}<|end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
    ),
    "mistral": (
        "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'assistant' %}"
        "{{ message['content'] }}{{ eos_token }}{% else %}[INST] {{ message['content'] }} [/INST]{% endif %}"
        "{% endfor %}"
    ),
}
FAMILY_NAMES = {"chatml": "ChatML", "llama3": "Llama 3", "gemma": "Gemma", "phi3": "Phi-3", "mistral": "Mistral"}
RAW_TEMPLATE = "{% for message in messages %}{{ message['content'] }}{% if not loop.last %}\n\n{% endif %}{% endfor %}"
CHOICES = (MODEL_OWN, RAW, *BUILT_IN, CUSTOM)  # the values of the chat_template setting

# The family a model's special tokens point to (first match wins), as llama.cpp tells its templates apart.
_TOKEN_FAMILIES = (
    ("<start_of_turn>", "gemma"),
    ("<|start_header_id|>", "llama3"),
    ("<|im_start|>", "chatml"),
    ("<|assistant|>", "phi3"),
    ("[INST]", "mistral"),
)
_TUNED_TO_CHAT = re.compile(r"instruct|chat|(^|[-_ .])it($|[-_ .])|assistant|tulu|hermes", re.IGNORECASE)


@dataclass(frozen=True)
class TemplateChoice:
    template: str  # the Jinja text the prompt is built with
    note: str  # what the user reads in Load details (a core text)
    warning: str = ""  # said when the model loads: a base model, or no template at all ("" none)


def choose_template(
    metadata: Mapping[str, str], setting: str, is_special_token: Callable[[str], bool], custom_text: str = ""
) -> TemplateChoice:
    """The template for a model with this metadata and `chat_template` setting (`custom_text`: the user's own).

    `is_special_token(text)`: whether the model's vocabulary has `text` as one special token.
    """
    own = metadata.get("tokenizer.chat_template") or ""
    if setting == CUSTOM:
        return TemplateChoice(custom_text, N_("your own, edited in this model's load settings"))
    if setting == RAW:
        return TemplateChoice(RAW_TEMPLATE, N_("none: raw completion (the text is continued as it is)"))
    if setting in BUILT_IN:
        return TemplateChoice(
            BUILT_IN[setting], fill(N_("{family}, chosen in this model's settings"), family=FAMILY_NAMES[setting])
        )
    if own:
        return TemplateChoice(own, N_("from the model file"))
    family = _family_of_tokens(metadata, is_special_token)
    name = " ".join(metadata.get(key, "") for key in ("general.name", "general.finetune", "general.basename"))
    base = _TUNED_TO_CHAT.search(name) is None
    if family is None:
        note = N_("none in the file, and the model's tokens name no chat format: ChatML is used")
        chosen = CHATML
    else:
        note = fill(
            N_("none in the file: llama.cpp's built-in {family} template, which the model's tokens point to"),
            family=FAMILY_NAMES[family],
        )
        chosen = BUILT_IN[family]
    warning = ""
    if base:
        warning = fill(
            N_(
                "{name} looks like a base model (no chat template, and its name says nothing of chat or "
                "instructions): it continues text rather than answers. For a chat, choose an instruct "
                "version; to have it continue your text, set its Chat template to Raw completion."
            ),
            name=metadata.get("general.name") or N_("This model"),
        )
    return TemplateChoice(chosen, note, warning)


def _family_of_tokens(metadata: Mapping[str, str], is_special_token: Callable[[str], bool]) -> str | None:
    if metadata.get("general.architecture", "").startswith("gemma"):
        return "gemma"
    return next((family for token, family in _TOKEN_FAMILIES if is_special_token(token)), None)
