"""A thinking model's raw output split into its reasoning and its answer, as it streams.

A model family marks its reasoning with a pair of markers (`<think>…</think>` for DeepSeek-R1,
Qwen3 and QwQ; `[THINK]…[/THINK]` for Magistral). The block is reasoning only at the start of
a reply: a marker later in the answer is the answer's own text. gpt-oss writes channels
(harmony): `<|channel|>analysis<|message|>…<|end|>` is the reasoning, and the answer follows
only after `<|start|>assistant<|channel|>final<|message|>`; what stands between the two (the
next message's header) is neither, and a second analysis message is more reasoning. A header that addresses a
function (`to=functions.NAME`, in the commentary channel or the role) begins a tool call: from that marker on,
the text is the answer's, where the tool-call reader (tool_calls.py) finds it. Some templates open the block
in the generation prompt themselves, so the reply starts inside it (`starts_inside`). A block
still open when the reply ends (Stop, the length limit) is reasoning, not answer.

Text arrives in pieces cut anywhere, a marker too; what may be the start of a marker is held
back until the next piece says whether it is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from app.core.types.replies import ReplyPart


@dataclass(frozen=True)
class ReasoningMarkers:
    """The markers around a family's reasoning block, as they appear in its detokenized output."""

    family: str
    open: str
    close: str
    answer_open: str = ""  # channel formats: the answer starts after this marker ("": right after `close`)
    call_open: str = ""  # channel formats: a tool call starts at this marker, which is kept as the answer's text


THINK_TAGS = ReasoningMarkers("think", "<think>", "</think>")
THINK_BRACKETS = ReasoningMarkers("magistral", "[THINK]", "[/THINK]")
HARMONY = ReasoningMarkers(
    "harmony", "<|channel|>analysis<|message|>", "<|end|>", "<|channel|>final<|message|>", "to=functions."
)
SEED_THINK = ReasoningMarkers("seed", "<seed:think>", "</seed:think>")  # ByteDance Seed-OSS
GEMMA_THOUGHT = ReasoningMarkers("gemma4", "<|channel>thought", "<channel|>")  # Gemma 4's thought channel
FAMILIES = {markers.family: markers for markers in (THINK_TAGS, THINK_BRACKETS, HARMONY, SEED_THINK, GEMMA_THOUGHT)}


class ReplyChunk(NamedTuple):
    part: ReplyPart
    text: str


class ReasoningSplitter:
    """Feed it the reply's text as it streams; it returns the chunks it is sure of, in order."""

    def __init__(self, markers: ReasoningMarkers, *, starts_inside: bool = False) -> None:
        self.markers = markers
        self._inside = starts_inside
        self._may_open = not starts_inside  # only before any answer text
        self._closed = False
        self._between = False  # a channel format: after the reasoning, before the answer's marker
        self._held = ""  # text that may be the start of the marker looked for
        self._answer_started = False
        self._openers = tuple(marker for marker in (markers.open, markers.answer_open) if marker)
        self._channels = tuple(marker for marker in (*self._openers, markers.call_open) if marker)

    @property
    def in_reasoning(self) -> bool:
        return self._inside

    @property
    def reasoned(self) -> bool:
        """The reply has had a reasoning block (open or closed) so far."""
        return self._inside or self._closed

    def feed(self, text: str) -> list[ReplyChunk]:
        self._held += text
        chunks: list[ReplyChunk] = []
        while self._held:
            if self._inside:
                if not self._take_marker(self.markers.close, ReplyPart.REASONING, chunks):
                    break
                self._inside, self._closed = False, True
                self._between = bool(self.markers.answer_open)
            elif self._between:
                if not self._skip_to_next_channel():
                    break
            elif self._may_open:
                stripped = self._held.lstrip()
                if stripped.startswith(self.markers.open):  # open as soon as the marker is whole
                    self._held = stripped[len(self.markers.open) :]
                    self._inside, self._may_open = True, False
                elif self.markers.answer_open and stripped.startswith(self.markers.answer_open):
                    self._held = stripped[len(self.markers.answer_open) :]  # straight to the answer's channel
                    self._may_open = False
                elif any(marker.startswith(stripped) for marker in self._openers):
                    break  # nothing yet but (part of) an opening marker: wait
                else:
                    self._may_open = False  # the reply began with its answer
            else:
                self._emit_answer(self._held, chunks)
                self._held = ""
        return chunks

    def finish(self) -> list[ReplyChunk]:
        """The rest of the text at the end of the reply: an unclosed block is reasoning."""
        held, self._held = self._held, ""
        chunks: list[ReplyChunk] = []
        if self._inside:
            if held:
                chunks.append(ReplyChunk(ReplyPart.REASONING, held))
        elif self._between:
            pass  # the start of a header that never reached its answer: markup, neither part
        elif held.strip() or (held and self._answer_started):
            self._emit_answer(held, chunks)
        return chunks

    def _take_marker(self, marker: str, part: ReplyPart, chunks: list[ReplyChunk]) -> bool:
        """Emit the held text up to `marker` and drop the marker (True), or emit what cannot be
        part of the marker and keep the rest (False)."""
        at = self._held.find(marker)
        if at >= 0:
            if at:
                chunks.append(ReplyChunk(part, self._held[:at]))
            self._held = self._held[at + len(marker) :]
            return True
        keep = partial_marker_length(self._held, marker)
        sure = self._held[: len(self._held) - keep]
        if sure:
            chunks.append(ReplyChunk(part, sure))
        self._held = self._held[len(sure) :]
        return False

    def _skip_to_next_channel(self) -> bool:
        """Drop the header between two channels: True at the next analysis (more reasoning), at the
        answer's marker or at a tool call's (kept: the call is read from it), False when none is there yet
        (only what may begin one is kept)."""
        found = [(at, marker) for marker in self._channels if (at := self._held.find(marker)) >= 0]
        if not found:
            keep = max(partial_marker_length(self._held, marker) for marker in self._channels)
            self._held = self._held[len(self._held) - keep :]
            return False
        at, marker = min(found)
        self._held = self._held[at if marker == self.markers.call_open else at + len(marker) :]
        self._between = False
        self._inside = marker == self.markers.open
        return True

    def _emit_answer(self, text: str, chunks: list[ReplyChunk]) -> None:
        if not self._answer_started and self._closed:
            text = text.lstrip()  # the blank lines a model writes after its block
        if text:
            self._answer_started = True
            chunks.append(ReplyChunk(ReplyPart.ANSWER, text))


def partial_marker_length(text: str, marker: str) -> int:
    """The length of the longest end of `text` that is a proper start of `marker`."""
    for length in range(min(len(text), len(marker) - 1), 0, -1):
        if marker.startswith(text[-length:]):
            return length
    return 0


def split_reasoning(text: str, markers: ReasoningMarkers, *, starts_inside: bool = False) -> tuple[str, str]:
    """A whole reply's (reasoning, answer)."""
    splitter = ReasoningSplitter(markers, starts_inside=starts_inside)
    chunks = splitter.feed(text) + splitter.finish()
    reasoning = "".join(c.text for c in chunks if c.part is ReplyPart.REASONING)
    answer = "".join(c.text for c in chunks if c.part is ReplyPart.ANSWER)
    return reasoning, answer
