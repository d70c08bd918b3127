"""Prefix reuse over a long conversation: does a follow-up turn cost only its new tokens?

A scripted 40-turn conversation at n_ctx 2048 on the starter model (greedy, short
replies). Each turn the context window plans the prompt (rolling policy, chunked drops),
the engine streams the reply, and we record the prompt tokens, the tokens llama.cpp
actually evaluated (the rest came from its prefix cache) and the time to first token.
The conversation outgrows the window several times, so the window slides.

The yardstick, "the TTFT of evaluating just the new turn's tokens", is measured in the
same run, turn by turn, on a second engine (same model, same settings): its cache holds
a filler prefix exactly as long as the part of this turn's prompt that an ideal cache
would already hold (everything before the new user message), and we time evaluating
this turn's real new tokens after it. Timing the very same tokens at the very same
position, interleaved with the real turn, makes the ratio immune to the drift of a
shared machine, which a calibration fit done once up front would not be. Filler is used
instead of the real prefix so the yardstick engine never has to re-evaluate a whole
prompt when the window slides.

Ratios reported:
- follow-up turns that keep the window's start (the cache covers everything but the new
  message): each turn's TTFT / its yardstick TTFT (a turn is a round: the two are measured
  back to back), their median and interval, over all of them and over those after the
  first slide; target <= 1.5. While the interval straddles the target the conversation goes
  on for more turns (within the section's extra time). The ratio of the mean TTFTs is shown
  too. These are the turns the chunked drop exists for: dropping
  one turn per turn would make every turn after the first slide re-evaluate its whole
  prompt.
- the slide turns themselves (the window's start moved): the engine shifts llama.cpp's KV
  cache (cuts the dropped turns out and moves the kept ones back) instead of evaluating
  everything after the system prompt again, so these cost about the new tokens too;
  reported, no target of their own, and counted in "all follow-ups".

It takes about 70 s on two cores, most of it the slide turns and the replies;
`--quick` runs 14 turns at n_ctx 1024.
"""

from __future__ import annotations

import statistics
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.core.chat.context_window import ContextWindow, WindowPolicy, WindowTurn
from app.core.inference.engine import Engine, default_threads
from app.core.inference.kv_shift import shared_prefix_length
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.load import LoadConfig, Speculative
from app.core.types.replies import ReplyDone, final_reply

SECTION = "context_reuse"
TARGET = "<= 1.5"
N_CTX = 2048
SYSTEM_PROMPT = "You are a concise assistant. Answer in one or two sentences."
TOPICS = [
    "the water cycle",
    "how bridges carry weight",
    "why the sky is blue",
    "the history of paper",
    "how vaccines train the immune system",
    "what makes bread rise",
    "how a refrigerator moves heat",
    "why leaves change colour in autumn",
    "how tides follow the moon",
    "what a compiler does",
]
ANGLES = [
    "Explain {topic} to a curious twelve-year-old who likes concrete examples, and mention one common "
    "misconception people have about it, because I want to avoid repeating that mistake in my notes.",
    "I am preparing a short talk about {topic}. What is the single most surprising fact about it, and how "
    "would you demonstrate it with things found in an ordinary kitchen or classroom?",
    "Compare {topic} with something from everyday life that works in a similar way. Keep the comparison "
    "honest: say where the analogy breaks down, and what a student should remember instead.",
    "Summarise {topic} in a way that would fit on an index card. Then add one question a teacher could ask "
    "to check that the idea was really understood rather than memorised.",
]


CONTEXT_NOTE = " My notes already cover {previous}; connect to them where it fits."


def question(i: int) -> str:
    """The user's message of turn i: different topics and angles, so every turn is new text (about 70 tokens)."""
    topic = TOPICS[(i // len(ANGLES) + i) % len(TOPICS)]
    previous = TOPICS[(i // len(ANGLES) + i + 3) % len(TOPICS)]
    return f"Turn {i + 1}. " + ANGLES[i % len(ANGLES)].format(topic=topic) + CONTEXT_NOTE.format(previous=previous)


@dataclass(frozen=True)
class Turn:
    index: int
    prompt_tokens: int
    evaluated_tokens: int
    ttft_s: float
    new_tokens: int  # what an ideal cache could not have: the new user message and the reply prompt
    yardstick_ttft_s: float  # evaluating just those tokens after a cached prefix of the same length
    slid: bool  # the window's start moved this turn
    outside: int  # messages outside the window


def run(context: BenchContext) -> list[BenchRow]:
    turns, n_ctx = (14, 1024) if context.quick else (40, N_CTX)
    max_tokens = 12
    threads = default_threads()
    config = LoadConfig(context.model_path, n_ctx=n_ctx, n_threads=threads, speculative=Speculative.OFF)
    engine, yardstick = Engine(), Engine()
    engine.load(config)
    yardstick.load(config)
    results: list[Turn] = []
    loop = context.rounds(turns)
    loop.judge(TARGET, lambda: _per_turn(_steady(results)))
    try:
        _converse(engine, yardstick, loop, results, n_ctx, max_tokens)
    finally:
        yardstick.close()
        engine.close()
    context.details[SECTION] = {
        "n_ctx": n_ctx,
        "max_tokens": max_tokens,
        "threads": threads,
        "turns": [t.__dict__ for t in results],
    }
    return _rows(results)


def _converse(
    engine: Engine, yardstick: Engine, turns: Iterable[int], results: list[Turn], n_ctx: int, max_tokens: int
) -> None:
    """One turn of the conversation for each of `turns`, each measured into `results`."""
    window = ContextWindow(engine)
    params = GREEDY.with_values({"max_tokens": max_tokens})
    probe = GREEDY.with_values({"max_tokens": 1})
    filler = _filler(engine, n_ctx)
    history: list[WindowTurn] = []
    previous_outside: tuple[object, ...] = ()
    for index in turns:
        history.append(WindowTurn(len(history), "user", question(index)))
        plan = window.plan(SYSTEM_PROMPT, history, n_ctx, max_tokens, WindowPolicy.ROLLING)
        prompt = engine.prompt_tokens(plan.messages)
        before_question = engine.prompt_tokens(plan.messages[:-1]) if len(plan.messages) > 1 else []
        cached_ideal = shared_prefix_length(prompt, before_question)
        new = prompt[cached_ideal:]

        done = _stream(engine, prompt, params)
        if cached_ideal:
            _stream(yardstick, filler[:cached_ideal], probe)  # the cache now holds exactly that prefix
        measured = _stream(yardstick, filler[:cached_ideal] + new, probe).stats
        history.append(WindowTurn(len(history), "assistant", done.text))
        results.append(
            Turn(
                index=index + 1,
                prompt_tokens=done.stats.prompt_tokens,
                evaluated_tokens=done.stats.evaluated_prompt_tokens,
                ttft_s=done.stats.time_to_first_token_s,
                new_tokens=measured.evaluated_prompt_tokens,
                yardstick_ttft_s=measured.time_to_first_token_s,
                slid=index > 0 and plan.outside_ids != previous_outside,
                outside=len(plan.outside_ids),
            )
        )
        previous_outside = plan.outside_ids


def _steady(results: list[Turn]) -> list[Turn]:
    """The follow-up turns that kept the window's start: the cache holds all but the new message."""
    return [t for t in results[1:] if not t.slid]


def _per_turn(turns: list[Turn]) -> list[float]:
    """Each turn's TTFT over the TTFT of just its new tokens, measured right after it."""
    return [t.ttft_s / t.yardstick_ttft_s for t in turns]


def _rows(results: list[Turn]) -> list[BenchRow]:
    follow_ups = results[1:]
    steady = _steady(results)
    slides = [t for t in follow_ups if t.slid]
    first_slide = slides[0].index if slides else len(results) + 1
    after_slide = [t for t in steady if t.index > first_slide]
    after_slide_metric = "  same, turns after the first slide (per turn)"
    rows = [
        row(
            SECTION,
            f"turn {t.index:2d}: prompt {t.prompt_tokens}, evaluated {t.evaluated_tokens}, new {t.new_tokens}"
            + (", window slid" if t.slid else ""),
            t.ttft_s * 1000,
            "ms TTFT",
        )
        for t in results
    ]
    rows += [
        row(SECTION, "window slides", len(slides), "turns"),
        row(SECTION, "follow-up prompt tokens served from the cache", _cached_share(follow_ups), "share"),
        row(SECTION, "mean evaluated / new tokens, turns that keep the window", _mean_ratio(steady, "tokens"), "ratio"),
        judged(SECTION, "follow-up TTFT / TTFT of just the new tokens (per turn)", _per_turn(steady), "ratio", TARGET),
        judged(SECTION, after_slide_metric, _per_turn(after_slide), "ratio", TARGET)
        if after_slide
        else not_measured(SECTION, after_slide_metric, "no turn kept the window after a slide", "ratio", TARGET),
        row(
            SECTION,
            "  mean TTFT / mean new-token TTFT, turns that keep the window",
            _mean_ratio(steady, "ttft"),
            "ratio",
        ),
        row(SECTION, "slide turns: TTFT / TTFT of just the new tokens", _mean_ratio(slides, "ttft"), "ratio"),
        row(SECTION, "all follow-ups incl. slides: TTFT / new-token TTFT", _mean_ratio(follow_ups, "ttft"), "ratio"),
    ]
    return rows


def _mean_ratio(turns: list[Turn], what: str) -> float:
    if not turns:
        return float("nan")
    if what == "tokens":
        return statistics.mean(t.evaluated_tokens for t in turns) / statistics.mean(t.new_tokens for t in turns)
    return statistics.mean(t.ttft_s for t in turns) / statistics.mean(t.yardstick_ttft_s for t in turns)


def _cached_share(turns: list[Turn]) -> float:
    prompt = sum(t.prompt_tokens for t in turns)
    return (prompt - sum(t.evaluated_tokens for t in turns)) / prompt if prompt else float("nan")


def _filler(engine: Engine, length: int) -> list[int]:
    text = " ".join(f"Filler sentence number {i} keeps the cache busy." for i in range(length // 4))
    return engine.tokenize(text, special=False)[:length]


def _stream(engine: Engine, prompt: list[int], params: SamplingParams) -> ReplyDone:
    done = final_reply(engine.stream_tokens(prompt, params, threading.Event()))
    if done.stats.error:
        raise RuntimeError(f"generation failed in the bench: {done.stats.error}")
    return done
