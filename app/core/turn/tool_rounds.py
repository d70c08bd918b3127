"""The turn's tool rounds: generate, call, read, generate … until the model answers in text.

After each reply the model wrote, its tool calls are read in its template's family
(app/core/reasoning/tool_calls.py); a server's model has them read by its server, and they come with
the reply (`ReplyDone.tool_calls`, with the ids their results go back with). Each call is a step of
the turn: "call" (asked of the user first, unless they said always for that tool; then run on its
MCP server with a timeout and the turn's stop flag, so a Stop cancels it), then "read" (the result,
or why there is none, goes back to the model as a tool message). Then the model writes again. A
forced tool choice constrains the first reply only, under a grammar from the tool's schema; the
other replies get the lazy grammar that holds a call to its schema once the model starts one. A
server's model gets no grammar: the forced choice goes to its server as the request's `tool_choice`.
The last round of the step limit offers no tools, so the model has to answer. A call whose arguments
are not a JSON object (a server's model writes them free) does not run: why is what the model reads.

Nothing here stops a turn on a failed tool: a denial, an unknown tool, a timeout or a server that
died is the result the model reads, and the user sees it on the call's step.

What the results take of the context is said as they come: each result's tokens are counted with the
loaded model's tokenizer (`count`, on the turn's thread), and once a round's results are read the turn's
window is reported again (`TurnSink.planned`) with the calls and results in it: the round's prompt and
reply, plus the results (the template's few markers around them aside), `tool_result_tokens` of them.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from app.core.chat.context_window import PlanResult
from app.core.reasoning.tool_calls import ParsedAnswer, parse_tool_calls
from app.core.reasoning.tool_formats import ToolFamily
from app.core.reasoning.tool_grammar import lazy_tool_grammar, tool_call_grammar
from app.core.support.formatting import fill
from app.core.support.stop_flag import StopFlag
from app.core.support.user_text import N_
from app.core.tools.connection import ToolInfo
from app.core.tools.errors import CallStopped, McpError
from app.core.tools.results import ToolResult
from app.core.turn.events import TurnSink
from app.core.turn.steps import GenerateStep, TurnFailed, TurnState
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.tools import ToolCall, ToolSpec

CALL = "call"
READ = "read"
DEFAULT_MAX_ROUNDS = 6  # replies a turn may write; the last one is offered no tools
ARGUMENTS_SHOWN = 200  # of a call's arguments that are not a JSON object, the characters the model is shown


@dataclass(frozen=True)
class ToolOffer:
    """What one reply is offered: the tools, and how it is held to them."""

    tools: tuple[ToolSpec, ...] = ()
    grammar: str = ""  # GBNF a local model's reply follows ("": free)
    forced: tuple[str, ...] = ()  # the tools one of which the reply must call (a server's tool_choice)


# The reply to `messages` with a ToolOffer, its events then one ReplyDone.
GenerateWithTools = Callable[[tuple[ChatMessage, ...], ToolOffer, StopFlag, Callable[[ReplyEvent], None]], None]


class ToolCaller(Protocol):
    """What runs a tool (McpManager)."""

    def call(
        self,
        name: str,
        tool: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout_s: float | None = None,
        stop: threading.Event | None = None,
    ) -> ToolResult: ...


@dataclass(frozen=True)
class OfferedTool:
    server: str
    spec: ToolSpec


def offered_tools(infos: Sequence[ToolInfo], off: Collection[tuple[str, str]] = ()) -> tuple[OfferedTool, ...]:
    """The usable tools of the servers' listings, as the model is offered them (the first of a name wins);
    `off`: the (server, tool) pairs the chat switched off, left out (a call to one reads as to an unknown tool)."""
    offered: dict[str, OfferedTool] = {}
    for info in infos:
        if info.usable and info.name not in offered and (info.server, info.name) not in off:
            spec = ToolSpec(info.name, info.description, json.dumps(info.input_schema))
            offered[info.name] = OfferedTool(info.server, spec)
    return tuple(offered.values())


class Approval(StrEnum):
    ONCE = "once"  # run this call
    ALWAYS = "always"  # run this call and every later call of this tool without asking
    DENY = "deny"


@dataclass(frozen=True)
class CallRequest:
    """What the user is asked about before a call runs."""

    server: str
    call: ToolCall


Approve = Callable[[CallRequest], Approval]


@dataclass
class ToolPermissions:
    """Which tools the user allowed always (owned by whoever keeps the chat: the window's session, the CLI)."""

    always: set[tuple[str, str]] = field(default_factory=set)  # (server, tool)
    ask: Approve | None = None  # None: every call runs (the user said always for all of them)

    def decide(self, request: CallRequest) -> Approval:
        key = (request.server, request.call.name)
        if self.ask is None or key in self.always:
            return Approval.ALWAYS
        decision = self.ask(request)
        if decision is Approval.ALWAYS:
            self.always.add(key)
        return decision


@dataclass(frozen=True)
class CallRecord:
    """One call as the turn ran it: what the model asked, what the user said, what came back."""

    server: str
    call: ToolCall
    approval: Approval
    result: str  # what the model reads
    is_error: bool = False
    tool_result: ToolResult | None = None  # the result as the server gave it (None when it did not run)
    seconds: float = 0.0  # the tool's own run time
    tokens: int = 0  # what `result` takes of the context, in the loaded model's tokens (0: not counted)


@dataclass(frozen=True)
class ToolSettings:
    family: ToolFamily | None  # None: a server's model, whose server reads its calls
    forced: tuple[str, ...] = ()  # tools one of which the first reply must call (none: it is free)
    max_rounds: int = DEFAULT_MAX_ROUNDS
    timeout_s: float | None = None  # per call (None: the caller's own)


class ToolRoundsStep:
    """Generate with tools offered; run the calls the reply makes and generate again, until an answer."""

    name = "generate"

    def __init__(
        self,
        generate: GenerateWithTools,
        caller: ToolCaller,
        tools: Sequence[OfferedTool],
        permissions: ToolPermissions,
        settings: ToolSettings,
        on_call: Callable[[CallRecord], None] = lambda _record: None,
        count: Callable[[str], int] | None = None,
    ) -> None:
        """`count`: a text's tokens with the loaded model's tokenizer (None: results are not counted)."""
        self._generate = generate
        self._count = count
        self._caller = caller
        self._tools = {tool.spec.name: tool for tool in tools}
        self._permissions = permissions
        self._settings = settings
        self._on_call = on_call

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        if state.plan is None:
            raise TurnFailed(N_("The reply cannot be written: its context window was not planned."))
        messages = tuple(state.plan.messages)
        specs = tuple(tool.spec for tool in self._tools.values())
        forced = tuple(name for name in self._settings.forced if name in self._tools)
        results = 0  # the tokens of the results read so far
        for round_number in range(self._settings.max_rounds):
            last = round_number == self._settings.max_rounds - 1
            offered = () if last else specs
            if round_number:
                sink.step_started(self.name)
                state.partial, state.reasoning, state.done = "", "", None
            offer = self._offer(offered, forced if not round_number and offered else ())
            self._generate_once(messages, offer, state, stop, sink)
            if state.done is None or stop.is_set() or not offered:
                return
            parsed = self._calls(state.done)
            if not parsed.calls:
                return
            done, state.done = state.done, None  # the turn is not over: a Stop now ends it as stopped
            state.partial = parsed.content
            messages += (ChatMessage("assistant", parsed.content, done.reasoning, parsed.calls),)
            read = 0
            for call in parsed.calls:
                sink.step_started(CALL)
                record = self._counted(self._run_call(call, stop))
                self._on_call(record)
                if stop.is_set():
                    return
                sink.step_started(READ)
                messages += (ChatMessage("tool", record.result, tool_call_id=call.id),)
                read += record.tokens
            results += read
            self._report_window(state, sink, messages, done, read, results)

    def _counted(self, record: CallRecord) -> CallRecord:
        """The record with its result's tokens, when a tokenizer counts them."""
        if self._count is None or not record.result:
            return record
        return replace(record, tokens=self._count(record.result))

    def _report_window(
        self,
        state: TurnState,
        sink: TurnSink,
        messages: tuple[ChatMessage, ...],
        done: ReplyDone,
        read: int,
        results: int,
    ) -> None:
        """The turn's window with this round's calls and results in it, for the meter."""
        if state.plan is None or not done.stats.prompt_tokens:
            return
        prompt = done.stats.prompt_tokens + done.stats.completion_tokens + read
        plan = replace(state.plan, messages=messages, prompt_tokens=prompt, prompt_ids=(), tool_result_tokens=results)
        sink.planned(PlanResult(state.request, plan))

    def _offer(self, offered: tuple[ToolSpec, ...], forced: tuple[str, ...]) -> ToolOffer:
        """The reply's offer: a local model's held to it by a grammar (the forced tools' own, or the lazy
        one), a server's by its `tool_choice`."""
        family = self._settings.family
        if family is None or not offered:
            return ToolOffer(offered, forced=forced)
        if forced:
            return ToolOffer(offered, tool_call_grammar(family, [self._tools[name].spec for name in forced]), forced)
        return ToolOffer(offered, lazy_tool_grammar(family, offered))

    def _calls(self, done: ReplyDone) -> ParsedAnswer:
        """The reply's text and calls: as its server read them, or read here in the model's family."""
        if self._settings.family is None:
            return ParsedAnswer(done.text, done.tool_calls)
        return parse_tool_calls(done.text, self._settings.family)

    def _generate_once(
        self,
        messages: tuple[ChatMessage, ...],
        offer: ToolOffer,
        state: TurnState,
        stop: StopFlag,
        sink: TurnSink,
    ) -> None:
        def generate(_plan: object, flag: StopFlag, on_event: Callable[[ReplyEvent], None]) -> None:
            self._generate(messages, offer, flag, on_event)

        GenerateStep(generate).run(state, stop, sink)

    def _run_call(self, call: ToolCall, stop: StopFlag) -> CallRecord:
        tool = self._tools.get(call.name)
        if tool is None:
            message = fill(N_("There is no tool named {name}."), name=call.name)
            return CallRecord("", call, Approval.DENY, message, is_error=True)
        if not _is_object(call.arguments):
            message = fill(
                N_("The call was not run: its arguments are not a JSON object: {arguments}"),
                arguments=call.arguments[:ARGUMENTS_SHOWN],
            )
            return CallRecord(tool.server, call, Approval.DENY, message, is_error=True)
        approval = self._permissions.decide(CallRequest(tool.server, call))
        if approval is Approval.DENY:
            return CallRecord(tool.server, call, approval, N_("The user denied this call."), is_error=True)
        started = time.perf_counter()
        try:
            result = self._caller.call(
                tool.server, call.name, call.parsed_arguments, timeout_s=self._settings.timeout_s, stop=stop
            )
        except CallStopped:
            return CallRecord(tool.server, call, approval, N_("The call was stopped."), is_error=True)
        except McpError as error:
            return CallRecord(tool.server, call, approval, str(error), is_error=True)
        seconds = time.perf_counter() - started
        return CallRecord(tool.server, call, approval, result.text(), result.is_error, result, seconds)


def _is_object(arguments: str) -> bool:
    try:
        return isinstance(json.loads(arguments), dict)
    except (ValueError, RecursionError):
        return False
