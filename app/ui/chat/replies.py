"""The chat's side of a turn: start it from the chat on show, show its events, save its end.

`start` saves an empty streaming reply and hands the turn's steps (retrieve when the chat
has documents or long memory, plan the context window, generate) to the turn controller
(app/ui/turn), which runs them on the LLM worker's thread; `stop` sets the turn's own stop
flag. Whatever happens, the turn ends once: `finished` (also a stopped turn, with its
partial text) or `failed` (with its partial text), and the reply is saved with its state
and stats — also when another chat is on show by now. A reply that ended before its first
token leaves nothing in the history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan
from app.core.chat.store import Message, MessageState
from app.core.documents.retrieval import Retrieval
from app.core.inference import decoding_mode, replay, token_probs
from app.core.inference.decoding_mode import BeamReplyDone
from app.core.inference.sampling import SamplingParams
from app.core.settings import ChatSettings
from app.core.state import AppState
from app.core.support.formatting import fill
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import GenerateStep, PlanStep, RetrieveStep, TurnStep
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.stats import ReplyMetrics, StopReason
from app.core.types.token_trace import TokenTrace
from app.ui import message
from app.ui.chat.decoding_mode import reply_request
from app.ui.chat.session import ChatSession, stats_dict
from app.ui.chat.sidebar import ChatSidebar
from app.ui.chat.tool_call_step import STATS_KEY as TOOL_CALLS_KEY
from app.ui.chat.view import ChatView
from app.ui.llm.decoding_replies import ForkSpec
from app.ui.llm.retrieval import RetrievalWorker
from app.ui.llm.worker import LlmWorker
from app.ui.turn.controller import TurnController
from app.ui.turn.retrieve import retrieve_with
from app.ui.widgets.error_banner import NoticeAction

if TYPE_CHECKING:
    from app.core.tools.manager import McpManager
    from app.ui.chat.tool_steps import ToolCallSteps
    from app.ui.turn.tool_rounds import WindowToolRounds

REPLY = "reply"


class ChatReplies(QObject):
    replyBegun = Signal(object)  # MessageWidget: the reply being written, on show (the chat gives it its menu)
    planShown = Signal(object)  # PlanResult: the turn's window, for the chat it was planned in (on show)
    retrievalShown = Signal(object)  # Retrieval: what was retrieved for the reply now being written
    replySaved = Signal(object)  # Message | None: the turn's end is saved (None: dropped, or not on show)
    ended = Signal(object, bool)  # ReplyDone, whether its chat is on show: last, after the reply is saved
    retryRequested = Signal()  # write the failed reply again

    def __init__(
        self,
        state: AppState,
        worker: LlmWorker,
        session: ChatSession,
        chat_view: ChatView,
        sidebar: ChatSidebar,
        retrieval: RetrievalWorker | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.worker = worker
        self.session = session
        self.chat_view = chat_view
        self.sidebar = sidebar
        self.retrieval = retrieval
        self.turns = TurnController(worker, self)
        self.reply: Message | None = None  # the reply being written now
        self.last_retrieval: Retrieval | None = None  # what was retrieved for it (excerpts that made it in)
        self.pending_fork: ForkSpec | None = None  # the next reply forks an earlier one (Conversations.fork_reply)
        self._plan: WindowPlan | None = None  # the reply's context window
        self._metrics: ReplyMetrics | None = None
        self._trace: TokenTrace | None = None
        self.mcp_manager: Callable[[], McpManager] | None = None  # the MCP servers' (the window's Tools menu)
        self.tool_steps: ToolCallSteps | None = None  # made with the first reply that offers tools
        self.turns.token.connect(session.reply_grew)
        self.turns.token.connect(chat_view.append_tokens)
        self.turns.reasoning.connect(session.reasoning_grew)
        self.turns.reasoning.connect(chat_view.append_reasoning)
        self.turns.retrieved.connect(self._on_retrieved)
        self.turns.planned.connect(self._on_planned)
        self.turns.metrics.connect(self._remember_metrics)
        self.turns.trace.connect(self._remember_trace)
        self.turns.finished.connect(self._on_finished)
        self.turns.failed.connect(self._on_failed)

    @property
    def reply_on_show(self) -> bool:
        """Whether the reply being written belongs to the chat on show (it goes on in its own otherwise)."""
        return self.reply is not None and self.reply.chat_id == self.session.chat.id

    def live_text(self) -> str:
        """What the reply being written holds so far, shown or not."""
        return self.session.recorded_text()

    def start(self, window_ids: tuple[str, ...]) -> None:
        """Save an empty reply, show it streaming, and run the turn; `window_ids`: the turns the last plan
        kept in the window (long memory does not recall them)."""
        used = self.session.effective()
        loaded = self.state.loaded_config
        n_ctx = loaded.n_ctx if loaded is not None else 0  # the model's, not a setting not yet loaded
        snapshot = {
            "sampling": used.sampling.to_dict(),
            "system_prompt": used.system_prompt,
            "window_policy": used.window_policy.value,
            "n_ctx": n_ctx,
            "decoding": self.session.chat_settings.decoding.to_dict(),
        }
        history = self.session.window_records()
        self.reply = self.session.begin_reply(Path(loaded.model_path).stem if loaded is not None else "", snapshot)
        self._plan, self._metrics, self._trace, self.last_retrieval = None, None, None, None
        self.sidebar.set_writing(self.reply.chat_id)
        self.replyBegun.emit(self.chat_view.begin_reply(key=self.reply.id))
        request = PlanRequest(
            REPLY,
            used.system_prompt,
            history,
            used.sampling.max_tokens,
            used.window_policy,
            with_ids=True,
            sampling=used.sampling,  # a thinking model's switch and effort change the prompt
        )
        steps: list[TurnStep] = []
        if self.retrieval is not None and history and history[-1].role == "user":
            thread_ids = tuple(str(m.id) for m in history)
            steps.append(RetrieveStep(retrieve_with(self.retrieval, self.reply.chat_id, thread_ids, window_ids, n_ctx)))
        sampling, decoding = used.sampling, self.session.chat_settings.decoding
        fork, self.pending_fork = self.pending_fork, None
        worker = self.worker

        def generate(plan: WindowPlan, stop: StopFlag, emit: Callable[[ReplyEvent], None]) -> None:
            request = replace(reply_request(plan.messages, sampling, decoding, fork), prompt_ids=plan.prompt_ids)
            worker.stream_reply(request, stop, emit)

        chat = self.session.chat_settings
        write: TurnStep = GenerateStep(generate)
        if chat.tool_servers and self.mcp_manager is not None:
            rounds = self._tool_rounds(chat, decoding.params(sampling))
            steps.append(rounds.listing)  # the plan counts the tools' definitions
            write = rounds
        self.turns.start([*steps, PlanStep(worker.plan), write], request)

    def _tool_rounds(self, chat: ChatSettings, params: SamplingParams) -> WindowToolRounds:
        """The reply written with the tools of the chat's servers offered (but those it switched off), each call
        shown and asked in it."""
        from app.ui.chat.tool_steps import ToolCallSteps  # the MCP SDK: imported once a chat uses tools
        from app.ui.turn.tool_rounds import WindowToolRounds

        assert self.mcp_manager is not None
        if self.tool_steps is None:
            self.tool_steps = ToolCallSteps(self.chat_view, self.turns, self.session.store, self)
        events = self.tool_steps.events
        return WindowToolRounds(self.worker, self.mcp_manager(), chat.tool_servers, params, events, chat.tools_off)

    def stop(self) -> None:
        self.turns.stop()

    def _on_retrieved(self, retrieval: Retrieval) -> None:
        if retrieval.block:
            self.last_retrieval = retrieval
            self.retrievalShown.emit(retrieval)

    def _on_planned(self, result: PlanResult) -> None:
        if not result.request.retrieved:  # the excerpts did not fit: the reply is written without them
            self.last_retrieval = None
        if result.plan is None or self.reply is None:
            return
        if self._plan is None:  # the turn's plan (a tool turn reports its window again as results come)
            self._remember_dropped(result.plan)
        self._plan = result.plan
        if self.reply_on_show:  # the window marks belong to the chat they were planned for
            self.planShown.emit(result)

    def _remember_metrics(self, metrics: ReplyMetrics) -> None:
        self._metrics = metrics

    def _remember_trace(self, trace: TokenTrace) -> None:
        self._trace = trace

    def _remember_dropped(self, plan: WindowPlan) -> None:
        """Hand the turns the window dropped to long memory (it indexes them when it is on for the chat)."""
        if self.retrieval is None or not plan.outside_ids or not self.reply_on_show:
            return  # another chat is on show by now: its turns are not these
        outside = {str(i) for i in plan.outside_ids}
        turns = tuple(m for m in self.session.window_messages() if m.id in outside)
        self.retrieval.rememberRequested.emit(self.session.chat.id, turns)

    def _on_finished(self, done: ReplyDone) -> None:
        """Save the reply with its state and stats; show its footer. A reply stopped before its first
        token (Stop, a chat switch, closing) leaves nothing in the history, as an empty failed one does."""
        on_show = self.reply_on_show
        self.state.reply_ended()
        reasoning = done.reasoning or self.session.recorded_reasoning()  # a stop's ReplyDone may not carry it
        self.chat_view.finish_reply(done.text, reasoning=reasoning)
        stats = self._metrics.to_dict() if self._metrics is not None else stats_dict(done.stats)
        trace = self._trace
        if trace is not None and trace.steps:
            stats[token_probs.STATS_KEY] = trace.to_dict()  # the token view comes back with the chat
        if self._plan is not None:
            stats["window"] = _window_stats(self._plan)
        if self.last_retrieval is not None:
            stats["retrieval"] = self.last_retrieval.to_dict()
        if done.replay is not None:
            stats[replay.STATS_KEY] = done.replay.to_dict()  # Replay runs it again; exported with the chat
        if isinstance(done, BeamReplyDone):
            stats[decoding_mode.STATS_KEY] = done.beams
        self._keep_calls(stats)
        state = {
            StopReason.USER: MessageState.STOPPED,
            StopReason.ERROR: MessageState.FAILED,
        }.get(done.stats.stop_reason, MessageState.COMPLETE)
        self._save(
            done.text, state, stats, reasoning, keep=bool(done.text or reasoning) or state is not MessageState.STOPPED
        )
        if done.stats.error:
            message.error(
                fill(self.tr("The reply stopped with an error: {error}"), error=done.stats.error),
                NoticeAction(self.tr("Retry"), self.retryRequested.emit),
            )
        self.ended.emit(done, on_show)

    def _on_failed(self, partial: str, why: str) -> None:
        """The turn could not go on (the window refused it, the engine failed): what was written is kept
        as a failed reply; an empty one is dropped. The banner says why and offers to write it again.

        A thinking model's reply keeps its parts as they streamed: `partial` is the answer so far (the turn
        keeps the reasoning apart), and the reasoning is the one recorded as it streamed, saved with the
        message as its reasoning (a failure inside the block leaves no answer)."""
        self.state.reply_ended()
        reasoning = self.session.recorded_reasoning()
        answer = self.session.recorded_text() if reasoning else partial
        self.chat_view.finish_reply(answer, self.tr("error"), reasoning=reasoning)
        stats: dict[str, Any] = {"error": why}
        self._keep_calls(stats)
        self._save(answer, MessageState.FAILED, stats, reasoning, keep=bool(answer or reasoning))
        message.error(why, NoticeAction(self.tr("Retry"), self.retryRequested.emit))

    def _keep_calls(self, stats: dict[str, Any]) -> None:
        """The tool calls the reply made, saved with it (a reopened chat shows them)."""
        calls = self.tool_steps.take_calls() if self.tool_steps is not None else []
        if calls:
            stats[TOOL_CALLS_KEY] = [call.to_dict() for call in calls]

    def _save(self, text: str, state: MessageState, stats: dict[str, Any], reasoning: str, keep: bool) -> None:
        self._plan, self._metrics, self._trace = None, None, None
        reply, self.reply = self.reply, None
        finished = self.session.finish_reply(text, state, stats, reasoning)
        if reply is not None and not keep:
            self.session.drop_empty_reply(reply.id)
            finished = None
        self.sidebar.set_writing(None)
        self.replySaved.emit(finished)


def _window_stats(plan: WindowPlan) -> dict[str, Any]:
    return {
        "prompt_tokens": plan.prompt_tokens,
        "n_ctx": plan.n_ctx,
        "reserve": plan.reserve,
        "outside": len(plan.outside_ids),
        "policy": plan.policy.value,
    }
