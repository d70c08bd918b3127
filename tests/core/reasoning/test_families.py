"""A model's reasoning read from its real chat template (llama.cpp's copies, in templates/), rendered
with Jinja as the engine renders it."""

from __future__ import annotations

from pathlib import Path

import pytest
from llama_cpp import llama_chat_format

from app.core.reasoning.families import ReasoningSupport, reasoning_support, template_variables
from app.core.reasoning.splitter import (
    GEMMA_THOUGHT,
    HARMONY,
    SEED_THINK,
    THINK_BRACKETS,
    THINK_TAGS,
    split_reasoning,
)
from app.core.reasoning.switch import EFFORTS, NONE, ThinkingSwitch

TEMPLATES = Path(__file__).parent / "templates"
QWEN3 = "Qwen-Qwen3-0.6B"
R1_DISTILL = "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B"
QWQ = "Qwen-QwQ-32B"
GPT_OSS = "openai-gpt-oss-120b"
MINISTRAL_REASONING = "mistralai-Ministral-3-14B-Reasoning-2512"
PHI = "microsoft-Phi-3.5-mini-instruct"
BIELIK = "Bielik-11B-v3.0-Instruct"
GEMMA4 = "google-gemma-4-31B-it"
SEED_OSS = "ByteDance-Seed-OSS"


def template(name: str) -> str:
    return (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")


def support(name: str) -> ReasoningSupport:
    found = reasoning_support(template(name))
    assert found is not None, name
    return found


def generation_prompt(name: str, **variables: object) -> str:
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template(name), eos_token="", bos_token="")
    return formatter(messages=[{"role": "user", "content": "2+2?"}], **variables).prompt.split("2+2?", 1)[1]


@pytest.mark.parametrize(
    ("name", "markers"),
    [
        (QWEN3, THINK_TAGS),
        (R1_DISTILL, THINK_TAGS),
        (QWQ, THINK_TAGS),
        (GPT_OSS, HARMONY),
        (MINISTRAL_REASONING, THINK_BRACKETS),
        (BIELIK, THINK_TAGS),
        (GEMMA4, GEMMA_THOUGHT),
        (SEED_OSS, SEED_THINK),
    ],
)
def test_the_family_is_the_one_whose_markers_the_template_writes(name: str, markers: object) -> None:
    assert support(name).markers == markers


def test_a_template_without_reasoning_has_none() -> None:
    assert reasoning_support(template(PHI)) is None
    assert reasoning_support("") is None


@pytest.mark.parametrize(("name", "inside"), [(QWEN3, False), (R1_DISTILL, True), (QWQ, True), (GPT_OSS, False)])
def test_the_reply_starts_inside_the_block_where_the_generation_prompt_opens_it(name: str, inside: bool) -> None:
    assert support(name).starts_inside is inside
    assert generation_prompt(name, **template_variables(support(name))).rstrip().endswith("<think>") is inside


def test_a_reply_after_a_generation_prompt_that_opens_the_block_splits_at_the_closing_marker() -> None:
    found = support(R1_DISTILL)
    reply = "Two and two.\n</think>\n\nFour."  # what the model writes after `<｜Assistant｜><think>\n`
    assert split_reasoning(reply, found.markers, starts_inside=found.starts_inside) == ("Two and two.\n", "Four.")


def test_qwen3_switches_thinking_off_through_its_template_variable() -> None:
    found = support(QWEN3)
    assert found.switch is ThinkingSwitch.TEMPLATE and found.can_switch_off and found.efforts == ()
    off = generation_prompt(QWEN3, **template_variables(found, thinking=False))
    assert off.endswith("<think>\n\n</think>\n\n")
    assert "<think>" not in generation_prompt(QWEN3, **template_variables(found, thinking=True))


def test_gpt_oss_has_reasoning_efforts_and_no_off() -> None:
    found = support(GPT_OSS)
    assert found.switch is ThinkingSwitch.EFFORT and found.efforts == EFFORTS and not found.can_switch_off
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template(GPT_OSS), eos_token="", bos_token="")
    prompt = formatter(messages=[{"role": "user", "content": "Hi"}], **template_variables(found, effort="high")).prompt
    assert "Reasoning: high" in prompt
    assert template_variables(found, effort="extreme") == {"reasoning_effort": "medium"}


def test_a_template_without_a_switch_is_switched_off_by_prefilling_an_empty_block() -> None:
    brackets = support(MINISTRAL_REASONING)
    assert brackets.switch is ThinkingSwitch.PREFILL and brackets.off_prefill() == "[THINK][/THINK]"
    opened = ReasoningSupport(THINK_TAGS, starts_inside=True)
    assert opened.off_prefill() == "</think>\n\n"  # the block the generation prompt opened, closed at once


@pytest.mark.parametrize("name", [QWEN3, R1_DISTILL, QWQ, GPT_OSS, MINISTRAL_REASONING])
def test_templates_that_drop_past_reasoning_are_known_to_drop_it(name: str) -> None:
    assert not support(name).keeps_past_reasoning


def test_a_template_that_renders_past_reasoning_is_known_to_keep_it() -> None:
    assert support(BIELIK).keeps_past_reasoning


def test_the_users_override_names_the_markers_for_a_template_that_does_not_say() -> None:
    found = reasoning_support(template(PHI), "think")
    assert found is not None and found.markers == THINK_TAGS and not found.starts_inside
    assert reasoning_support(template(QWEN3), NONE) is None


def test_gemma4_thinks_only_when_its_template_variable_says_so_and_glassbox_says_so_by_default() -> None:
    found = support(GEMMA4)
    assert found.switch is ThinkingSwitch.TEMPLATE
    off = generation_prompt(GEMMA4, **template_variables(found, thinking=False))
    assert off.endswith("<|channel>thought\n<channel|>")  # an empty thought: the answer comes at once
    reply = "<|channel>thought\nThe user says hi.<channel|>Hello!"
    assert split_reasoning(reply, found.markers) == ("\nThe user says hi.", "Hello!")


def test_a_template_that_refuses_past_reasoning_still_says_where_the_reply_starts() -> None:
    refusing = template(R1_DISTILL).replace(
        "{%- for message in messages -%}",
        "{%- for message in messages -%}{%- if message.reasoning_content -%}{{ raise_exception('no') }}{%- endif -%}",
        1,
    )
    found = reasoning_support(refusing)
    assert found is not None and found.starts_inside and not found.keeps_past_reasoning
