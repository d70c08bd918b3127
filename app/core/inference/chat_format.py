"""The chat format: the model's own Jinja chat template, or ChatML for a model without one."""

from __future__ import annotations

import llama_cpp
from llama_cpp import llama_chat_format

CHATML_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def chat_formatter(llama: llama_cpp.Llama) -> llama_chat_format.Jinja2ChatFormatter:
    """The model's own chat template from its metadata; ChatML when it has none."""
    template = llama.metadata.get("tokenizer.chat_template") or CHATML_TEMPLATE
    vocab = llama._model
    eos = llama.token_eos()
    bos = llama.token_bos()
    return llama_chat_format.Jinja2ChatFormatter(
        template=template,
        eos_token=vocab.token_get_text(eos) if eos != -1 else "",
        bos_token=vocab.token_get_text(bos) if bos != -1 else "",
        stop_token_ids=[eos],
    )
