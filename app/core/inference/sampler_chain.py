"""How the next token is picked: llama.cpp's own sampler chain, built from SamplingParams.

The chain's stages run in the order `SAMPLER_ORDER` (sampling.py) names. llama.cpp samples
from the logits it holds (`llama_sampler_sample`) and accepts the token into the chain, so
the penalties remember the reply's tokens, as they did in llama-cpp-python's loop.

Greedy decoding with every penalty off reduces the chain to "the first highest logit",
which is what llama.cpp's greedy sampler computes. `GreedyArgmax` gets it with an argmax
over the logits row in place: the chain would first copy all n_vocab logits into a
candidate array, which costs about 100 µs a token on a 49k vocabulary (a hundredth of a
token's decode on a small model on the CPU, and far more of one on a GPU).
"""

from __future__ import annotations

import ctypes
import math
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import llama_cpp

from app.core.inference.logits import LogitsRows
from app.core.inference.sampling import SAMPLER_ORDER, SamplingParams
from app.core.reasoning.tool_grammar import lazy_triggers
from app.core.support.user_text import N_

if TYPE_CHECKING:
    Stage = Callable[[SamplingParams, int, int], llama_cpp.llama_sampler_p]

MIN_KEEP = 1  # the cuts always leave at least this many candidates
GRAMMAR_ROOT = b"root"  # the rule a GBNF grammar starts from


class InvalidGrammar(ValueError):
    """llama.cpp could not parse the grammar (it logs where)."""


class TokenSampler(Protocol):
    def sample(self, index: int) -> int:
        """The token picked from the batch's `index`-th output (-1: the last); call in output order."""
        ...

    def accept(self, token: int) -> bool:
        """Take `token` in place of a sampled one (a token the engine writes itself, as a thinking budget's
        closing marker); False, taking nothing, where the grammar forbids it."""
        ...

    def close(self) -> None: ...


def penalties_off(params: SamplingParams) -> bool:
    """Whether the penalties stage would leave every logit as it is."""
    return params.repeat_last_n == 0 or (
        params.repeat_penalty == 1.0 and params.frequency_penalty == 0.0 and params.presence_penalty == 0.0
    )


def token_sampler(
    params: SamplingParams, seed: int, rows: LogitsRows, ctx: llama_cpp.llama_context_p, grammar: str = ""
) -> TokenSampler:
    """The sampler for one reply: argmax for plain greedy decoding, llama.cpp's chain otherwise
    (always under a `grammar`, GBNF text; "" samples freely). Raises InvalidGrammar."""
    if params.temperature <= 0 and penalties_off(params) and not grammar:
        return GreedyArgmax(rows)
    return SamplerChain(params, seed, rows.n_vocab, ctx, grammar)


class GreedyArgmax:
    """Greedy decoding without penalties: the first highest logit, as llama.cpp's greedy sampler picks it."""

    def __init__(self, rows: LogitsRows) -> None:
        self._rows = rows

    def sample(self, index: int) -> int:
        return int(self._rows.row(index).argmax())

    def accept(self, token: int) -> bool:
        return True  # argmax remembers nothing

    def close(self) -> None:
        pass


def _penalties(params: SamplingParams, _seed: int, n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_penalties(
        n_vocab, params.repeat_last_n, params.repeat_penalty, params.frequency_penalty, params.presence_penalty
    )


def _top_k(params: SamplingParams, _seed: int, _n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_top_k(params.top_k)


def _top_p(params: SamplingParams, _seed: int, _n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_top_p(params.top_p, MIN_KEEP)


def _min_p(params: SamplingParams, _seed: int, _n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_min_p(params.min_p, MIN_KEEP)


def _temperature(params: SamplingParams, _seed: int, _n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_temp(params.temperature)


def _draw(_params: SamplingParams, seed: int, _n_vocab: int) -> llama_cpp.llama_sampler_p:
    return llama_cpp.llama_sampler_init_dist(seed)


def _grammar(ctx: llama_cpp.llama_context_p, grammar: str) -> llama_cpp.llama_sampler_p:
    """The grammar's sampler; a lazy one (tool_grammar.py) waits for its trigger before it masks anything."""
    vocab = llama_cpp.llama_model_get_vocab(llama_cpp.llama_get_model(ctx))
    triggers, gbnf = lazy_triggers(grammar)
    if triggers:
        patterns = (ctypes.c_char_p * len(triggers))(*(pattern.encode("utf-8") for pattern in triggers))
        no_tokens = (llama_cpp.llama_token * 0)()
        sampler = llama_cpp.llama_sampler_init_grammar_lazy_patterns(
            vocab, gbnf.encode("utf-8"), GRAMMAR_ROOT, patterns, len(triggers), no_tokens, 0
        )
    else:
        sampler = llama_cpp.llama_sampler_init_grammar(vocab, gbnf.encode("utf-8"), GRAMMAR_ROOT)
    if not sampler:
        raise InvalidGrammar(N_("The grammar could not be parsed (llama.cpp's log says where)."))
    return sampler


_STAGES: dict[str, Stage] = {
    "penalties": _penalties,
    "top_k": _top_k,
    "top_p": _top_p,
    "min_p": _min_p,
    "temperature": _temperature,
    "draw": _draw,
}
_GREEDY_STAGES = ("penalties",)  # at temperature 0: the penalties, then the most likely token

# Whether a stage changes anything for these params; a stage that does not is left out of the chain.
_STAGE_ACTIVE: dict[str, Callable[[SamplingParams], bool]] = {
    "penalties": lambda params: not penalties_off(params),
    "top_k": lambda params: params.top_k > 0,
    "top_p": lambda params: params.top_p < 1.0,
    "min_p": lambda params: params.min_p > 0.0,
    "temperature": lambda _params: True,
    "draw": lambda _params: True,
}


def chain_stages(params: SamplingParams, grammar: str = "") -> tuple[str, ...]:
    """The stages the reply's sampler really runs, in order (what `token_sampler` builds):
    ("greedy",) for plain greedy decoding (the argmax), else the chain's stages in SAMPLER_ORDER,
    those that change nothing left out, with "grammar" after the penalties and "greedy" last at
    temperature 0. A replay record names exactly these (replay.py)."""
    if params.temperature <= 0 and penalties_off(params) and not grammar:
        return ("greedy",)
    greedy = params.temperature <= 0
    stages: list[str] = []
    for name, _fields in SAMPLER_ORDER:
        if (not greedy or name in _GREEDY_STAGES) and _STAGE_ACTIVE[name](params):
            stages.append(name)
        if name == "penalties" and grammar:
            stages.append("grammar")
    if greedy:
        stages.append("greedy")
    return tuple(stages)


class SamplerChain:
    """llama.cpp's sampler chain for one reply; close() frees it (and the samplers it owns), as
    does the garbage collector for a chain whose reply never ran.

    A grammar masks the tokens it forbids right after the penalties, where llama-cpp-python's
    own chain has it; it remembers the tokens sampled, so only the reply's tokens may pass
    through `sample` (drafted tokens are checked by sampling at their positions, so they do)."""

    def __init__(
        self, params: SamplingParams, seed: int, n_vocab: int, ctx: llama_cpp.llama_context_p, grammar: str = ""
    ) -> None:
        self._ctx = ctx
        self._chain: llama_cpp.llama_sampler_p | None = llama_cpp.llama_sampler_chain_init(
            llama_cpp.llama_sampler_chain_default_params()
        )
        self._free = weakref.finalize(self, llama_cpp.llama_sampler_free, self._chain)
        self.stages: list[str] = []
        self._grammar: llama_cpp.llama_sampler_p | None = None  # owned by the chain
        for name in chain_stages(params, grammar):
            if name == "grammar":
                self._grammar = _grammar(ctx, grammar)
                self._add(name, self._grammar)
            elif name == "greedy":
                self._add(name, llama_cpp.llama_sampler_init_greedy())
            else:
                self._add(name, _STAGES[name](params, seed, n_vocab))

    def _add(self, name: str, sampler: llama_cpp.llama_sampler_p) -> None:
        llama_cpp.llama_sampler_chain_add(self._chain, sampler)  # the chain owns it from now on
        self.stages.append(name)

    def sample(self, index: int) -> int:
        assert self._chain is not None, "the sampler chain was closed"
        return int(llama_cpp.llama_sampler_sample(self._chain, self._ctx, index))

    def accept(self, token: int) -> bool:
        assert self._chain is not None, "the sampler chain was closed"
        if self._grammar is not None and not _grammar_allows(self._grammar, token):
            return False
        llama_cpp.llama_sampler_accept(self._chain, token)  # the penalties' history and the grammar's state
        return True

    def close(self) -> None:
        self._chain = None
        self._grammar = None
        self._free()


def _grammar_allows(grammar: llama_cpp.llama_sampler_p, token: int) -> bool:
    """Whether the grammar, in its state now, lets `token` through (it masks a forbidden one to -inf)."""
    candidate = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
    array = llama_cpp.llama_token_data_array(candidate, 1, -1, False)
    llama_cpp.llama_sampler_apply(grammar, ctypes.byref(array))
    return bool(candidate[0].logit > -math.inf)
