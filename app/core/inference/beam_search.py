"""Beam search: the `width` most likely continuations, decoded together in one llama.cpp batch.

llama.cpp dropped its own beam search in 2024; this one runs on the low-level API that
llama-cpp-python binds:

- the beams are sequences (seq ids 0..width-1) of ONE context with `n_seq_max = width` and a
  unified KV cache, so the prompt is evaluated once (sequence 0) and every step decodes one
  token per live beam in ONE batch, each token tagged with its beam's sequence id;
- when a beam splits, its KV cache is copied with `llama_memory_seq_cp` (in a unified cache
  this only tags the same cells with a second sequence id: nothing is re-evaluated); a beam
  that has no child left is dropped with `llama_memory_seq_rm`;
- each beam's next-token distribution is the log-softmax of `llama_get_logits_ith` for its
  row in the batch.

The beam context is separate from the engine's chat context (the engine creates its
`llama_cpp.Llama` with one sequence, and the chat's KV cache stays untouched for the next
turn); it shares the loaded weights (`llama_init_from_model` on the same model) and the
chat context's thread count and KV-cache types. Its size is `beam_context_cells`: the
prompt once plus `width` x `max_new_tokens` cells, which is what the memory planner counts
(app/core/memory/beam_fit.py) before a search runs.

Scores (GNMT, Wu et al. 2016): score = cumulative log-probability / lp(length) with
lp(length) = ((5 + length) / 6) ** alpha; alpha = 0 ranks by the plain sum, a larger alpha
favours longer hypotheses. A hypothesis that ends with end-of-text includes the
log-probability of that end token (the model's probability of stopping there) but the
token itself is not part of its text or its length, as in a chat reply.

Stopping: the search ends when `keep` hypotheses have finished (end of text) or after
`max_new_tokens` steps, when the live beams finish with the length limit. With width 1 and
keep 1 this is exactly greedy decoding.
"""

from __future__ import annotations

import ctypes
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

import llama_cpp
import numpy as np
from llama_cpp._internals import LlamaContext

from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError, PromptTooLong

MIN_WIDTH = 1  # width 1 is greedy decoding; the chat settings offer 2..8
MAX_WIDTH = 8
KV_CELL_PADDING = 256  # llama.cpp pads a context's cells to a multiple of this


class BeamEnd(str, Enum):
    END_OF_TEXT = N_("end of text")
    LENGTH = N_("length limit")
    USER = N_("stopped by user")


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(length) = ((5 + length) / 6) ** alpha."""
    return ((5 + length) / 6) ** alpha


def beam_score(cumulative_logprob: float, length: int, alpha: float) -> float:
    return cumulative_logprob / length_penalty(length, alpha)


def beam_context_cells(prompt_tokens: int, width: int, max_new_tokens: int) -> int:
    """KV cells the beam context needs: the shared prompt once, each beam's own tokens, padded."""
    needed = prompt_tokens + width * max_new_tokens
    return (needed + KV_CELL_PADDING - 1) // KV_CELL_PADDING * KV_CELL_PADDING


@dataclass(frozen=True)
class BeamSettings:
    width: int = 4
    alpha: float = 1.0  # GNMT length penalty exponent (0: rank by the plain log-probability sum)
    keep: int = 0  # finished hypotheses to keep and wait for; 0: as many as the width
    max_new_tokens: int = 128
    stop_at_end_of_text: bool = True  # False: end-of-text tokens are never chosen (fixed-length search)

    @property
    def kept(self) -> int:
        return self.keep or self.width

    def problems(self) -> list[str]:
        """What is wrong with these settings, worded for the user; [] when they can run."""
        found = []
        if not MIN_WIDTH <= self.width <= MAX_WIDTH:
            found.append(fill(N_("The beam width must be 1 to {most}, not {width}."), most=MAX_WIDTH, width=self.width))
        if not 0 <= self.keep <= self.width:
            found.append(
                fill(N_("Keep 1 to {width} hypotheses (the width), not {keep}."), width=self.width, keep=self.keep)
            )
        if self.max_new_tokens < 1:
            found.append(N_("A beam search needs room for at least one new token."))
        if not 0.0 <= self.alpha <= 5.0:
            found.append(fill(N_("The length penalty must be 0 to 5, not {alpha}."), alpha=self.alpha))
        return found


@dataclass(frozen=True)
class Hypothesis:
    """One finished beam: its tokens (no end-of-text token), each token's log-probability, and its score."""

    tokens: tuple[int, ...]
    logprobs: tuple[float, ...]
    cumulative_logprob: float  # includes the end-of-text token's log-probability when it ended there
    score: float
    end: BeamEnd
    text: str = ""  # the tokens as text (filled in by the search)

    @property
    def length(self) -> int:
        return len(self.tokens)

    @property
    def scored_tokens(self) -> int:
        """The tokens in the cumulative log-probability: the end-of-text token counts when it ended there."""
        return self.length + (1 if self.end is BeamEnd.END_OF_TEXT else 0)

    @property
    def mean_logprob(self) -> float:
        return self.cumulative_logprob / max(self.scored_tokens, 1)

    @property
    def perplexity(self) -> float:
        return math.exp(-self.mean_logprob)


@dataclass
class BeamResult:
    settings: BeamSettings
    hypotheses: list[Hypothesis]  # best score first
    prompt_tokens: int
    context_cells: int
    steps: int = 0  # batched decodes after the prompt
    prompt_s: float = 0.0
    decode_s: float = 0.0  # all steps after the prompt (choosing beams, copying KV, decoding)
    forks: int = 0  # KV copies made when beams split

    @property
    def best(self) -> Hypothesis:
        return self.hypotheses[0]


@dataclass
class _Beam:
    seq: int
    tokens: tuple[int, ...] = ()
    logprobs: tuple[float, ...] = ()
    cumulative: float = 0.0


@dataclass(order=True)
class _Candidate:
    sort_key: float
    parent: _Beam = field(compare=False)
    token: int = field(compare=False)
    logprob: float = field(compare=False)
    rank: int = field(compare=False)  # the token's rank in its parent's distribution


_Top = tuple[list[int], list[float]]  # a beam's most likely next tokens and their log-probabilities

# Called with the beam context's cell count before the context is made; raises to refuse the search.
Admission = Callable[[int], None]


class BeamSearchError(EngineError):
    """A beam search could not run; the message says why."""


def rank_hypotheses(hypotheses: list[Hypothesis], alpha: float) -> list[Hypothesis]:
    """The same hypotheses rescored for `alpha`, best first."""
    rescored = [replace(h, score=beam_score(h.cumulative_logprob, h.length, alpha)) for h in hypotheses]
    return sorted(rescored, key=lambda h: h.score, reverse=True)


class BeamSearcher:
    """Runs beam searches on a loaded `llama_cpp.Llama`'s weights in a context of its own."""

    def __init__(self, llama: llama_cpp.Llama) -> None:
        self._llama = llama
        self._vocab = llama._model.vocab
        self._n_vocab = llama.n_vocab()
        self._n_batch = max(1, int(llama.context_params.n_batch))
        self._width = 1

    def search(
        self,
        prompt: list[int],
        settings: BeamSettings,
        stop: threading.Event | None = None,
        admit: Admission | None = None,
    ) -> BeamResult:
        """The best `settings.kept` hypotheses for `prompt`. `admit` sees the context size first
        (the memory check); BeamSearchError for settings that cannot run."""
        problems = settings.problems()
        if problems:
            raise BeamSearchError(" ".join(problems))
        if not prompt:
            raise BeamSearchError(N_("A beam search needs a prompt of at least one token."))
        n_ctx_train = self._llama._model.n_ctx_train()
        cells = beam_context_cells(len(prompt), settings.width, settings.max_new_tokens)
        if len(prompt) + settings.max_new_tokens > n_ctx_train:
            raise PromptTooLong(len(prompt) + settings.max_new_tokens, n_ctx_train)
        if admit is not None:
            admit(cells)
        context = self._context(cells, settings.width)
        self._width = settings.width
        try:
            return self._run(context, prompt, settings, cells, stop or threading.Event())
        finally:
            context.close()

    def _context(self, cells: int, width: int) -> LlamaContext:
        try:
            return beam_context(self._llama, cells, width)
        except ValueError as error:
            raise BeamSearchError(
                fill(N_("llama.cpp could not make a context of {cells} cells for the beams."), cells=cells)
            ) from error

    def _run(
        self, context: LlamaContext, prompt: list[int], settings: BeamSettings, cells: int, stop: threading.Event
    ) -> BeamResult:
        result = BeamResult(settings, [], len(prompt), cells)
        memory = context.memory
        batch = llama_cpp.llama_batch_init(max(self._n_batch, settings.width), 0, 1)
        try:
            started = time.perf_counter()
            rows = [self._decode_prompt(context, batch, prompt)]
            result.prompt_s = time.perf_counter() - started
            started = time.perf_counter()
            live = [_Beam(seq=0)]
            finished: list[Hypothesis] = []
            end = BeamEnd.LENGTH
            for step in range(settings.max_new_tokens):
                if stop.is_set():
                    end = BeamEnd.USER
                    break
                chosen = self._choose(live, rows, settings, finished)
                if len(finished) >= settings.kept or not chosen:
                    live = []
                    break
                live = self._assign_sequences(memory, live, chosen, settings.width, result)
                if step + 1 < settings.max_new_tokens:  # the last tokens need no logits after them
                    rows = self._decode_step(context, batch, live, len(prompt) + step)
                    result.steps += 1
            for beam in live:
                score = beam_score(beam.cumulative, len(beam.tokens), settings.alpha)
                finished.append(Hypothesis(beam.tokens, beam.logprobs, beam.cumulative, score, end))
            result.decode_s = time.perf_counter() - started
        finally:
            llama_cpp.llama_batch_free(batch)
        best = sorted(finished, key=lambda h: h.score, reverse=True)[: settings.kept]
        detokenize = self._llama.detokenize
        result.hypotheses = [replace(h, text=detokenize(list(h.tokens)).decode("utf-8", "replace")) for h in best]
        return result

    def _choose(
        self,
        live: list[_Beam],
        rows: list[_Top],
        settings: BeamSettings,
        finished: list[Hypothesis],
    ) -> list[_Candidate]:
        """The next live beams (best first); beams that chose end-of-text join `finished`."""
        width = settings.width
        candidates: list[_Candidate] = []
        for beam, (tokens, logprobs) in zip(live, rows, strict=True):
            for rank, (token, lp) in enumerate(zip(tokens, logprobs, strict=True)):
                candidates.append(_Candidate(beam.cumulative + lp, beam, token, lp, rank))
        candidates.sort(reverse=True)
        chosen: list[_Candidate] = []
        for candidate in candidates:
            if llama_cpp.llama_vocab_is_eog(self._vocab, candidate.token):
                if settings.stop_at_end_of_text and candidate.rank < width and len(finished) < settings.kept:
                    parent = candidate.parent
                    score = beam_score(candidate.sort_key, len(parent.tokens), settings.alpha)
                    finished.append(
                        Hypothesis(parent.tokens, parent.logprobs, candidate.sort_key, score, BeamEnd.END_OF_TEXT)
                    )
                continue
            chosen.append(candidate)
            if len(chosen) == width:
                break
        return chosen

    def _assign_sequences(
        self, memory: object, live: list[_Beam], chosen: list[_Candidate], width: int, result: BeamResult
    ) -> list[_Beam]:
        """Give each chosen candidate a sequence: its parent's (first child), or a copy of the parent's KV."""
        children: dict[int, list[_Candidate]] = {}
        for candidate in chosen:
            children.setdefault(candidate.parent.seq, []).append(candidate)
        free = [seq for seq in range(width) if seq not in children]
        for beam in live:
            if beam.seq not in children:
                llama_cpp.llama_memory_seq_rm(memory, beam.seq, -1, -1)
        beams: list[_Beam] = []
        for parent_seq, group in children.items():
            for index, candidate in enumerate(group):
                seq = parent_seq
                if index > 0:
                    seq = free.pop(0)
                    llama_cpp.llama_memory_seq_rm(memory, seq, -1, -1)
                    llama_cpp.llama_memory_seq_cp(memory, parent_seq, seq, -1, -1)
                    result.forks += 1
                parent = candidate.parent
                beams.append(
                    _Beam(
                        seq,
                        (*parent.tokens, candidate.token),
                        (*parent.logprobs, candidate.logprob),
                        candidate.sort_key,
                    )
                )
        return beams

    def _decode_prompt(self, context: LlamaContext, batch: llama_cpp.llama_batch, prompt: list[int]) -> _Top:
        decode_shared_prompt(context, batch, prompt, self._n_batch)
        return self._top(context, batch.n_tokens - 1)

    def _decode_step(
        self, context: LlamaContext, batch: llama_cpp.llama_batch, live: list[_Beam], position: int
    ) -> list[_Top]:
        batch.n_tokens = len(live)
        for i, beam in enumerate(live):
            put_row(batch, i, beam.tokens[-1], position, beam.seq, True)
        decode_beams(context, batch)
        return [self._top(context, i) for i in range(len(live))]

    def _top(self, context: LlamaContext, row: int) -> _Top:
        """The 2 x width most likely next tokens of batch row `row`, best first, with their
        log-probabilities (log-softmax over the whole vocabulary). Twice the width, so that
        end-of-text tokens never starve the live beams; read straight from llama.cpp's logits."""
        pointer = llama_cpp.llama_get_logits_ith(context.ctx, row)
        logits = np.ctypeslib.as_array(ctypes.cast(pointer, ctypes.POINTER(ctypes.c_float)), shape=(self._n_vocab,))
        k = min(2 * self._width, self._n_vocab)
        top = np.argpartition(logits, -k)[-k:]
        top = top[np.argsort(-logits[top], kind="stable")]
        peak = float(logits[top[0]])
        log_total = peak + math.log(float(np.exp(logits - peak).sum(dtype=np.float64)))
        return top.tolist(), [float(logits[t]) - log_total for t in top]


def beam_context(llama: llama_cpp.Llama, cells: int, width: int) -> LlamaContext:
    """A context of `cells` for `width` sequences that share the prompt's cells (a unified cache),
    with the chat context's threads and KV types; ValueError when llama.cpp cannot make it."""
    base = llama.context_params
    params = type(base).from_buffer_copy(base)
    params.n_ctx = cells
    params.n_batch = max(int(base.n_batch), width)
    params.n_ubatch = min(int(base.n_ubatch), params.n_batch) if base.n_ubatch else params.n_batch
    params.n_seq_max = width
    params.kv_unified = True
    params.embeddings = False
    return LlamaContext(model=llama._model, params=params, verbose=False)


def decode_beams(context: LlamaContext, batch: llama_cpp.llama_batch) -> None:
    """One `llama_decode` of the batch; BeamSearchError when llama.cpp fails it."""
    code = llama_cpp.llama_decode(context.ctx, batch)
    if code != 0:
        raise BeamSearchError(fill(N_("llama.cpp's decode failed for the beams (code {code})."), code=code))


def decode_shared_prompt(context: LlamaContext, batch: llama_cpp.llama_batch, prompt: list[int], n_batch: int) -> None:
    """The prompt in sequence 0, `n_batch` tokens a decode, with the logits of its last token only."""
    for start in range(0, len(prompt), n_batch):
        chunk = prompt[start : start + n_batch]
        batch.n_tokens = len(chunk)
        for i, token in enumerate(chunk):
            put_row(batch, i, token, start + i, 0, i == len(chunk) - 1)
        decode_beams(context, batch)


def put_row(batch: llama_cpp.llama_batch, i: int, token: int, position: int, seq: int, logits: bool) -> None:
    """Row i of the batch: one token of one sequence, with or without its logits."""
    rows: Any = batch  # the binding's stubs type these C arrays loosely (n_seq_id as an array of arrays)
    rows.token[i] = token
    rows.pos[i] = position
    rows.n_seq_id[i] = 1
    rows.seq_id[i][0] = seq
    rows.logits[i] = logits
