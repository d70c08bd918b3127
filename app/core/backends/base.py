"""The Backend protocol: what the worker, the CLI and the bench ask of whatever generates text.

A backend lists its models, selects one, streams a chat reply as the local engine's events
(`TokenPiece` pieces, then exactly one `ReplyDone` with `ReplyStats`), counts tokens for the
context window and says what it can do, so the UI hides what a backend does not offer
instead of showing zeros.

Failure rule for `stream_chat`: a failure before any text arrived is raised (the backend's own
error type, with a kind); a failure after text arrived ends the stream with a `ReplyDone`
whose stop reason is ERROR, carrying the text so far and the error, so a partial reply is
never lost.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyEvent

CHARS_PER_TOKEN_ESTIMATE = 4  # a common rule of thumb for English text and BPE vocabularies


@dataclass(frozen=True)
class Capabilities:
    """What a backend offers beyond streamed text; False means the UI hides or marks it."""

    token_probabilities: bool = False  # per-token probabilities and alternatives
    tokenization: bool = False  # count_tokens is exact (the model's own tokenizer)
    kv_reuse: bool = False  # a follow-up turn reuses the previous turn's KV cache, and says how much
    load_timeline: bool = False  # the stages of a model load, timed
    gpu_plan: bool = False  # GPU offload planned and reported here


@dataclass(frozen=True)
class ModelInfo:
    """One model a backend can run; context_length where the backend says it."""

    id: str
    context_length: int | None = None


@dataclass(frozen=True)
class TokenCount:
    tokens: int
    exact: bool  # False: an estimate, to be labelled as one


def estimate_tokens(text: str) -> TokenCount:
    """A flagged estimate for backends that cannot tokenize."""
    return TokenCount(math.ceil(len(text) / CHARS_PER_TOKEN_ESTIMATE), exact=False)


@runtime_checkable
class Backend(Protocol):
    """One owner calls a backend; the only cross-thread input is the stop event of a reply."""

    @property
    def capabilities(self) -> Capabilities: ...

    @property
    def model(self) -> str | None:
        """The selected model's id, None before one is selected."""

    def list_models(self) -> list[ModelInfo]: ...

    def select_model(self, model_id: str) -> None:
        """Make `model_id` the model the next replies use (a local backend loads it)."""

    def unsent_params(self, params: SamplingParams) -> tuple[str, ...]:
        """The names of the sampling fields this backend cannot honour, for the caller to show."""

    def stream_chat(
        self, messages: Sequence[ChatMessage], params: SamplingParams, stop: threading.Event
    ) -> Iterator[ReplyEvent]:
        """TokenPiece events, then one ReplyDone; `stop` set ends the reply within one chunk."""

    def count_tokens(self, text: str) -> TokenCount: ...

    def close(self) -> None:
        """Release connections or the model now."""
