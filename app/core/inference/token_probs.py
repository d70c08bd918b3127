"""Token probabilities: for each generated token, how sure the model was and what else it considered.

The recorder is an engine observer (see `TokenObserver`): after each sampled token it reads
the logits that token was sampled from (one row of n_vocab floats that llama.cpp keeps
anyway, read in place: logits.py) and takes their softmax. Nothing like
`logits_all=True` is needed, which would keep n_ctx x n_vocab floats (4.6 GiB for a
152k vocabulary at 8k context).

The probabilities are the model's own distribution (the softmax of the raw logits), before
temperature, top-k/top-p/min-p and the repeat penalties reshape it for sampling: they
say what the model thinks, and the sampling settings in force are kept beside them. Per
token the recorder only does numpy work on the logits row (about 0.1 ms for a 49k
vocabulary); token texts are looked up once the reply is done.
"""

from __future__ import annotations

import codecs

import llama_cpp
import numpy as np

from app.core.inference.logits import SampledLogits
from app.core.inference.sampling import SamplingParams
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace

TOP_ALTERNATIVES = 5
STATS_KEY = "token_trace"  # where a saved reply's stats keep its TokenTrace.to_dict()


def softmax_top(logits: np.ndarray, token_id: int, top: int = TOP_ALTERNATIVES) -> tuple[np.ndarray, np.ndarray, float]:
    """(top token ids, their probabilities, the probability of `token_id`), most likely first."""
    candidates = np.argpartition(logits, -top)[-top:]
    candidates = candidates[np.argsort(logits[candidates])[::-1]]
    shifted = np.exp(logits - logits[candidates[0]])
    total = float(shifted.sum(dtype=np.float64))
    return candidates, shifted[candidates] / total, float(shifted[token_id]) / total


class TokenProbabilityRecorder:
    """An engine observer that records the distribution each generated token was drawn from."""

    def __init__(self, params: SamplingParams, top: int = TOP_ALTERNATIVES) -> None:
        self._params = params
        self._top = top
        self._chosen: list[int] = []
        self._chosen_probability: list[float] = []
        self._top_ids: list[np.ndarray] = []
        self._top_probabilities: list[np.ndarray] = []

    def __len__(self) -> int:
        return len(self._chosen)

    def observe(self, token_id: int, logits: SampledLogits) -> None:
        """Called by the engine right after `token_id` was sampled, with the logits it was sampled from."""
        ids, probabilities, chosen = softmax_top(logits.row(), token_id, self._top)
        self._chosen.append(token_id)
        self._chosen_probability.append(chosen)
        self._top_ids.append(ids)
        self._top_probabilities.append(probabilities)

    def trace(self, llama: llama_cpp.Llama) -> TokenTrace:
        """The recorded steps with token texts (looked up now, after the reply, off the hot path)."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        names: dict[int, str] = {}

        def name(token: int) -> str:
            if token not in names:
                # A token that is part of a character shows its bytes (\xe2) rather than "�".
                names[token] = llama.detokenize([token], special=True).decode("utf-8", errors="backslashreplace")
            return names[token]

        steps = []
        for token, probability, ids, probabilities in zip(
            self._chosen, self._chosen_probability, self._top_ids, self._top_probabilities, strict=True
        ):
            text = decoder.decode(llama.detokenize([token]))
            alternatives = tuple(
                Alternative(int(i), name(int(i)), float(p)) for i, p in zip(ids, probabilities, strict=True)
            )
            steps.append(TokenStep(token, text, probability, alternatives))
        # the bytes of a character the reply stopped inside are left out, as the reply's text leaves them out
        return TokenTrace(steps, self._params.to_dict())
