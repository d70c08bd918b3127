"""Tool calls in a model's own format: the family read from its real chat template, the tools and
earlier calls rendered through it, and the calls read back from its answer, whole or streamed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llama_cpp import LlamaGrammar, llama_chat_format

from app.core.inference.template_choice import CHATML as CHATML_TEMPLATE
from app.core.reasoning.tool_calls import ToolCallSplitter, parse_tool_calls
from app.core.reasoning.tool_formats import (
    FALLBACK,
    ToolFamily,
    ToolFormat,
    messages_for_template,
    template_message,
    tool_format,
)
from app.core.reasoning.tool_grammar import lazy_tool_grammar, lazy_triggers, tool_call_grammar
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolCall, ToolSpec

TEMPLATES = Path(__file__).parent / "templates"
TIME_TOOL = ToolSpec(
    "get_current_time",
    "The time now in a time zone.",
    json.dumps({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}),
)
CALL = ToolCall("call_1", "get_current_time", '{"timezone": "Europe/Paris"}')
PARIS_CALL = '{"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}'
UTC_CALL = '{"name": "get_current_time", "arguments": {"timezone": "UTC"}}'
CONVERSATION = (
    ChatMessage("user", "What time is it in Paris?"),
    ChatMessage("assistant", "", tool_calls=(CALL,)),
    ChatMessage("tool", '{"datetime": "2026-12-04T11:00:00+01:00"}', tool_call_id="call_1"),
)


def template(name: str) -> str:
    return (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")


def render(template_text: str, messages: tuple[ChatMessage, ...], tools: tuple[ToolSpec, ...]) -> str:
    form = tool_format(template_text)
    written, variables = messages_for_template(messages, tools, form)
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template_text, eos_token="</s>", bos_token="<s>")
    chat = [{"role": m.role, "content": m.content, **template_message(m)} for m in written]
    return str(formatter(messages=chat, **variables).prompt)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Qwen-Qwen3-0.6B", ToolFamily.HERMES),
        ("Qwen-QwQ-32B", ToolFamily.HERMES),
        ("mistralai-Ministral-3-14B-Reasoning-2512", ToolFamily.MISTRAL),
        ("openai-gpt-oss-120b", ToolFamily.HARMONY),
    ],
)
def test_the_family_is_the_one_the_template_writes_calls_in(name: str, family: ToolFamily) -> None:
    assert tool_format(template(name)) == ToolFormat(family, template_renders_tools=True)


@pytest.mark.parametrize("template_text", [template("microsoft-Phi-3.5-mini-instruct"), CHATML_TEMPLATE, ""])
def test_a_template_without_tools_gets_glassboxs_hermes_offer(template_text: str) -> None:
    assert tool_format(template_text) is FALLBACK


def test_qwen3_renders_the_tools_the_call_and_its_result_itself() -> None:
    prompt = render(template("Qwen-Qwen3-0.6B"), CONVERSATION, (TIME_TOOL,))

    assert '"name": "get_current_time"' in prompt.split("\n</tools>")[0]  # the offer, in the system message
    assert f"<tool_call>\n{PARIS_CALL}\n</tool_call>" in prompt
    assert "<tool_response>\n" + CONVERSATION[2].content + "\n</tool_response>" in prompt
    assert prompt.endswith("<|im_start|>assistant\n")


def test_ministral_renders_the_call_in_its_own_markers() -> None:
    prompt = render(template("mistralai-Ministral-3-14B-Reasoning-2512"), CONVERSATION, (TIME_TOOL,))

    assert "[AVAILABLE_TOOLS]" in prompt
    assert '[TOOL_CALLS]get_current_time[ARGS]{"timezone": "Europe/Paris"}' in prompt
    assert "[TOOL_RESULTS]" + CONVERSATION[2].content + "[/TOOL_RESULTS]" in prompt


def test_a_template_without_tools_gets_them_in_the_system_message_and_results_as_user_turns() -> None:
    prompt = render(CHATML_TEMPLATE, (ChatMessage("system", "Be brief."), *CONVERSATION), (TIME_TOOL,))

    system = prompt.split("<|im_end|>")[0]
    assert system.startswith("<|im_start|>system\nBe brief.\n\n# Tools")
    assert '"name": "get_current_time"' in system
    assert f"<|im_start|>assistant\n<tool_call>\n{PARIS_CALL}\n</tool_call>" in prompt
    assert "<|im_start|>user\n<tool_response>\n" + CONVERSATION[2].content + "\n</tool_response>" in prompt
    assert "<|im_start|>tool" not in prompt


def test_without_tools_offered_the_prompt_is_the_plain_chat() -> None:
    plain = (ChatMessage("user", "Hi"),)
    assert render(template("Qwen-Qwen3-0.6B"), plain, ()) == render(template("Qwen-Qwen3-0.6B"), plain, ())
    assert "# Tools" not in render(template("Qwen-Qwen3-0.6B"), plain, ())
    assert "# Tools" not in render(CHATML_TEMPLATE, plain, ())


@pytest.mark.parametrize(
    ("family", "answer"),
    [
        (
            ToolFamily.HERMES,
            f"Let me look.\n<tool_call>\n{UTC_CALL}\n</tool_call>",
        ),
        (ToolFamily.LLAMA3, '{"name": "get_current_time", "parameters": {"timezone": "UTC"}}'),
        (ToolFamily.LLAMA3, '<|python_tag|>{"name": "get_current_time", "parameters": {"timezone": "UTC"}}'),
        (ToolFamily.MISTRAL, '[TOOL_CALLS]get_current_time[ARGS]{"timezone": "UTC"}'),
        (ToolFamily.MISTRAL_JSON, '[TOOL_CALLS][{"name": "get_current_time", "arguments": {"timezone": "UTC"}}]'),
        (
            ToolFamily.HARMONY,
            "<|channel|>commentary to=functions.get_current_time <|constrain|>json<|message|>"
            '{"timezone": "UTC"}<|call|>',
        ),
    ],
)
def test_a_call_is_read_in_each_family(family: ToolFamily, answer: str) -> None:
    parsed = parse_tool_calls(answer, family)

    assert [(call.name, call.parsed_arguments) for call in parsed.calls] == [("get_current_time", {"timezone": "UTC"})]
    assert parsed.content in ("", "Let me look.")
    assert parsed.calls[0].id.startswith("call_")


def test_parallel_hermes_calls_are_each_read_with_their_own_id() -> None:
    answer = (
        '<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call>\n'
        '<tool_call>\n{"name": "b", "arguments": "{\\"x\\": 1}"}\n</tool_call>'
    )
    calls = parse_tool_calls(answer, ToolFamily.HERMES).calls

    assert [(call.name, call.parsed_arguments) for call in calls] == [("a", {}), ("b", {"x": 1})]
    assert calls[0].id != calls[1].id


@pytest.mark.parametrize(
    ("family", "answer"),
    [
        (ToolFamily.HERMES, "<tool_call>\n{not json}\n</tool_call>"),
        (ToolFamily.HERMES, '<tool_call>{"arguments": {}}</tool_call>'),  # no name
        (ToolFamily.LLAMA3, "{this is a brace in prose}"),
        (ToolFamily.MISTRAL, "[TOOL_CALLS]get_current_time[ARGS][1, 2]"),  # arguments not an object
    ],
)
def test_a_call_that_does_not_parse_stays_text(family: ToolFamily, answer: str) -> None:
    assert parse_tool_calls(answer, family).calls == ()
    assert parse_tool_calls(answer, family).content == answer


def test_text_without_a_call_is_all_content() -> None:
    parsed = parse_tool_calls("The time is noon. {braces} later are prose.", ToolFamily.LLAMA3)
    assert parsed == parse_tool_calls("The time is noon. {braces} later are prose.", ToolFamily.LLAMA3)
    assert parsed.calls == ()
    assert parsed.content == "The time is noon. {braces} later are prose."


def test_streamed_in_pieces_cut_anywhere_the_text_before_the_call_flows_and_the_call_is_held() -> None:
    answer = f"Checking <tool_c the clock.<tool_call>\n{UTC_CALL}\n</tool_call>"
    splitter = ToolCallSplitter(ToolFamily.HERMES)
    streamed = ""
    for character in answer:
        streamed += splitter.feed(character)
        if splitter.calling:
            assert streamed == "Checking <tool_c the clock."
    rest = splitter.finish()

    assert streamed == "Checking <tool_c the clock."
    assert [call.name for call in rest.calls] == ["get_current_time"]
    assert rest.content == ""


def test_a_stream_that_ends_on_part_of_a_marker_gives_it_back_as_text() -> None:
    splitter = ToolCallSplitter(ToolFamily.HERMES)
    assert splitter.feed("Done <tool") == "Done "
    assert splitter.finish().content == "<tool"


@pytest.mark.parametrize("family", list(ToolFamily))
def test_the_call_grammar_is_valid_gbnf_naming_only_the_tools_offered(family: ToolFamily) -> None:
    grammar = tool_call_grammar(family, [TIME_TOOL, ToolSpec("no_arguments")])

    LlamaGrammar.from_string(grammar, verbose=False)  # llama.cpp's own parser: raises on a bad grammar
    assert "get_current_time" in grammar
    assert "no_arguments" in grammar
    assert "timezone" in grammar


def test_a_call_grammar_needs_a_tool() -> None:
    with pytest.raises(ValueError, match="at least one tool"):
        tool_call_grammar(ToolFamily.HERMES, [])


def test_a_lazy_grammar_waits_for_its_familys_marker_and_allows_several_calls() -> None:
    grammar = lazy_tool_grammar(ToolFamily.HERMES, [TIME_TOOL])
    triggers, gbnf = lazy_triggers(grammar)

    assert triggers == [r"^[\s\S]*?(<tool_call>)$"]  # whole text ending at the marker (see tool_grammar.py)
    LlamaGrammar.from_string(gbnf, verbose=False)
    assert "root ::= call (" in gbnf


@pytest.mark.parametrize("family", [ToolFamily.LLAMA3, ToolFamily.HARMONY])
def test_a_family_without_a_marker_to_wait_for_gets_no_lazy_grammar(family: ToolFamily) -> None:
    assert lazy_tool_grammar(family, [TIME_TOOL]) == ""


def test_a_grammar_without_triggers_holds_from_the_first_token() -> None:
    grammar = tool_call_grammar(ToolFamily.HERMES, [TIME_TOOL])
    assert lazy_triggers(grammar) == ([], grammar)
