"""Speculative decoding by prompt lookup: what it gains where replies repeat the prompt, and costs where not.

Two greedy replies on one engine, each generated with drafting and without, back to back
and in turns first (the ratios are medians of these pairs, the speeds medians of each side):

    editing  the model repeats a given paragraph with small corrections: most of the reply
             is in the prompt, so the lookup's proposals are mostly right (On, and Auto)
    story    a free-form story: proposals are rare and mostly wrong; Auto must notice and
             not make the reply slower (each round is a new chat, so Auto starts afresh)

The engine loads with flash attention: with it llama.cpp's CPU backend decodes a batch
exactly like single tokens, which Auto requires (exact_batch.py) so that drafting never
changes a reply. The speed of plain decoding with flash attention on and off is shown too.
"""

from __future__ import annotations

import statistics
import threading
from dataclasses import replace

from app.bench import BenchContext, BenchRow, judged, row
from app.bench.streaming import PROMPT, in_own_thread
from app.core.inference.engine import Engine, default_threads
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply
from app.core.types.stats import ReplyStats

SECTION = "speculative"
Side = tuple[str, Engine, list[ChatMessage], Speculative]  # a name, and how its reply is made
N_CTX = 2048
PARAGRAPH = (
    "The old lighthouse stood on the rocky cliff for more than a hundred years. Every night its keeper "
    "climbed the spiral stairs, trimmed the wick and wound the clockwork that turned the great lens. Ships "
    "passing in the dark relied on its steady beam to avoid the dangerous reef below. In winter the storms "
    "came from the north, and the waves broke so high that salt crusted the windows of the lamp room. The "
    "keeper kept a log of every ship, every storm and every repair, and the log books filled a whole shelf "
    "in the small stone cottage at the foot of the tower."
)


def _editing(paragraph: str) -> list[ChatMessage]:
    return [
        ChatMessage(
            "user",
            "Repeat the following paragraph exactly as it is, changing only 'wick' to 'lamp' and 'north' to "
            f"'west':\n\n{paragraph}",
        )
    ]


EDITING = _editing(PARAGRAPH)
# The smoke run's (BenchContext.smoke, its tests): every reply reads its prompt afresh, and reading the whole
# paragraph a couple of dozen times was most of the run. Its first three sentences still repeat well.
SMOKE_EDITING = _editing(". ".join(PARAGRAPH.split(". ")[:3]) + ".")
STORY = [ChatMessage("user", PROMPT)]
EDITING_TARGET = ">= 1.5"
STORY_TARGET = ">= 0.97"


def run(context: BenchContext) -> list[BenchRow]:
    loop = context.rounds(3 if context.quick else 7)
    params = replace(GREEDY, max_tokens=32 if context.smoke else 128 if context.quick else 256)
    editing = SMOKE_EDITING if context.smoke else EDITING
    threads = default_threads()
    engine, without_fa = Engine(), Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=threads, flash_attn=True))
    without_fa.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=threads, flash_attn=False))
    # Finds out whether batches decode exactly and what they cost (Auto drafts only where they
    # match); on a thread of its own, as every decode here (see in_own_thread).
    in_own_thread(engine.warm_up)
    speeds: dict[str, list[float]] = {}
    replies: dict[str, list[ReplyStats]] = {}
    ratios: dict[str, list[float]] = {"editing": [], "editing, Auto": [], "story": [], "flash attention": []}
    loop.judge(EDITING_TARGET, lambda: ratios["editing"])
    loop.judge(STORY_TARGET, lambda: ratios["story"])

    def measure(name: str, target: Engine, messages: list[ChatMessage], mode: Speculative) -> float:
        stats = in_own_thread(lambda: _reply(target, messages, params, mode))
        speeds.setdefault(name, []).append(stats.generation_tokens_per_s)
        replies.setdefault(name, []).append(stats)
        return stats.generation_tokens_per_s

    def pair(ratio: str, first: Side, second: Side, flip: bool) -> None:
        """Two replies back to back (in turns first), so drift hits both alike: the second's speed over the first's."""
        if flip:
            after = measure(*second)
            before = measure(*first)
        else:
            before = measure(*first)
            after = measure(*second)
        ratios[ratio].append(after / before)

    try:
        for index in loop:
            flip = index % 2 == 1
            pair(
                "editing",
                ("editing, plain", engine, editing, Speculative.OFF),
                ("editing, prompt lookup", engine, editing, Speculative.ON),
                flip,
            )
            pair(
                "editing, Auto",
                ("editing, plain", engine, editing, Speculative.OFF),
                ("editing, Auto", engine, editing, Speculative.AUTO),
                not flip,
            )
            pair(
                "story",
                ("story, plain", engine, STORY, Speculative.OFF),
                ("story, Auto", engine, STORY, Speculative.AUTO),
                flip,
            )
            pair(
                "flash attention",
                ("story, plain, no flash attention", without_fa, STORY, Speculative.OFF),
                ("story, plain, flash attention", engine, STORY, Speculative.OFF),
                flip,
            )
    finally:
        engine.close()
        without_fa.close()

    median = {name: statistics.median(values) for name, values in speeds.items()}
    edited = replies["editing, prompt lookup"]
    story = replies["story, Auto"]
    context.details[SECTION] = {
        "rounds": speeds,
        "paired_ratios": ratios,
        "max_tokens": params.max_tokens,
        "threads": threads,
        "editing": [{"drafted": s.drafted_tokens, "accepted": s.accepted_tokens} for s in edited],
        "story_auto": [{"drafted": s.drafted_tokens, "accepted": s.accepted_tokens} for s in story],
    }
    return [
        row(SECTION, "editing: greedy, plain decoding (flash attention)", median["editing, plain"], "tok/s"),
        row(SECTION, "editing: greedy, prompt lookup", median["editing, prompt lookup"], "tok/s"),
        row(SECTION, "editing: acceptance of drafted tokens", _acceptance(edited), "ratio"),
        judged(SECTION, "editing: prompt lookup / plain (per round)", ratios["editing"], "ratio", EDITING_TARGET),
        row(SECTION, "editing: Auto / plain (a new chat each reply)", _ratio(ratios, "editing, Auto"), "ratio"),
        row(SECTION, "story: greedy, plain decoding (flash attention)", median["story, plain"], "tok/s"),
        row(SECTION, "story: greedy, Auto", median["story, Auto"], "tok/s"),
        row(SECTION, "story: tokens drafted per reply, Auto", _median_drafted(story), "tokens"),
        judged(SECTION, "story: Auto / plain (per round)", ratios["story"], "ratio", STORY_TARGET),
        row(SECTION, "plain decoding: flash attention on / off", statistics.median(ratios["flash attention"]), "ratio"),
    ]


def _reply(engine: Engine, messages: list[ChatMessage], params: SamplingParams, mode: Speculative) -> ReplyStats:
    """One reply evaluated from scratch, in a chat of its own (Auto judges it afresh)."""
    engine.llama.reset()
    prompt = engine.prompt_tokens(messages)
    return final_reply(engine.stream_tokens(prompt, params, threading.Event(), speculative=mode)).stats


def _ratio(ratios: dict[str, list[float]], name: str) -> float:
    return statistics.median(ratios[name])


def _median_drafted(replies: list[ReplyStats]) -> float:
    return statistics.median(s.drafted_tokens for s in replies)


def _acceptance(replies: list[ReplyStats]) -> float:
    drafted = sum(s.drafted_tokens for s in replies)
    return sum(s.accepted_tokens for s in replies) / drafted if drafted else 0.0
