"""The context window: which messages of a conversation the model sees on the next turn.

The prompt for a turn must fit `n_ctx` minus the room kept free for the reply (max
tokens), counted in real tokens: the model's chat template rendered and tokenized by the
model's own tokenizer. The system prompt is always kept; older messages are dropped
according to the chat's policy.

How it stays fast: the cost of each message is measured once (two short renders with
fixed probe messages around it, see `_BlockCosts`) and cached by its text, so planning a
turn is arithmetic over cached numbers plus one real count of the chosen prompt. That
count is authoritative: if a template is not additive and the prompt is over budget, the
next smaller window is tried.

Why it drops in chunks: the window drops old turns a quarter of the budget at a time
(`DEFAULT_CHUNK_FRACTION`), and its start only moves when the conversation has grown by
another chunk. The start is a pure function of the conversation (dropped tokens are rounded
up to whole chunks counted from the first message), so it is stable across turns, restarts
and branches without remembering anything. Between slides the prompt only grows at its end,
so the KV cache of the previous turn is reused as it is. When the window does slide, the
engine cuts the dropped turns out of the KV cache and shifts the rest back
(inference/kv_shift.py), so a slide costs about its new tokens, not a re-evaluation of the
whole conversation; dropping a chunk rather than one turn per turn keeps the slides rare.

Not to be confused with sliding-window attention, a property of some models whose layers
attend only to a fixed number of recent tokens: which layers do is read in models/gguf_info.py,
and the smaller KV cache it needs is planned in memory/planner.py.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Protocol, runtime_checkable

from app.core.inference.engine import Engine
from app.core.inference.sampling import SamplingParams
from app.core.support.formatting import fill
from app.core.support.user_text import N_, text_of
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec

log = logging.getLogger(__name__)

DEFAULT_CHUNK_FRACTION = 0.25
_PROBE_USER = ChatMessage("user", "Hello.")
_PROBE_ASSISTANT = ChatMessage("assistant", "Hello! How can I help?")


class WindowPolicy(str, Enum):
    """What happens when a conversation no longer fits."""

    ROLLING = "rolling"  # drop the oldest turns
    TRUNCATE_MIDDLE = "truncate_middle"  # keep the first exchange, drop the turns after it
    STOP_AT_LIMIT = "stop_at_limit"  # refuse the turn with a clear message


class TokenCounter(Protocol):
    """Counts the tokens of a rendered chat prompt, with `tools` offered as the template offers them (the
    Engine, or a fake in tests)."""

    def count_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> int: ...


@runtime_checkable
class PromptTokenizer(Protocol):
    """A counter that also gives the prompt's token ids (the Engine; a server's counter only counts)."""

    def prompt_tokens(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> list[int]: ...


class WindowMessage(Protocol):
    """A message of the conversation: the chat store's Message fits."""

    @property
    def id(self) -> Hashable: ...

    @property
    def role(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def reasoning(self) -> str: ...  # an earlier reply's reasoning: sent where the template renders it


@dataclass(frozen=True)
class WindowTurn:
    """A plain WindowMessage: what of a message crosses into the engine process to be planned (the
    stored message's stats, token traces and replay records stay behind), or a turn of a conversation
    that does not come from the chat store."""

    id: Hashable
    role: str  # "tool": a tool's result, read by the model in the turn that called it
    text: str
    reasoning: str = ""
    images: tuple[Path, ...] = ()  # prepared images the message shows (app/core/chat/images.py)


class WindowError(Exception):
    """The turn cannot be sent as it is; the message says why and what to do."""


class ContextFullError(WindowError):
    """The conversation no longer fits and the policy says stop."""


class MessageTooLongError(WindowError):
    """The newest message does not fit even alone with the system prompt: it is `tokens` long, with `room` for it."""

    def __init__(self, text: str, tokens: int, room: int) -> None:
        super().__init__(text)
        self.tokens = tokens
        self.room = room


@dataclass(frozen=True)
class WindowPlan:
    """The prompt for one turn and what was left out."""

    messages: tuple[ChatMessage, ...]  # what the model gets: system prompt (if any), then the kept messages
    kept_ids: tuple[Hashable, ...]
    outside_ids: tuple[Hashable, ...]  # messages the model no longer sees, oldest first
    prompt_tokens: int  # the real count of the rendered prompt
    frame_tokens: int  # system prompt plus what the template adds around the messages (the tools offered among it)
    n_ctx: int
    reserve: int  # kept free for the reply
    policy: WindowPolicy
    notice: str = ""
    estimated_tokens: int = 0  # from the measured message costs; equals prompt_tokens for additive templates
    retrieved_tokens: int = 0  # what the retrieved excerpts in front of the newest message take (see `plan`)
    prompt_ids: tuple[int, ...] = ()  # the prompt's tokens when asked for (`with_ids`): the reply starts from them
    # Of the conversation's tokens, those of earlier replies' reasoning the template sends (0 where it drops
    # it, as Qwen3's and DeepSeek-R1's do): from the measured costs, like `estimated_tokens`.
    reasoning_tokens: int = 0
    # About how many tokens of the kept replies' reasoning the template leaves out: the room dropping it saves.
    reasoning_left_out: int = 0
    # Of the frame, what the definitions of the tools offered take (their names, descriptions and schemas as
    # the template writes them): from the measured costs, like `estimated_tokens`.
    tool_tokens: int = 0
    # Of the conversation, what the tools' results take (the "tool" messages the model reads in a tool turn).
    tool_result_tokens: int = 0

    @property
    def used_tokens(self) -> int:
        """Tokens the next turn takes from the context: the prompt plus the room for the reply."""
        return self.prompt_tokens + self.reserve


@dataclass(frozen=True)
class _Retrieved:
    """The newest message with the retrieved excerpts in front of it (a WindowMessage)."""

    id: Hashable
    role: str
    text: str
    reasoning: str = ""
    images: tuple[Path, ...] = ()


@dataclass(frozen=True)
class _Option:
    """A candidate window: messages[:pinned] + messages[start:]."""

    pinned: int
    start: int
    degraded: bool = False  # truncate-middle had to give up the first exchange


class ContextWindow:
    """Plans the prompt for each turn; owned by the thread that owns the token counter."""

    def __init__(self, counter: TokenCounter, chunk_fraction: float = DEFAULT_CHUNK_FRACTION) -> None:
        if not 0 < chunk_fraction <= 1:
            raise ValueError(f"chunk_fraction must be in (0, 1], not {chunk_fraction}")
        self._counter = counter
        self._chunk_fraction = chunk_fraction
        self._costs = _BlockCosts(counter)

    def clear_cache(self) -> None:
        """Forget measured costs (call when another model, with another tokenizer, is loaded)."""
        self._costs = _BlockCosts(self._counter)

    def plan(
        self,
        system_prompt: str,
        messages: Sequence[WindowMessage],
        n_ctx: int,
        reserve: int,
        policy: WindowPolicy = WindowPolicy.ROLLING,
        retrieved: str = "",
        with_ids: bool = False,
        tools: Sequence[ToolSpec] = (),
    ) -> WindowPlan:
        """The messages to send so that the prompt plus `reserve` fits `n_ctx`.

        Raises MessageTooLongError when the newest message cannot fit even alone,
        ContextFullError when the policy is stop-at-limit and the conversation does not
        fit, WindowError when the system prompt or the reserve leave no room at all.

        `retrieved` is the one hook for retrieval (excerpts of documents, recalled turns:
        app/core/documents/retrieval.py): it goes in front of the newest message, which must be
        the user's, and counts as part of it, so older turns leave the window to make room for
        it and the real count of the prompt covers it; `retrieved_tokens` says what it took.
        Only this turn's prompt carries it: the stored message stays as the user wrote it.

        `with_ids`: the plan keeps the token ids of its prompt, from the count that checked it, so the
        reply is generated from them and the conversation is tokenized once per turn (a counter that
        cannot give ids, a server's, leaves them empty).

        `tools`: the tools offered to the model on this turn. Their definitions are part of the prompt the
        template writes, so they count in the frame (`tool_tokens` says how much) and every count is made
        with them.
        """
        tools = tuple(tools)
        plain_newest = None
        if retrieved:
            if not messages or messages[-1].role != "user":
                raise ValueError("retrieved excerpts go with the newest message, which must be the user's")
            plain_newest = messages[-1]
            messages = [
                *messages[:-1],
                _Retrieved(
                    plain_newest.id, "user", f"{retrieved}\n\n{plain_newest.text}", images=_images(plain_newest)
                ),
            ]
        head = [ChatMessage("system", system_prompt)] if system_prompt else []
        tool_cost = self._costs.tools(head, tools)
        frame = self._costs.frame(head) + tool_cost
        budget = n_ctx - reserve
        _check_room(frame, n_ctx, reserve, tool_cost)
        if not messages:
            return WindowPlan(
                tuple(head), (), (), frame, frame, n_ctx, reserve, policy, estimated_tokens=frame, tool_tokens=tool_cost
            )

        # A message's cost counts its reasoning where the template sends it (it costs nothing where dropped).
        thoughts = [self._costs.reasoning(head, m.text, m.reasoning) if m.reasoning else 0 for m in messages]
        blocks = [
            self._costs.block(head, m.role, m.text, _images(m)) + thought
            for m, thought in zip(messages, thoughts, strict=True)
        ]
        prefix = [0]
        for cost in blocks:
            prefix.append(prefix[-1] + cost)
        base = frame + self._costs.extra(head)
        total = base + prefix[-1]

        def estimate(option: _Option) -> int:
            return base + prefix[option.pinned] + prefix[-1] - prefix[option.start]

        options = _options(messages, policy)
        chunk = max(1, int(budget * self._chunk_fraction))
        preferred = [o for o in options if not o.degraded]
        chosen = _choose(preferred, total - budget, chunk, lambda o: total - estimate(o))
        if chosen is None and len(preferred) < len(options):
            fallback = _choose(options[len(preferred) :], total - budget, chunk, lambda o: total - estimate(o))
            chosen = None if fallback is None else len(preferred) + fallback
        # The real count decides; if the estimate was off, try the next smaller window.
        for option in options[len(options) - 1 if chosen is None else chosen :]:
            kept = [*messages[: option.pinned], *messages[option.start :]]
            # An earlier reply's reasoning goes with it and the template decides whether it is sent.
            # A message's images go and stay with it: an old image leaves the window whole, with its message.
            prompt = (*head, *(ChatMessage(m.role, m.text, m.reasoning, images=_images(m)) for m in kept))
            ids = self._prompt_ids(prompt, tools) if with_ids else ()
            real = len(ids) if ids else self._counter.count_tokens(prompt, tools)
            if real <= budget:
                plan = self._result(prompt, kept, messages, option, real, frame, n_ctx, reserve, policy)
                added = (
                    0
                    if plain_newest is None
                    else blocks[-1] - self._costs.block(head, "user", plain_newest.text, _images(plain_newest))
                )
                reasoning = sum(thoughts[: option.pinned]) + sum(thoughts[option.start :])
                kept_blocks = [*blocks[: option.pinned], *blocks[option.start :]]
                results = sum(cost for m, cost in zip(kept, kept_blocks, strict=True) if m.role == "tool")
                return replace(
                    plan,
                    estimated_tokens=estimate(option),
                    retrieved_tokens=added,
                    prompt_ids=ids,
                    reasoning_tokens=reasoning,
                    reasoning_left_out=self._reasoning_left_out(head, kept),
                    tool_tokens=tool_cost,
                    tool_result_tokens=results,
                )
        raise self._no_fit(policy, head, messages, blocks, base, total, n_ctx, reserve)

    def _reasoning_left_out(self, head: list[ChatMessage], kept: Sequence[WindowMessage]) -> int:
        """The kept replies' reasoning that costs nothing (the template drops it), each counted as a
        reply's text of its own less the template's markers around it."""
        dropped = [m.reasoning for m in kept if m.reasoning and not self._costs.reasoning(head, m.text, m.reasoning)]
        if not dropped:
            return 0
        markers = self._costs.block(head, "assistant", "")
        return sum(max(self._costs.block(head, "assistant", text) - markers, 0) for text in dropped)

    def _prompt_ids(self, prompt: Sequence[ChatMessage], tools: tuple[ToolSpec, ...]) -> tuple[int, ...]:
        counter = self._counter
        return tuple(counter.prompt_tokens(prompt, tools)) if isinstance(counter, PromptTokenizer) else ()

    def _result(
        self,
        prompt: tuple[ChatMessage, ...],
        kept: list[WindowMessage],
        messages: Sequence[WindowMessage],
        option: _Option,
        real: int,
        frame: int,
        n_ctx: int,
        reserve: int,
        policy: WindowPolicy,
    ) -> WindowPlan:
        outside = tuple(m.id for m in messages[option.pinned : option.start])
        notice = ""
        if option.degraded:
            notice = "The first exchange no longer fits together with the latest message, so it left the window too."
        elif outside:
            notice = f"{len(outside)} earlier message{'s' if len(outside) != 1 else ''} outside the window."
        return WindowPlan(prompt, tuple(m.id for m in kept), outside, real, frame, n_ctx, reserve, policy, notice)

    def _no_fit(
        self,
        policy: WindowPolicy,
        head: list[ChatMessage],
        messages: Sequence[WindowMessage],
        blocks: list[int],
        base: int,
        total: int,
        n_ctx: int,
        reserve: int,
    ) -> WindowError:
        budget = n_ctx - reserve
        # Under stop-at-limit only the whole conversation was counted: whether the newest message
        # alone fits is decided by its real count (an estimate can be off for templates that are
        # not additive); the other policies already tried it alone.
        newest = messages[-1]
        alone = self._counter.count_tokens((*head, ChatMessage(newest.role, newest.text, images=_images(newest))))
        if policy is not WindowPolicy.STOP_AT_LIMIT or alone > budget:
            return MessageTooLongError(
                fill(
                    N_(
                        "The latest message is {tokens} tokens, but with the system prompt and chat template "
                        "({base} tokens) and {reserve} tokens kept free for the reply, a context of {n_ctx} tokens "
                        "has room for {room}. Shorten the message, lower max tokens, or raise the "
                        "context length in the model settings."
                    ),
                    tokens=blocks[-1],
                    base=base,
                    reserve=reserve,
                    n_ctx=n_ctx,
                    room=max(budget - base, 0),
                ),
                tokens=blocks[-1],
                room=max(budget - base, 0),
            )
        return ContextFullError(
            fill(
                N_(
                    "This conversation needs {total} tokens but {budget} fit (a context of {n_ctx} tokens minus "
                    "{reserve} for the reply), and the window policy is “stop at limit”. Start a new chat, raise the "
                    "context length, or switch the policy to the rolling window."
                ),
                total=total,
                budget=budget,
                n_ctx=n_ctx,
                reserve=reserve,
            )
        )


def _images(message: WindowMessage) -> tuple[Path, ...]:
    """The images a message shows (a WindowTurn's or a stored message's)."""
    images: tuple[Path, ...] = getattr(message, "images", ())
    return images


def _check_room(frame: int, n_ctx: int, reserve: int, tool_tokens: int = 0) -> None:
    if reserve >= n_ctx:
        raise WindowError(
            fill(
                N_(
                    "Max tokens ({reserve}) is not smaller than the context length ({n_ctx}), so no "
                    "room is left for the conversation. Lower max tokens or raise the context length."
                ),
                reserve=reserve,
                n_ctx=n_ctx,
            )
        )
    if frame >= n_ctx - reserve and tool_tokens:
        raise WindowError(
            fill(
                N_(
                    "The system prompt and the definitions of the tools offered take {frame} tokens (the tools "
                    "{tools} of them); with {reserve} tokens kept free for the reply a context of {n_ctx} tokens has "
                    "no room for the conversation. Turn some tool servers off for this chat, lower max tokens, or "
                    "raise the context length."
                ),
                frame=frame,
                tools=tool_tokens,
                reserve=reserve,
                n_ctx=n_ctx,
            )
        )
    if frame >= n_ctx - reserve:
        raise WindowError(
            fill(
                N_(
                    "The system prompt takes {frame} tokens; with {reserve} tokens kept free for the "
                    "reply a context of {n_ctx} tokens has no room for the conversation. Shorten the "
                    "system prompt, lower max tokens, or raise the context length."
                ),
                frame=frame,
                reserve=reserve,
                n_ctx=n_ctx,
            )
        )


def _cut_points(messages: Sequence[WindowMessage]) -> list[int]:
    """Where a window may start: at a user message (so turns stay whole), at 0, or at the newest message."""
    points = {0, len(messages) - 1}
    points.update(i for i, m in enumerate(messages) if m.role == "user")
    return sorted(points)


def _options(messages: Sequence[WindowMessage], policy: WindowPolicy) -> list[_Option]:
    """Candidate windows from the largest to the smallest, in the policy's order of preference.

    Degraded options (truncate-middle without the first exchange) come last and are only
    chosen when no other fits.
    """
    points = _cut_points(messages)
    if policy is WindowPolicy.STOP_AT_LIMIT:
        return [_Option(0, 0)]
    if policy is WindowPolicy.TRUNCATE_MIDDLE:
        first_user = next((i for i, m in enumerate(messages) if m.role == "user"), None)
        pinned = next((p for p in points if first_user is not None and p > first_user), None)
        if pinned is not None:
            middle = [_Option(pinned, p) for p in points if p >= pinned]
            degraded = [_Option(0, p, degraded=True) for p in points if p >= pinned]
            return middle + degraded
    return [_Option(0, p) for p in points]


def _choose(options: list[_Option], excess: int, chunk: int, dropped: Callable[[_Option], int]) -> int | None:
    """Index of the option to use, or None when nothing fits.

    Chunk boundaries: boundary k is the first option that drops at least k chunks. The
    window starts at the first boundary that drops enough, so it stays where it is until
    the conversation outgrows it, then jumps to the next boundary, leaving about a chunk
    of room. Only when no boundary fits (the newest turns are too big) does it drop just
    what is needed.
    """
    if excess <= 0:
        return 0
    drops = [dropped(option) for option in options]
    for k in range(1, math.ceil(max(drops) / chunk) + 1):
        boundary = next((index for index, value in enumerate(drops) if value >= k * chunk), None)
        if boundary is None:
            break
        if drops[boundary] >= excess:
            return boundary
    return next((index for index, value in enumerate(drops) if value >= excess), None)


class _BlockCosts:
    """Measures and caches what each message adds to a rendered prompt, in tokens.

    A message's block is measured between fixed probe messages so that the conversation
    keeps alternating user/assistant (strict templates refuse anything else) and so that
    what a template adds only once (SmolLM2's default system prompt when there is none)
    is not counted per message: that one-off cost is `extra`.
    """

    def __init__(self, counter: TokenCounter, max_entries: int = 8192) -> None:
        self._counter = counter
        self._max_entries = max_entries
        self._blocks: OrderedDict[tuple[str, ...], int] = OrderedDict()
        self._frames: dict[tuple[str, ...], tuple[int, int]] = {}

    def frame(self, head: list[ChatMessage]) -> int:
        return self._frame_and_extra(head)[0]

    def extra(self, head: list[ChatMessage]) -> int:
        return self._frame_and_extra(head)[1]

    def tools(self, head: list[ChatMessage], tools: tuple[ToolSpec, ...]) -> int:
        """What offering `tools` adds to a prompt (0 for none): measured with a user's message, since some
        templates (Llama 3.x) write the tools into the first one rather than the system prompt."""
        if not tools:
            return 0
        system = head[0].content if head else ""
        key = ("\0tools", system, *(f"{t.name}\0{t.description}\0{t.parameters_json}" for t in tools))
        cached = self._blocks.get(key)
        if cached is not None:
            self._blocks.move_to_end(key)
            return cached
        probe = [*head, _PROBE_USER]
        cost = max(self._counter.count_tokens(probe, tools) - self._count_cached(probe), 0)
        self._remember(key, cost)
        return cost

    def _frame_and_extra(self, head: list[ChatMessage]) -> tuple[int, int]:
        key = tuple(m.content for m in head)
        if key not in self._frames:
            frame = self._counter.count_tokens(head)
            with_probe = self._counter.count_tokens([*head, _PROBE_USER])
            extra = with_probe - frame - self.block(head, _PROBE_USER.role, _PROBE_USER.content)
            self._frames[key] = (frame, extra)
        return self._frames[key]

    def block(self, head: list[ChatMessage], role: str, text: str, images: tuple[Path, ...] = ()) -> int:
        """The tokens a message of `role` with `text` (after its `images`, each its image tokens) adds."""
        system = head[0].content if head else ""
        key = (system, role, "".join(f"\0image:{path}" for path in images) + text)
        cached = self._blocks.get(key)
        if cached is not None:
            self._blocks.move_to_end(key)
            return cached
        before = [*head, _PROBE_USER] if role == "assistant" else [*head, _PROBE_USER, _PROBE_ASSISTANT]
        cost = self._counter.count_tokens([*before, ChatMessage(role, text, images=images)]) - self._count_cached(
            before
        )
        self._remember(key, cost)
        return cost

    def reasoning(self, head: list[ChatMessage], text: str, reasoning: str) -> int:
        """What an earlier reply's reasoning adds to its message where the template sends it (0 where it drops it).

        Measured where such a reply stands in a real prompt, with a user's message after it: templates that
        drop past reasoning (Qwen3) keep the reasoning of a reply after the last user message, the one being
        written."""
        system = head[0].content if head else ""
        key = ("\0reasoning", system, text, reasoning)
        cached = self._blocks.get(key)
        if cached is not None:
            self._blocks.move_to_end(key)
            return cached
        around = [*head, _PROBE_USER]
        with_it = self._counter.count_tokens([*around, ChatMessage("assistant", text, reasoning), _PROBE_USER])
        without = self._counter.count_tokens([*around, ChatMessage("assistant", text), _PROBE_USER])
        cost = max(with_it - without, 0)
        self._remember(key, cost)
        return cost

    def _remember(self, key: tuple[str, ...], cost: int) -> None:
        self._blocks[key] = cost
        if len(self._blocks) > self._max_entries:
            self._blocks.popitem(last=False)

    def _count_cached(self, messages: list[ChatMessage]) -> int:
        key = ("\0probe", "\0".join(m.role for m in messages), "\0".join(m.content for m in messages))
        if key not in self._blocks:
            self._blocks[key] = self._counter.count_tokens(messages)
        return self._blocks[key]


@dataclass(frozen=True)
class PlanRequest:
    """What the LLM worker needs to plan a turn; `purpose` tells the asker's answers apart."""

    purpose: str  # e.g. "reply" (a reply follows) or "meter" (only show the numbers)
    system_prompt: str
    messages: tuple[WindowMessage, ...]
    reserve: int
    policy: WindowPolicy = WindowPolicy.ROLLING
    retrieved: str = ""  # excerpts in front of the newest message (ContextWindow.plan)
    with_ids: bool = False  # the plan keeps its prompt's token ids (a turn generates from them)
    # The reply's sampling: a thinking model's switch and effort change what the template writes. None: defaults.
    sampling: SamplingParams | None = None
    tools: tuple[ToolSpec, ...] = ()  # the tools offered on the turn: their definitions take room too


@dataclass(frozen=True)
class PlanResult:
    request: PlanRequest
    plan: WindowPlan | None = None
    error: str = ""  # why the turn cannot be sent (plan is None)
    too_long: tuple[int, int] | None = None  # the newest message's tokens and the room for it, when it cannot fit


def refused(request: PlanRequest, error: WindowError) -> PlanResult:
    """The turn cannot be planned: why, and for a message too long, its tokens and the room for it."""
    too_long = (error.tokens, error.room) if isinstance(error, MessageTooLongError) else None
    return PlanResult(request, error=text_of(error), too_long=too_long)


MAX_RESERVE_FRACTION = 0.5


def reply_reserve(max_tokens: int, n_ctx: int) -> int:
    """The room kept free for the reply: max tokens, but at most half the context."""
    return min(max_tokens, int(n_ctx * MAX_RESERVE_FRACTION))


class EnginePlanner:
    """Plans with whatever model the engine has loaded; measured costs are dropped when the model changes.

    The room kept for the reply is max tokens, but at most half the context: a max tokens
    as large as the context would leave no room for the conversation at all. A reply that
    outgrows its room ends with the stop reason "context full".
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._window = ContextWindow(engine)
        self._model: object = None

    def plan(self, request: PlanRequest) -> PlanResult:
        if not self._engine.is_loaded:
            return PlanResult(request, error="No model is loaded yet: the window depends on its tokenizer.")
        if self._engine.config != self._model:
            self._model = self._engine.config
            self._window.clear_cache()
        try:
            n_ctx = self._engine.n_ctx
            reserve = reply_reserve(request.reserve, n_ctx)
            with self._engine.thinking(request.sampling):
                plan = self._window.plan(
                    request.system_prompt,
                    request.messages,
                    n_ctx,
                    reserve,
                    request.policy,
                    request.retrieved,
                    request.with_ids,
                    request.tools,
                )
        except WindowError as error:
            return refused(request, error)
        except Exception as error:  # a chat template can refuse odd input (e.g. roles out of order)
            log.exception("The context window could not be planned")
            return PlanResult(request, error=f"The model's chat template could not build the prompt: {error}")
        return PlanResult(request, plan)
