"""The `decoding` section: beam search's cost per token against greedy's, and a fork's first token.

- Beam search at width 4 decodes its four beams in one batch per step: its time per step ÷
  llama.cpp's own decode of a batch of the same shape (four sequences sharing the prompt, one
  token each, every row's logits; batch_reference.py), same prompt, same length, rounds
  interleaved so the drift of a shared machine hits both; target <= 1.15: the cost of the beam
  search's own code (choosing beams, reading logits, copying KV cells), whatever the hardware.
  Beside it, reported: width 4 ÷ greedy per output token (what a batch of four costs against one
  token on this machine: the CPU's share, not the code's) and width 1 ÷ greedy (the loop's overhead).
- A fork reuses the KV cache up to the fork position: time to the first new token after a
  fork ÷ the time to first token of a fresh reply from the same tokens (the prompt, the
  kept reply tokens and the forced one, on an empty cache); target <= 0.2.
"""

from __future__ import annotations

import statistics
import threading
from dataclasses import replace

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.bench.batch_reference import batch_step_s
from app.core.inference.beam_search import BeamSearcher, BeamSettings
from app.core.inference.engine import Engine
from app.core.inference.fork import fork_point, stream_fork
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece, final_reply

SECTION = "decoding"
N_CTX = 2048
BEAM_TARGET = "<= 1.15"
BEAM = "beam width 4 ÷ llama.cpp's 4-sequence batch decode, per step (per round)"
WIDTH = 4
FORK_TARGET = "<= 0.2"
FORK = "fork: first new token ÷ fresh TTFT (per round)"
PROMPT = (
    "Here are my notes on the water cycle. Water evaporates from oceans, lakes and rivers when the sun warms "
    "it; plants add more through transpiration. The vapour rises, cools and condenses into clouds around tiny "
    "particles of dust. When the droplets grow heavy they fall as rain, snow or hail, and the water runs off "
    "into rivers or soaks into the ground, where it refills aquifers and slowly flows back to the sea. "
    "Please explain, in a few sentences, which step of this cycle moves the most water each year and why."
)
# The smoke run's (BenchContext.smoke): each round reads its prompt afresh, and reading is most of a short run.
SMOKE_PROMPT = "My notes: water evaporates, condenses into clouds and falls as rain. Which step moves the most water?"


def run(context: BenchContext) -> list[BenchRow]:
    engine = Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=N_CTX))
    try:
        prompt = engine.prompt_tokens([ChatMessage("user", SMOKE_PROMPT if context.smoke else PROMPT)])
        rounds = 3 if context.quick else 5
        length = 8 if context.smoke else 16 if context.quick else 48
        rows = _beam_rows(engine, prompt, rounds, length, context)
        rows.extend(_fork_rows(engine, prompt, rounds, length, context))
        return rows
    finally:
        engine.close()


def _greedy_token_s(engine: Engine, prompt: list[int], length: int) -> float:
    engine.llama.reset()
    done = final_reply(engine.stream_tokens(prompt, replace(GREEDY, max_tokens=length), threading.Event()))
    rate = done.stats.generation_tokens_per_s
    return 1.0 / rate if rate > 0 else float("nan")


def _beam_token_s(searcher: BeamSearcher, prompt: list[int], width: int, length: int) -> float:
    result = searcher.search(prompt, BeamSettings(width=width, max_new_tokens=length, stop_at_end_of_text=False))
    return result.decode_s / result.steps if result.steps else float("nan")


def _beam_rows(engine: Engine, prompt: list[int], rounds: int, length: int, context: BenchContext) -> list[BenchRow]:
    searcher = BeamSearcher(engine.llama)
    greedy: list[float] = []
    width1: list[float] = []
    width4: list[float] = []
    batch4: list[float] = []  # llama.cpp's own step of the same shape
    loop = context.rounds(rounds)
    loop.judge(BEAM_TARGET, lambda: _per_round(width4, batch4))
    for _ in loop:
        greedy.append(_greedy_token_s(engine, prompt, length))
        width4.append(_beam_token_s(searcher, prompt, WIDTH, length))
        batch4.append(
            batch_step_s(engine.llama, prompt, WIDTH, length - 1)
        )  # the beam's steps: one per token but the last
        width1.append(_beam_token_s(searcher, prompt, 1, length))
    details = context.details.setdefault(SECTION, {})
    details.update(
        greedy_token_s=greedy, beam1_token_s=width1, beam4_token_s=width4, batch4_step_s=batch4, tokens=length
    )
    # The ratio of each round, then their median: a round's runs follow each other closely.
    return [
        row(SECTION, "greedy time per output token", statistics.median(greedy) * 1000, "ms"),
        row(SECTION, "beam width 4: time per output token", statistics.median(width4) * 1000, "ms"),
        row(SECTION, "llama.cpp: one decode of 4 sequences, a token each", statistics.median(batch4) * 1000, "ms"),
        judged(SECTION, BEAM, _per_round(width4, batch4), "ratio", BEAM_TARGET),
        row(SECTION, "beam width 4 ÷ greedy, per output token", statistics.median(_per_round(width4, greedy)), "ratio"),
        row(SECTION, "beam width 1 ÷ greedy, per output token", statistics.median(_per_round(width1, greedy)), "ratio"),
    ]


def _fork_rows(engine: Engine, prompt: list[int], rounds: int, length: int, context: BenchContext) -> list[BenchRow]:
    params = replace(GREEDY, max_tokens=length)
    fork_ttft: list[float] = []
    fresh_ttft: list[float] = []
    loop = context.rounds(rounds)
    loop.judge(FORK_TARGET, lambda: _per_round(fork_ttft, fresh_ttft))
    for _ in loop:
        engine.llama.reset()
        events = list(engine.stream_tokens(prompt, params, threading.Event()))
        reply = [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0]
        if len(reply) < 4:
            return [not_measured(SECTION, FORK, "the reply was too short to fork", "ratio", FORK_TARGET)]
        position = len(reply) // 2
        forced = next(t for t in engine.tokenize(" However") if t != reply[position])
        point = fork_point(prompt, reply, position, forced)
        done = final_reply(stream_fork(engine, point, params, threading.Event()))
        fork_ttft.append(done.stats.time_to_first_token_s)
        engine.llama.reset()
        fresh = final_reply(engine.stream_tokens(point.tokens(), params, threading.Event()))
        assert isinstance(fresh, ReplyDone)
        fresh_ttft.append(fresh.stats.time_to_first_token_s)
    context.details.setdefault(SECTION, {}).update(fork_ttft_s=fork_ttft, fresh_ttft_s=fresh_ttft)
    return [
        row(SECTION, "fork: time to the first new token", statistics.median(fork_ttft) * 1000, "ms"),
        row(SECTION, "fresh reply from the same tokens: TTFT", statistics.median(fresh_ttft) * 1000, "ms"),
        judged(SECTION, FORK, _per_round(fork_ttft, fresh_ttft), "ratio", FORK_TARGET),
    ]


def _per_round(values: list[float], others: list[float]) -> list[float]:
    """Each round's value over the other measured in the same round."""
    return [value / other for value, other in zip(values, others, strict=True)]
