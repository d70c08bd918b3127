"""A model without a chat template is said, not silently given ChatML: the built-in template its tokens
point to, a plain word when it looks like a base model, raw completion and a family chosen per model."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from llama_cpp import llama_chat_format

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.inference.engine import Engine
from app.core.inference.template_choice import BUILT_IN, CHATML, RAW_TEMPLATE, choose_template
from app.core.settings import Settings
from app.core.types.load import LoadConfig

OWN = "{% for message in messages %}{{ message['content'] }}{% endfor %}"
TINY = SyntheticModel(n_layers=1, n_embd=64, n_head=4, n_head_kv=2, n_ff=128, n_vocab=300)


def tokens(*special: str) -> Callable[[str], bool]:
    return lambda text: text in special


def render(template: str) -> str:
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token="</s>", bos_token="<s>")
    return formatter(messages=[{"role": "user", "content": "Once upon a time"}]).prompt


def test_a_models_own_template_is_used_as_it_is_and_nothing_is_said() -> None:
    choice = choose_template({"tokenizer.chat_template": OWN}, "model", tokens())
    assert (choice.template, choice.note, choice.warning) == (OWN, "from the model file", "")


@pytest.mark.parametrize(
    ("special", "family", "marker"),
    [
        ("<|start_header_id|>", "Llama 3", "<|start_header_id|>user"),
        ("<|im_start|>", "ChatML", "<|im_start|>user"),
        ("<|assistant|>", "Phi-3", "<|user|>"),
        ("[INST]", "Mistral", "[INST] Once"),
    ],
)
def test_without_a_template_the_built_in_one_the_models_tokens_point_to_is_used_and_named(
    special: str, family: str, marker: str
) -> None:
    metadata = {"general.architecture": "llama", "general.name": "Some Model Instruct"}
    choice = choose_template(metadata, "model", tokens(special))
    assert f"llama.cpp's built-in {family} template" in choice.note
    assert marker in render(choice.template)
    assert choice.warning == "", "an instruct model is not called a base model"


def test_a_gemma_model_gets_gemmas_turns_by_its_architecture() -> None:
    choice = choose_template({"general.architecture": "gemma3", "general.name": "Gemma 3 270m It"}, "model", tokens())
    assert choice.template == BUILT_IN["gemma"]
    assert "<start_of_turn>model\n" in render(choice.template)


def test_a_model_without_a_template_whose_name_says_nothing_of_chat_is_called_a_base_model_plainly() -> None:
    choice = choose_template({"general.architecture": "gemma3", "general.name": "Gemma 3 270m"}, "model", tokens())
    assert "Gemma 3 270m looks like a base model" in choice.warning
    assert "Raw completion" in choice.warning


def test_with_no_template_and_no_chat_tokens_chatml_is_used_and_that_is_said() -> None:
    choice = choose_template({"general.name": "mystery-chat"}, "model", tokens())
    assert choice.template == CHATML
    assert "ChatML is used" in choice.note


def test_raw_completion_gives_the_text_as_it_is_even_over_the_models_own_template() -> None:
    choice = choose_template({"tokenizer.chat_template": OWN}, "raw", tokens())
    assert choice.template == RAW_TEMPLATE
    assert render(choice.template) == "Once upon a time"
    assert "raw completion" in choice.note


def test_a_family_chosen_in_the_models_settings_wins_over_its_own_template() -> None:
    choice = choose_template({"tokenizer.chat_template": OWN}, "llama3", tokens())
    assert choice.template == BUILT_IN["llama3"]
    assert "Llama 3, chosen in this model's settings" in choice.note


def test_the_chat_template_is_a_per_model_load_setting_with_known_choices_only() -> None:
    settings = Settings().with_model({"chat_template": "raw"}, "base.gguf")
    assert settings.model_for("base.gguf").load_config(Path("base.gguf")).chat_template == "raw"
    assert settings.model_for("other.gguf").chat_template == "model"
    with pytest.raises(ValueError, match="Chat template"):
        Settings().with_model({"chat_template": "{% jinja %}"})


def test_a_synthetic_model_without_a_template_loads_saying_so_and_raw_completion_is_applied(tmp_path: Path) -> None:
    path = write_synthetic_model(tmp_path / "synthetic-base.gguf", TINY)
    engine = Engine()
    try:
        report = engine.load(LoadConfig(path, n_ctx=256))
        assert "looks like a base model" in report.template_warning
        assert "ChatML is used" in report.template_note
        raw = engine.load(LoadConfig(path, n_ctx=256, chat_template="raw"))
        assert raw.chat_template == RAW_TEMPLATE and raw.template_warning == ""
        assert "raw completion" in raw.template_note  # what Load details says of the template
    finally:
        engine.close()
