"""The tool calls of the reply being written, shown as steps in it; the user's answers go back to the turn.

Made with the first reply that offers tools (the MCP SDK is not imported before). A call asked
while its reply is not on show (another chat is) is denied: nobody can see what it would run.
When the turn ends, a call still waiting for an answer says it did not run. The calls of the reply
being written are kept (`take_calls`) to be saved with it.

"Always allow this tool" is kept in the settings store (per server and tool, in the settings file), so it
holds in every chat and after a restart; the turn's permissions follow the store, so a tool taken back on
the MCP servers page is asked about again from its next call.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.core.turn.tool_rounds import Approval, CallRecord, CallRequest
from app.ui.chat.tool_call_step import SavedCall, ToolCallStep
from app.ui.chat.tool_images import png_thumbnails
from app.ui.chat.view import ChatView
from app.ui.settings.store import SettingsStore
from app.ui.turn.controller import TurnController
from app.ui.turn.tool_rounds import ToolCallEvents


class ToolCallSteps(QObject):
    def __init__(
        self, chat_view: ChatView, turns: TurnController, store: SettingsStore, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.chat_view = chat_view
        self._store = store
        self.events = ToolCallEvents(self)
        store.toolsAllowedChanged.connect(self._follow_store)
        self._follow_store()
        self.events.asked.connect(self._asked)
        self.events.called.connect(self._called)
        turns.finished.connect(self._ended)
        turns.failed.connect(self._ended)
        self.steps: dict[str, ToolCallStep] = {}  # the calls of the reply being written, not answered yet
        self._calls: list[SavedCall] = []  # the calls of the reply being written that ended

    def take_calls(self) -> list[SavedCall]:
        """The calls of the reply being written, as it keeps them (and forgets them here)."""
        calls, self._calls = self._calls, []
        return calls

    def _asked(self, request: CallRequest) -> None:
        step = self._step(request)
        if step is None:
            self.events.answer(Approval.DENY)
            return
        step.answered.connect(lambda answer: self._answer(request, Approval(answer)))
        step.set_asking(True)

    def _answer(self, request: CallRequest, approval: Approval) -> None:
        if approval is Approval.ALWAYS:  # kept before the call runs: a crash meanwhile does not lose it
            settings = self._store.settings
            self._store.set_defaults(settings.with_tool_always_allowed(request.server, request.call.name))
        self.events.answer(approval)

    def _follow_store(self) -> None:
        """The turn's permissions are the store's (a new set: the worker's thread may be reading the old one)."""
        self.events.permissions.always = set(self._store.settings.tools_always_allowed)

    def _called(self, record: CallRecord) -> None:
        call, result = record.call, record.tool_result
        saved = SavedCall(
            record.server,
            call.name,
            call.arguments,
            record.result,
            record.is_error,
            record.seconds,
            tokens=record.tokens,
            size_bytes=result.size_bytes if result is not None else 0,
            cap_bytes=result.cap_bytes if result is not None else 0,
            images=png_thumbnails(result.images()) if result is not None else (),
        )
        self._calls.append(saved)
        step = self.steps.pop(call.id, None) or self._step(CallRequest(record.server, call), keep=False)
        if step is not None:
            step.show_result(saved)

    def _step(self, request: CallRequest, keep: bool = True) -> ToolCallStep | None:
        live = self.chat_view.live_message
        if live is None:
            return None
        step = ToolCallStep(request.server, request.call.name, request.call.arguments, live)
        live.add_step(step)
        if keep:
            self.steps[request.call.id] = step
        return step

    def _ended(self, *_end: object) -> None:
        for step in self.steps.values():
            step.unanswered()
        self.steps.clear()
