"""A lazy tool-call grammar in llama.cpp's sampler: free text until the model opens a call, then only
what the tool's schema allows."""

from __future__ import annotations

import json

from app.core.inference.engine import Engine
from app.core.inference.sampler_chain import SamplerChain
from app.core.inference.sampling import SamplingParams
from app.core.reasoning.tool_formats import ToolFamily
from app.core.reasoning.tool_grammar import lazy_tool_grammar
from app.core.types.tools import ToolSpec

TIME_TOOL = ToolSpec(
    "get_current_time",
    "",
    json.dumps({"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}),
)
GREEDY = SamplingParams(temperature=0.0, repeat_penalty=1.0)


def chain(engine: Engine) -> SamplerChain:
    grammar = lazy_tool_grammar(ToolFamily.HERMES, [TIME_TOOL])
    return SamplerChain(GREEDY, 0, engine.llama.n_vocab(), engine.llama.ctx, grammar)


def accept_text(sampler: SamplerChain, engine: Engine, text: str) -> list[bool]:
    return [sampler.accept(token) for token in engine.tokenize(text, special=False)]


def test_text_before_a_call_is_free(engine: Engine) -> None:
    sampler = chain(engine)
    try:
        assert all(accept_text(sampler, engine, "Any text at all: {not json} <tool and more."))
    finally:
        sampler.close()


def test_once_a_call_opens_only_the_schema_may_follow(engine: Engine) -> None:
    sampler = chain(engine)
    try:
        assert all(accept_text(sampler, engine, "Let me look.\n<tool_call>\n"))
        assert accept_text(sampler, engine, "Hello") == [False]  # not a call's JSON
        assert all(accept_text(sampler, engine, '{"name": "get_current_time", "arguments": {"timezone": "UTC"}}'))
    finally:
        sampler.close()


def test_a_call_may_not_name_a_tool_that_was_not_offered(engine: Engine) -> None:
    sampler = chain(engine)
    try:
        assert all(accept_text(sampler, engine, '<tool_call>\n{"name": "'))
        assert not all(accept_text(sampler, engine, "delete_everything"))
    finally:
        sampler.close()


def test_a_token_that_runs_past_the_opening_marker_leaves_the_call_free_instead_of_aborting(engine: Engine) -> None:
    """llama.cpp feeds a triggered grammar the text from the marker on, and aborts the process when the
    grammar refuses it: "<tool_call" then the one token "></" must not trigger it."""
    sampler = chain(engine)
    try:
        tokens = [*engine.tokenize("<tool_call", special=False), *engine.tokenize("></", special=False)]
        assert all(sampler.accept(token) for token in tokens)
        assert all(accept_text(sampler, engine, "anything after it, as text"))
    finally:
        sampler.close()
