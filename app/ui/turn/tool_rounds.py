"""The window's tool rounds: app/core/turn's `ToolRoundsStep` on the LLM worker's thread, asking the user on the GUI's.

`ToolCallEvents` lives as long as the window's chats: its permissions hold which tools the user allowed
always (the settings store's list, app/ui/chat/tool_steps.py keeps them in step) and it carries each call
across the threads. A call to approve leaves the worker's
thread as `asked`; the worker waits for `answer` (from the GUI thread), and a Stop ends the wait
as a denial, so nothing runs. Each call the turn ran (or did not) comes back as `called`.

`WindowToolRounds` is the turn's generate step when the chat has tool servers on. Its `listing` step
runs before the turn is planned, on the worker's thread: it reads mcp.json, starts the chat's servers and
lists their tools (a server that cannot start fails the turn, saying why), those the chat switched off
left out, so the plan counts the definitions of those offered only (a call to one is answered as to a
tool there is not). Then it runs the rounds, each result counted in the model's tokens. The text the
model writes for a call is held back from the stream (the call is shown as a step instead); the model
reads everything. A server's model is offered the tools in its request, and its server reads the calls.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from app.core.inference.sampling import SamplingParams
from app.core.reasoning.tool_calls import ToolCallSplitter
from app.core.reasoning.tool_formats import ToolFamily
from app.core.support.formatting import fill
from app.core.support.stop_flag import StopFlag
from app.core.support.user_text import N_
from app.core.tools.config import McpConfig
from app.core.tools.connection import ToolInfo
from app.core.tools.errors import McpConfigError, McpError
from app.core.tools.manager import McpManager
from app.core.turn.events import TurnSink
from app.core.turn.steps import TurnFailed, TurnState
from app.core.turn.tool_rounds import (
    Approval,
    CallRequest,
    GenerateWithTools,
    OfferedTool,
    ToolOffer,
    ToolPermissions,
    ToolRoundsStep,
    ToolSettings,
    offered_tools,
)
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.ui.llm.worker import LlmWorker, ReplyRequest


class ToolCallEvents(QObject):
    asked = Signal(object)  # CallRequest: the user is asked; `answer` says what they chose
    called = Signal(object)  # CallRecord: a call the turn ran or did not run, with what the model reads

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.permissions = ToolPermissions(ask=self._ask)  # "always": the settings store's, set by its owner
        self._answers: queue.SimpleQueue[Approval | None] = queue.SimpleQueue()
        self._stop = StopFlag()  # the running turn's (set by `watch` before its first call)

    def watch(self, stop: StopFlag) -> None:
        """The turn whose calls are asked from now on: its Stop ends a wait for an answer."""
        self._stop = stop

    def answer(self, approval: Approval) -> None:
        """The user's answer to the call asked last (GUI thread)."""
        self._answers.put(approval)

    def _ask(self, request: CallRequest) -> Approval:
        """On the worker's thread: ask, then wait for the answer or the Stop (a denial)."""
        answers: queue.SimpleQueue[Approval | None] = queue.SimpleQueue()
        self._answers = answers
        with self._stop.waking(lambda: answers.put(None)):
            if self._stop.is_set():
                return Approval.DENY
            self.asked.emit(request)
            answer = answers.get()
        return answer or Approval.DENY


class WindowToolRounds:
    """The turn's generate step with the tools of the chat's MCP servers offered."""

    name = "generate"

    def __init__(
        self,
        worker: LlmWorker,
        manager: McpManager,
        servers: Sequence[str],
        params: SamplingParams,
        events: ToolCallEvents,
        tools_off: Collection[tuple[str, str]] = (),
        config: Callable[[], McpConfig] = McpConfig,
    ) -> None:
        """`tools_off`: the (server, tool) pairs the chat switched off: not offered, and a call to one is not run."""
        self._worker = worker
        self._manager = manager
        self._servers = tuple(servers)
        self._off = frozenset(tools_off)
        self._params = params
        self._events = events
        self._config = config
        self._tools: tuple[OfferedTool, ...] | None = None  # listed by `listing`, before the plan
        self.listing = ListToolsStep(self)

    def list_tools(self) -> tuple[OfferedTool, ...]:
        """The chat's servers' tools, each server started (once per turn); TurnFailed says why one cannot be used."""
        if self._tools is None:
            self._tools = self._offered()
        return self._tools

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        self._events.watch(stop)
        tools = self.list_tools()
        family = None if self._worker.remote is not None else self._worker.backend.tool_format.family
        settings = ToolSettings(family)
        rounds = ToolRoundsStep(
            self._generate(family),
            self._manager,
            tools,
            self._events.permissions,
            settings,
            self._events.called.emit,
            self._worker.count_tokens,
        )
        rounds.run(state, stop, sink)

    def _offered(self) -> tuple[OfferedTool, ...]:
        """The chat's servers' tools, each server started; TurnFailed says why one cannot be used."""
        try:
            configured = self._config().load()
        except McpConfigError as error:
            raise TurnFailed(str(error)) from None
        self._manager.configure(configured)
        names = {server.name for server in configured}
        infos: list[ToolInfo] = []
        for name in self._servers:
            if name not in names:
                raise TurnFailed(
                    fill(N_("This chat uses the MCP server “{name}”, which is not in mcp.json any more."), name=name)
                )
            try:
                infos.extend(self._manager.tools(name))
            except McpError as error:
                raise TurnFailed(str(error)) from None
        return offered_tools(infos, self._off)

    def _generate(self, family: ToolFamily | None) -> GenerateWithTools:
        worker, params = self._worker, self._params

        def generate(
            messages: tuple[ChatMessage, ...], offer: ToolOffer, stop: StopFlag, on_event: Callable[[ReplyEvent], None]
        ) -> None:
            request = ReplyRequest(messages, params, tools=offer.tools, grammar=offer.grammar, forced=offer.forced)
            worker.stream_reply(request, stop, on_event if family is None else _without_calls(family, on_event))

        return generate


class ListToolsStep:
    """Before the plan: the chat's servers started and their tools listed, offered in the turn's request, so
    the context window counts their definitions."""

    name = "tools"

    def __init__(self, rounds: WindowToolRounds) -> None:
        self._rounds = rounds

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        specs = tuple(tool.spec for tool in self._rounds.list_tools())
        state.request = replace(state.request, tools=specs)


def _without_calls(family: ToolFamily, on_event: Callable[[ReplyEvent], None]) -> Callable[[ReplyEvent], None]:
    """`on_event` with the answer's call text held back (the ReplyDone still carries all of it)."""
    splitter = ToolCallSplitter(family)

    def shown(event: ReplyEvent) -> None:
        if isinstance(event, ReplyDone):
            rest = splitter.finish()
            if rest.content:
                on_event(TokenPiece(rest.content, -1))
            on_event(event)
            return
        if event.part is ReplyPart.ANSWER:
            text = splitter.feed(event.text)
            if not text:
                return
            event = TokenPiece(text, event.token_id, event.part)
        on_event(event)

    return shown
