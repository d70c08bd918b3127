"""`glassbox chat --tools SERVER[,SERVER]`: the reply as a turn with the servers' tools.

The model is offered the tools of the named MCP servers (mcp.json); each call it makes is shown on
stderr with its arguments and asked on the terminal before it runs (`--approve ask`, the default:
yes once, always for this tool, or no), unless `--approve always`. Without a terminal to ask on,
a call is denied. The result's first line is shown under the call; the model reads all of it and
answers. `--tool-choice required` makes the first reply call one of the tools (under a grammar
from their schemas); `none` offers no tools.

With `--server`, the server's model is offered the tools in its request (`tool_choice` for
`required`) and the server reads its calls; a server that refuses tools is said on stderr, and the
reply is written without them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from app.cli.common import CommandError
from app.cli.reply_printer import ReplyPrinter
from app.cli.terminal_text import terminal_safe
from app.core.backends.local.backend import LocalBackend
from app.core.backends.remote import RemoteBackend, RemoteReplyDone
from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.documents.retrieval import Retrieval
from app.core.inference.sampling import SamplingParams
from app.core.reasoning.tool_calls import ToolCallSplitter
from app.core.reasoning.tool_formats import ToolFamily
from app.core.support.stop_flag import StopFlag
from app.core.tools.connection import ToolInfo
from app.core.tools.errors import McpError
from app.core.tools.manager import McpManager
from app.core.turn.steps import TurnState
from app.core.turn.tool_rounds import (
    Approval,
    CallRecord,
    CallRequest,
    OfferedTool,
    ToolOffer,
    ToolPermissions,
    ToolRoundsStep,
    ToolSettings,
    offered_tools,
)
from app.core.turn.turn import Turn
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyMetrics
from app.core.types.token_trace import TokenTrace

ANSWERS = {"y": Approval.ONCE, "yes": Approval.ONCE, "a": Approval.ALWAYS, "always": Approval.ALWAYS}


def server_names(value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise CommandError("--tools needs at least one server name")
    return names


def offered(manager: McpManager, names: list[str]) -> tuple[OfferedTool, ...]:
    """The tools of the named servers (each started); CommandError for a server that cannot start."""
    infos: list[ToolInfo] = []
    for name in names:
        try:
            infos.extend(manager.tools(name))
        except McpError as error:
            raise CommandError(str(error)) from None
    tools = offered_tools(infos)
    if not tools:
        raise CommandError(f"the servers {', '.join(names)} offer no tool that can be called")
    return tools


def ask_on_terminal(request: CallRequest) -> Approval:
    """yes once, always for this tool, or no; no terminal to ask on: no."""
    if not sys.stdin.isatty():
        print("[not run: no terminal to ask on; use --approve always to run calls unasked]", file=sys.stderr)
        return Approval.DENY
    prompt = f"Run {request.server}.{request.call.name}? [y]es / [a]lways for this tool / [N]o: "
    try:
        answer = input(terminal_safe(prompt)).strip().lower()
    except EOFError:
        return Approval.DENY
    return ANSWERS.get(answer, Approval.DENY)


def run_tool_turn(
    args: argparse.Namespace,
    backend: LocalBackend | RemoteBackend,
    manager: McpManager,
    messages: list[ChatMessage],
    params: SamplingParams,
    stop: StopFlag,
) -> tuple[ReplyDone | None, str]:
    """Run the turn, printing it; its ReplyDone, or None and why it failed."""
    tools = offered(manager, server_names(args.tools)) if args.tool_choice != "none" else ()
    forced = tuple(tool.spec.name for tool in tools) if args.tool_choice == "required" else ()
    permissions = ToolPermissions(ask=ask_on_terminal if args.approve == "ask" else None)
    printer = ReplyPrinter(sys.stdout, terminal=sys.stdout.isatty(), show_thinking=not args.hide_thinking)
    family = backend.tool_format.family if isinstance(backend, LocalBackend) else None
    sink = _PrintingSink(printer, family)

    def generate(
        conversation: tuple[ChatMessage, ...], offer: ToolOffer, flag: StopFlag, on_event: Callable[[ReplyEvent], None]
    ) -> None:
        if isinstance(backend, RemoteBackend):
            events = backend.stream_chat(conversation, params, flag, tools=offer.tools, forced=offer.forced)
        else:
            events = backend.stream_chat(conversation, params, flag, grammar=offer.grammar, tools=offer.tools)
        for event in events:
            if isinstance(event, RemoteReplyDone) and event.notice:  # the server refused the tools
                print(terminal_safe(event.notice), file=sys.stderr)
            on_event(event)

    settings = ToolSettings(family, forced=forced)
    rounds = ToolRoundsStep(generate, manager, tools, permissions, settings, sink.called)
    plan = WindowPlan(tuple(messages), (), (), 0, 0, 0, 0, WindowPolicy.ROLLING)
    state = TurnState(PlanRequest("reply", "", (), 0), plan=plan)
    turn = Turn([rounds], state, sink)
    turn.stop = stop  # the command's Ctrl-C flag is the turn's
    try:
        turn.run()
    finally:
        printer.close()
    return sink.done, sink.failure


@dataclass
class _PrintingSink:
    """Prints the turn: the answer on stdout (a call's own text held back), each call and its result on stderr."""

    printer: ReplyPrinter
    family: ToolFamily | None  # None: a server reads the calls, none is in the text
    done: ReplyDone | None = None
    failure: str = ""
    _splitter: ToolCallSplitter | None = field(default=None, init=False)

    def step_started(self, name: str) -> None:
        if name == "generate":
            self._release()
            self._splitter = ToolCallSplitter(self.family) if self.family is not None else None

    def retrieved(self, retrieval: Retrieval) -> None:
        pass

    def planned(self, result: PlanResult) -> None:
        pass

    def token(self, piece: TokenPiece) -> None:
        if piece.part is ReplyPart.ANSWER and self._splitter is not None:
            text = self._splitter.feed(piece.text)
            if not text:
                return
            piece = TokenPiece(text, piece.token_id, piece.part)
        self.printer.piece(piece)

    def measured(self, metrics: ReplyMetrics | None, trace: TokenTrace | None) -> None:
        pass

    def called(self, record: CallRecord) -> None:
        self._release()
        self.printer.end()
        arguments = json.dumps(record.call.parsed_arguments, ensure_ascii=False)
        where = f"{record.server}." if record.server else ""
        print(terminal_safe(f"[tool] {where}{record.call.name}({arguments})"), file=sys.stderr)
        lines = record.result.strip().splitlines() or [""]
        more = f" … ({len(record.result)} characters)" if len(lines) > 1 else ""
        mark = "error: " if record.is_error else ""
        print(terminal_safe(f"[tool] → {mark}{lines[0]}{more}"), file=sys.stderr)

    def finished(self, done: ReplyDone) -> None:
        self._release()
        self.printer.end()
        self.done = done

    def failed(self, partial: str, message: str) -> None:
        self._release()
        self.printer.end()
        self.failure = message

    def _release(self) -> None:
        """The text a round held back as a possible call: printed unless it was one."""
        if self._splitter is None:
            return
        rest = self._splitter.finish()
        self._splitter = None
        if rest.content:
            self.printer.piece(TokenPiece(rest.content, -1))
