"""The system prompt a model's chat template puts in by itself, read from the template (shown in the settings)."""

from __future__ import annotations

import pytest

from app.core.inference.chat_format import default_system_prompt
from app.core.inference.engine import Engine
from app.core.inference.template_choice import CHATML as CHATML_TEMPLATE


def test_the_starter_models_template_brings_its_own_system_prompt(engine: Engine) -> None:
    template = engine.llama.metadata["tokenizer.chat_template"]
    assert default_system_prompt(template) == "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


@pytest.mark.parametrize(
    "template",
    [
        "",
        CHATML_TEMPLATE,  # what a model without a template gets: no system prompt of its own
        "{{ raise_exception('System messages are not supported') }}",
        "{% for m in messages %}{{ m.content }}{% endfor %}",
        # a header that stands with or without a system message is not a default prompt
        "{{ '<s>Today: 2024\\n' }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\\n{% endfor %}",
    ],
)
def test_a_template_without_a_default_of_its_own_has_none(template: str) -> None:
    assert default_system_prompt(template) == ""


def test_a_default_is_what_stands_where_the_system_message_would() -> None:
    template = (
        "{% if messages[0]['role'] != 'system' %}<sys>Be kind.</sys>{% endif %}"
        "{% for m in messages %}{% if m.role == 'system' %}<sys>{{ m.content }}</sys>"
        "{% else %}<{{ m.role }}>{{ m.content }}</{{ m.role }}>{% endif %}{% endfor %}"
    )
    assert default_system_prompt(template) == "Be kind."
