"""The decoding explorer in the window: Compare, forks from the token view, and Replay.

- Compare (Chat → Compare decoding…, and the Compare button beside the message box): the
  current prompt — the message being typed, else the chat up to its last message of yours —
  answered by greedy decoding, beam search and N seeded samples on the LLM worker's thread,
  side by side in the Compare dialog; its Stop sets the worker's stop flag.
- Fork: clicking an alternative in a reply's token view writes another version of that reply
  that keeps its tokens before that place (their KV cache reused) and has the alternative
  there; it streams like any reply and is saved as a branch of the message (◀ n/m ▶).
- Replay: a reply that kept its replay record offers "Replay"; the reply is made again from the
  record and the result says "identical" or where it diverged and the likely cause.

The shell makes one with the features it joins (chat, glass box, LLM worker) and places its
`compare_button`.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QMenu, QPlainTextEdit, QPushButton, QWidget

from app.core.chat.store import Message
from app.core.inference import decoding_mode, replay, token_probs
from app.core.inference.replay import ReplayReport
from app.core.support.formatting import fill
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.core.types.token_trace import TokenTrace
from app.ui import message
from app.ui.chat.conversations import Conversations
from app.ui.chat.view import MessageWidget
from app.ui.glass.compare_dialog import CompareRequest, add_compare_action
from app.ui.glass.glass_box import GlassBox
from app.ui.llm.decoding_jobs import CompareJob, DecodingJobs, ReplayJob
from app.ui.llm.decoding_replies import fork_spec
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone

log = logging.getLogger(__name__)

BEAM_NOTE = "decodingBeamNote"  # the property that marks a reply's beam-search note as added


class DecodingExplorer(QObject):
    statusMessage = Signal(str, int)  # text, for so many milliseconds
    replayReported = Signal(str, object)  # message id, ReplayReport (after the banner has said it)

    def __init__(
        self,
        chats: Conversations,
        worker: LlmWorker,
        glass: GlassBox,
        state_signals: StateSignals,
        composer: QPlainTextEdit,
        menu: QMenu,
        window: QWidget,
    ) -> None:
        super().__init__(window)
        self.chats = chats
        self.worker = worker
        self.state = state_signals.state
        self.composer = composer
        self.jobs = DecodingJobs(worker)
        self.comparing = False

        self.compare_action, self.compare_dialog = add_compare_action(menu, window)
        self.compare_button = QPushButton(self.tr("Compare…"), window)
        self.compare_button.setToolTip(
            self.tr("Answer the current prompt by greedy decoding, beam search and sampling, side by side")
        )
        self.compare_button.clicked.connect(self.open_compare)
        self.compare_dialog.compareRequested.connect(self.compare)
        self.compare_dialog.stopRequested.connect(worker.stop_event.set)  # read between tokens and beam steps
        self.jobs.compared.connect(self.compare_dialog.add_result)
        self.jobs.compareFinished.connect(self._compare_finished)

        glass.forkRequested.connect(self.fork)
        chats.message_extras.append(self._add_message_extras)
        self.jobs.replayed.connect(self._on_replayed)
        self.jobs.replayFailed.connect(self._on_replay_failed)

    # ---- compare -------------------------------------------------------------------

    def open_compare(self) -> None:
        self.compare_dialog.show()
        self.compare_dialog.raise_()
        self.compare_dialog.activateWindow()

    def prompt(self) -> list[ChatMessage]:
        """The current prompt: the chat with the message being typed, else up to its last message of yours."""
        conversation = self.chats.session.conversation()
        draft = self.composer.toPlainText().strip()
        if draft:
            conversation.append(ChatMessage("user", draft))
        while conversation and conversation[-1].role != "user":
            conversation.pop()
        return conversation

    def compare(self, request: CompareRequest) -> None:
        messages = self.prompt()
        problem = ""
        if self.state.loaded_model is None:
            problem = self.tr("No model is loaded yet: choose one in the model picker.")
        elif not self.state.can_send:
            problem = self.tr("Wait until the reply is written (or stop it), then compare.")
        elif not messages:
            problem = self.tr("Write a message first: Compare answers it in every way.")
        if problem:
            self.compare_dialog.finish(problem)
            return
        sampling = self.chats.session.effective().sampling.with_values({"max_tokens": request.max_tokens})
        self._set_comparing(True)
        self.jobs.compare(CompareJob(tuple(messages), sampling, request.beam, request.seeds))

    def _compare_finished(self, error: str) -> None:
        self._set_comparing(False)
        self.compare_dialog.finish(error)

    def _set_comparing(self, comparing: bool) -> None:
        self.comparing = comparing
        self.compare_button.setEnabled(not comparing)

    # ---- fork ----------------------------------------------------------------------

    def fork(self, widget: Any, index: int, token_id: int) -> None:
        """Fork the reply `widget` shows at its token `index`, with the alternative `token_id` there."""
        message = self._message(getattr(widget, "key", ""))
        if message is None or message.role != "assistant":
            return
        if not self.state.can_send or self.comparing:
            self.statusMessage.emit(self.tr("Wait until the model is free, then fork the reply."), 6000)
            return
        try:
            trace = TokenTrace.from_dict(message.stats[token_probs.STATS_KEY])
        except (KeyError, TypeError, ValueError) as error:
            log.warning("The reply's token trace could not be read for a fork (%s)", error)
            return
        if not 0 <= index < len(trace.steps):
            return
        self.statusMessage.emit(fill(self.tr("Forking the reply at token {n}…"), n=index + 1), 6000)
        self.chats.fork_reply(message.id, fork_spec(trace, index, token_id))

    # ---- replay --------------------------------------------------------------------

    def _add_message_extras(self, widget: MessageWidget, message: Message) -> None:
        if message.role != "assistant":
            return
        if isinstance(message.stats.get(replay.STATS_KEY), dict):
            widget.action_bar.add(
                "replay",
                self.tr("Replay"),
                self.tr("Make this reply again from its record and compare it token by token"),
                lambda: self.replay(message.id),
            )
        beams = message.stats.get(decoding_mode.STATS_KEY)
        if isinstance(beams, dict) and not widget.property(BEAM_NOTE):
            widget.setProperty(BEAM_NOTE, True)
            widget.add_below(self._beam_note(beams, widget))

    def _beam_note(self, beams: dict[str, Any], parent: QWidget) -> QLabel:
        hypotheses = [h for h in beams.get("hypotheses", []) if isinstance(h, dict)]
        note = QLabel(
            fill(
                self.tr("Beam search, width {width}: the best of {count} hypotheses (point here for all of them)"),
                width=beams.get("width", "?"),
                count=len(hypotheses),
            ),
            parent,
        )
        set_tone(note, Tone.NOTE)
        lines = [
            fill(
                self.tr("{n}. score {score}, log-probability {logprob}, {tokens} tokens: {text}"),
                n=number,
                score=f"{float(h.get('score', 0.0)):.3f}",
                logprob=f"{float(h.get('logprob', 0.0)):.2f}",
                tokens=h.get("tokens", 0),
                text=" ".join(str(h.get("text", "")).split())[:200],
            )
            for number, h in enumerate(hypotheses, start=1)
        ]
        note.setToolTip("\n".join(lines))
        return note

    def replay(self, message_id: str) -> None:
        """Make the reply again from its record on the loaded model and report how it compares."""
        reply = self._message(message_id)
        if reply is None:
            return
        if not self.state.can_send or self.comparing:
            self.statusMessage.emit(self.tr("Wait until the model is free, then replay the reply."), 6000)
            return
        try:
            record = ReplayRecord.from_dict(reply.stats[replay.STATS_KEY])
        except (KeyError, TypeError, ValueError) as error:
            message.warning(fill(self.tr("This reply's replay record cannot be read: {error}"), error=error))
            return
        self.statusMessage.emit(self.tr("Replaying the reply…"), 10_000)
        self.jobs.replay(ReplayJob(reply.id, record, tuple(self._prompt_of(reply))))

    def _prompt_of(self, reply: Message) -> list[ChatMessage]:
        """The conversation the reply answered: its system prompt, then the thread before it."""
        thread = self.chats.session.shown_thread
        before = thread[: next(i for i, m in enumerate(thread) if m.id == reply.id)]
        system = reply.settings.get("system_prompt", self.chats.session.effective().system_prompt)
        head = [ChatMessage("system", system)] if isinstance(system, str) and system else []
        return head + [ChatMessage(m.role, m.text) for m in before if m.text]

    def _on_replayed(self, message_id: str, report: ReplayReport) -> None:
        text = fill(self.tr("Replay: {summary}"), summary=word(report.summary))
        if report.differences:
            then_now = self.tr("{setting}: {recorded} then, {now} now")
            changed = "; ".join(
                fill(then_now, setting=d.setting, recorded=d.recorded, now=d.now) for d in report.differences
            )
            text += " " + fill(self.tr("Changed since: {changes}."), changes=changed)
        message.info(text)
        self.statusMessage.emit(text, 10_000)
        self.replayReported.emit(message_id, report)

    def _on_replay_failed(self, _message_id: str, error: str) -> None:
        message.warning(fill(self.tr("The reply could not be replayed: {error}"), error=error))

    def _message(self, message_id: str) -> Message | None:
        return next((m for m in self.chats.session.shown_thread if m.id == message_id), None)
