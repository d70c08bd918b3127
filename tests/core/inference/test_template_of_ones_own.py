"""A chat template of one's own, per model: tried on a sample conversation before it is saved (one that fails
is refused with the line that failed), and named where the prompt is shown (Load details, the prompt inspector)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.chat.prompt_inspector import inspect_prompt
from app.core.inference.engine import Engine
from app.core.inference.load_timeline import LoadTimeline
from app.core.inference.sampling import InvalidSetting
from app.core.inference.template_check import SAMPLE_CONVERSATION, TemplateProblem, sample_prompt, template_problem
from app.core.inference.template_choice import CUSTOM, choose_template
from app.core.settings import Settings, load_settings
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage

BRACKETS = (
    "{% for message in messages %}[{{ message['role'] }}] {{ message['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}[assistant] {% endif %}"
)
TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_head_kv=2, n_ff=128, n_vocab=300)


def test_a_template_that_renders_the_sample_gives_its_prompt_with_every_message() -> None:
    prompt = sample_prompt(BRACKETS)
    for message in SAMPLE_CONVERSATION:
        assert f"[{message['role']}] {message['content']}" in prompt
    assert template_problem(BRACKETS) == ""


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ("{% for message in messages %}\n{{ message['content'] }}", "line 2: Unexpected end of template"),
        ("{% for message in messages %}\n\n{{ message['content'] | shout }}{% endfor %}", "line 3: No filter named"),
        ("{{ bos_token }}\n{{ raise_exception('System messages are not supported') }}", "line 2: System messages"),
        ("{% for message in messages %}\n{{ message.content.words[3] }}{% endfor %}", "line 2: "),
    ],
)
def test_a_template_that_fails_to_render_is_refused_with_the_line_that_failed(template: str, said: str) -> None:
    with pytest.raises(TemplateProblem, match="cannot be rendered") as refused:
        sample_prompt(template)
    assert said in refused.value.message


@pytest.mark.parametrize("template", ["", "   \n", "You are a chat. Answer well."])
def test_an_empty_template_or_one_that_leaves_the_messages_out_is_refused(template: str) -> None:
    assert template_problem(template) != ""


def test_a_template_of_ones_own_is_a_per_model_setting_saved_only_when_it_renders() -> None:
    settings = Settings().with_model({"chat_template": CUSTOM, "chat_template_text": BRACKETS}, "m.gguf")
    config = settings.model_for("m.gguf").load_config(Path("m.gguf"))
    assert (config.chat_template, config.chat_template_text) == (CUSTOM, BRACKETS)
    assert settings.model_for("other.gguf").chat_template == "model"
    broken = "{% for message in messages %}\n{{ message['content'] }"
    with pytest.raises(InvalidSetting, match="line 2") as refused:
        settings.with_model({"chat_template_text": broken}, "m.gguf")
    assert "cannot be rendered" in refused.value.message
    with pytest.raises(InvalidSetting, match="empty"):
        Settings().with_model({"chat_template": CUSTOM}, "m.gguf")  # "your own" with no text of its own


@pytest.mark.expected_log("app.core.settings", logging.WARNING, "No filter named")
def test_a_saved_template_that_no_longer_renders_is_said_when_the_settings_are_read_and_costs_only_itself(
    tmp_path: Path,
) -> None:
    path = tmp_path / "settings.json"
    own = {"chat_template": CUSTOM, "chat_template_text": "{{ messages[0]['content'] | shout }}", "n_ctx": 8192}
    path.write_text(json.dumps({"schema_version": 3, "model_overrides": {"m.gguf": own}}), encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings.model_for("m.gguf").chat_template == "model"
    assert loaded.settings.model_for("m.gguf").n_ctx == 8192, "the model's other settings are kept"
    assert any("m.gguf" in notice and "No filter named" in notice for notice in loaded.notices)


def test_the_choice_of_ones_own_template_wins_and_is_named() -> None:
    choice = choose_template({"tokenizer.chat_template": "{{ x }}"}, CUSTOM, lambda _text: False, BRACKETS)
    assert choice.template == BRACKETS
    assert choice.note == "your own, edited in this model's load settings"


def test_a_model_loaded_with_ones_own_template_builds_its_prompt_with_it_and_says_so(tmp_path: Path) -> None:
    path = write_synthetic_model(tmp_path / "synthetic-chat.gguf", TINY)
    engine = Engine()
    try:
        report = LoadTimeline(engine).load(
            LoadConfig(path, n_ctx=256, chat_template=CUSTOM, chat_template_text=BRACKETS)
        )
        [stage] = [stage for stage in report.stages if stage.name == "chat template"]
        assert "your own, edited in this model's load settings" in stage.detail  # Load details
        assert report.template_warning == "", "a template of one's own is not a base model's"
        inspection = inspect_prompt(engine, [ChatMessage("user", "Hello")])
        assert inspection.text.replace("▁", " ").strip() == "[user] Hello\n[assistant]"  # the vocabulary writes "▁"
        assert inspection.template == "your own, edited in this model's load settings"  # the prompt inspector
    finally:
        engine.close()
