"""The engine's own messages, on top of those every child host speaks (app/core/support/child_messages.py).

A job's work is one of the `Work` kinds below (load, reply, plan, inspect, count, unload …);
the child answers with events of the job's id (load stages, progress, reply pieces) and ends
each job with exactly one `Finished` or `Failed`. An `Abort` sets the running job's stop flag
at once, so a reply stops within a token and a load or a prompt evaluation at llama.cpp's next
abort check.

Errors cross the boundary as their kind and fields (`ErrorInfo`), not as pickled
exceptions, and are rebuilt on the other side as the same exception types.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.chat.context_window import PlanRequest
from app.core.chat.prompt_inspector import InspectRequest
from app.core.inference.beam_search import BeamSearchError, BeamSettings
from app.core.inference.sampling import SamplingParams
from app.core.memory.beam_fit import BeamWidthDoesNotFit
from app.core.memory.fallback import FallbackStep, OutOfMemoryError
from app.core.models.validation import ModelFileError
from app.core.support.child_messages import Failed, Finished, Log, Ready
from app.core.support.user_text import text_of
from app.core.types.errors import EngineError, ImagesNeedVision, LoadCancelled, PromptTooLong
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.core.types.tools import ToolSpec

# ---- jobs: window → child -------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    config: LoadConfig


@dataclass(frozen=True)
class Reply:
    messages: tuple[ChatMessage, ...]
    params: SamplingParams
    token_probabilities: bool
    grammar: str = ""  # GBNF the reply must follow (the API server's response_format); "" = free
    record: bool = False  # fix the seed and send the reply's replay record with its ReplyDone
    prompt_ids: tuple[int, ...] = ()  # the planned prompt's tokens: generated from as they are (empty: tokenize)
    tools: tuple[ToolSpec, ...] = ()  # offered to the model through its template (ignored with prompt_ids)
    window: bool = False  # the window's own chat: never refused, so a prompt too long for a slot uses the chat context


@dataclass(frozen=True)
class Complete:
    """A raw completion: `prompt` as it is, no chat template (the API server's /v1/completions)."""

    prompt: str
    params: SamplingParams
    token_probabilities: bool
    grammar: str = ""


@dataclass(frozen=True)
class Plan:
    request: PlanRequest


@dataclass(frozen=True)
class Inspect:
    request: InspectRequest


@dataclass(frozen=True)
class CountTokens:
    text: str


@dataclass(frozen=True)
class Unload:
    pass


@dataclass(frozen=True)
class BeamSearch:
    messages: tuple[ChatMessage, ...]
    settings: BeamSettings


@dataclass(frozen=True)
class Replay:
    """Run a recorded reply again (`changed`: with other sampling settings) and compare it."""

    record: ReplayRecord
    messages: tuple[ChatMessage, ...]
    changed: SamplingParams | None = None


@dataclass(frozen=True)
class Fork:
    """The reply to `messages` forked: its tokens before `position` kept, `forced` there, then generated on."""

    messages: tuple[ChatMessage, ...]
    reply: tuple[int, ...]
    position: int
    forced: int
    params: SamplingParams
    token_probabilities: bool


@dataclass(frozen=True)
class OpenSlots:
    """Write the next replies (Reply, Complete) in `count` parallel slots of one context (1: one at a time, in
    the chat context, as before); the job's result is each slot's context size (0 for one slot)."""

    count: int


@dataclass(frozen=True)
class RepliesAtOnce:
    """One reply to `messages` per sampling setting, with token probabilities, decoded together where that is
    cheap (the Compare dialog's greedy and sampled replies); the job's result is their ReplyDones, in order."""

    messages: tuple[ChatMessage, ...]
    params: tuple[SamplingParams, ...]


@dataclass(frozen=True)
class SlotStates:
    """What each parallel slot is doing now; runs beside the replies, so it is answered while they are written."""


# Every kind of work a job of the engine carries: one entry each in host.OPERATIONS.
Work = (
    Load
    | Reply
    | Complete
    | Plan
    | Inspect
    | CountTokens
    | Unload
    | BeamSearch
    | Replay
    | Fork
    | OpenSlots
    | RepliesAtOnce
    | SlotStates
)


# ---- events: child → window -----------------------------------------------------------


@dataclass(frozen=True)
class Stage:
    job: int
    name: str


@dataclass(frozen=True)
class Progress:
    job: int
    fraction: float


@dataclass(frozen=True)
class FallbackStepped:
    job: int
    step: FallbackStep


@dataclass(frozen=True)
class Pieces:
    """The text of one or more tokens, in order (the child sends at most one a frame, see host)."""

    job: int
    text: str
    token_ids: tuple[int, ...]


@dataclass(frozen=True)
class ErrorInfo:
    kind: str  # one of the KINDS below
    message: str
    path: str = ""  # model_file: the file
    reason: str = ""  # model_file: why it cannot be used
    prompt_tokens: int = 0  # prompt_too_long: the prompt's length
    n_ctx: int = 0  # prompt_too_long: the context's

    @property
    def unexpected(self) -> bool:
        return self.kind == "unexpected"

    def to_exception(self) -> Exception:
        if self.kind == "model_file":
            return ModelFileError(Path(self.path), self.reason)
        if self.kind == "prompt_too_long":
            return PromptTooLong(self.prompt_tokens, self.n_ctx)
        return _KINDS.get(self.kind, EngineError)(self.message)

    @classmethod
    def of(cls, error: BaseException) -> ErrorInfo:
        if isinstance(error, ModelFileError):
            return cls("model_file", text_of(error), str(error.path), error.reason)
        if isinstance(error, PromptTooLong):
            return cls("prompt_too_long", text_of(error), prompt_tokens=error.prompt_tokens, n_ctx=error.n_ctx)
        for kind, error_type in _KINDS.items():
            if type(error) is error_type:
                return cls(kind, text_of(error))
        return cls("unexpected", f"{type(error).__name__}: {error}")


_KINDS: dict[str, type[Exception]] = {
    "cancelled": LoadCancelled,
    "out_of_memory": OutOfMemoryError,
    "engine": EngineError,
    "images_need_vision": ImagesNeedVision,
    "beam_search": BeamSearchError,
    "beam_does_not_fit": BeamWidthDoesNotFit,
    "unexpected": RuntimeError,
}


Event = Ready | Stage | Progress | FallbackStepped | Pieces | Finished | Failed | Log
