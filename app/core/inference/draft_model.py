"""Speculative decoding with a draft model: a small GGUF of the same vocabulary guesses the next tokens.

The draft model runs in a llama.cpp context of its own beside the target's. Before each check it
catches up with the conversation (prompt and the reply so far: what its cache lacks, in batches),
then proposes the next tokens greedily, one decode each. The target checks the proposal in one
batch exactly as it checks a prompt-lookup proposal (engine.py): at each drafted position it
samples as it would have without a draft, with the same random number, and keeps the drafted
token only when that draw is the drafted token.

For a greedy draft this is the standard speculative-sampling acceptance rule (Leviathan et al.,
Chen et al.): the draft's distribution q is one-hot on the drafted token x, so "accept with
probability min(1, p(x)/q(x))" is "accept with probability p(x)", and on rejection the rule
samples from max(0, p - q) renormalised, which is p without x. Drawing y from p and keeping x
when y == x (else taking y) does both at once. The reply keeps the target's distribution; with
the same seed it is token for token the reply plain decoding gives.

Token ids are compared across the two models, so their vocabularies must be the same: the check
before the draft's weights load follows llama.cpp's own (common/speculative.cpp): same vocabulary
type, same BOS/EOS tokens and BOS/EOS handling, sizes at most 128 apart (padding) and the same
text for every token id both have.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import llama_cpp

from app.core.inference.decode_batch import DecodeBatch
from app.core.inference.logits import LogitsRows
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

MAX_VOCAB_DIFFERENCE = 128  # llama.cpp's SPEC_VOCAB_MAX_SIZE_DIFFERENCE: padding, not other tokens
DRAFT_BATCH = 512  # tokens of the conversation the draft catches up with per decode


class DraftModelError(Exception):
    """The draft model cannot draft for this model; the message says why, in a user's words."""


def vocabulary_mismatch(target: llama_cpp.llama_vocab_p, draft: llama_cpp.llama_vocab_p) -> str:
    """Why `draft` cannot propose token ids for `target` ("" when it can)."""
    if llama_cpp.llama_vocab_type(target) != llama_cpp.llama_vocab_type(draft):
        return N_("its tokenizer is of another kind")
    for name, ask in (
        ("BOS", llama_cpp.llama_vocab_bos),
        ("EOS", llama_cpp.llama_vocab_eos),
    ):
        if ask(target) != ask(draft):
            return fill(N_("its {token} token is another one"), token=name)
    for ask in (llama_cpp.llama_vocab_get_add_bos, llama_cpp.llama_vocab_get_add_eos):
        if ask(target) != ask(draft):
            return N_("it adds start or end tokens differently")
    target_size, draft_size = llama_cpp.llama_vocab_n_tokens(target), llama_cpp.llama_vocab_n_tokens(draft)
    if abs(target_size - draft_size) > MAX_VOCAB_DIFFERENCE:
        return fill(N_("its vocabulary has {draft} tokens, the model's {target}"), draft=draft_size, target=target_size)
    for token in range(min(target_size, draft_size)):
        if llama_cpp.llama_vocab_get_text(target, token) != llama_cpp.llama_vocab_get_text(draft, token):
            return fill(N_("token {token} is another text in its vocabulary"), token=token)
    return ""


def _mismatch_with(target: llama_cpp.Llama, path: Path) -> str:
    """`vocabulary_mismatch` with the vocabulary of the file at `path`, read alone (no weights, no context)."""
    params = llama_cpp.llama_model_default_params()
    params.vocab_only = True
    model = llama_cpp.llama_model_load_from_file(str(path).encode("utf-8"), params)
    if not model:
        raise DraftModelError(fill(N_("The draft model {name} could not be read."), name=path.name))
    try:
        return vocabulary_mismatch(target._model.vocab, llama_cpp.llama_model_get_vocab(model))
    finally:
        llama_cpp.llama_model_free(model)


class DraftModel:
    """A small model that proposes the target's next tokens; close() frees it."""

    def __init__(self, llama: llama_cpp.Llama) -> None:
        self.llama = llama
        self._batch = DecodeBatch(llama.ctx, min(DRAFT_BATCH, llama.n_batch))
        self._rows = LogitsRows(llama.ctx, llama.n_vocab())
        self._memory = llama_cpp.llama_get_memory(llama.ctx)
        self._cached: list[int] = []  # the tokens in its KV cache, in order
        self._end_of_text = {token for token in (llama.token_eos(),) if token >= 0}

    @classmethod
    def open(
        cls, path: Path, target: llama_cpp.Llama, n_gpu_layers: int, n_threads: int, flash_attn: bool
    ) -> DraftModel:
        """Load `path` to draft for `target`, with the target's context length.

        Raises DraftModelError, before the weights are read, when the vocabularies differ."""
        mismatch = _mismatch_with(target, path)
        if mismatch:
            raise DraftModelError(
                fill(
                    N_("{name} cannot draft for this model: {reason}. A draft model needs the same vocabulary."),
                    name=path.name,
                    reason=mismatch,
                )
            )
        try:
            llama = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=target.n_ctx(),
                n_gpu_layers=n_gpu_layers,
                n_threads=n_threads,
                n_batch=min(DRAFT_BATCH, target.n_ctx()),
                flash_attn=flash_attn,
                verbose=False,
            )
        except ValueError as error:
            raise DraftModelError(
                fill(N_("The draft model {name} could not be loaded ({error})."), name=path.name, error=error)
            ) from error
        return cls(llama)

    @property
    def name(self) -> str:
        return Path(self.llama.model_path).name

    def propose(self, tokens: Sequence[int], limit: int) -> list[int]:
        """Up to `limit` tokens the draft model expects after `tokens` (the conversation so far, the
        last sampled token included), greedily; fewer when it expects the end of the text."""
        if limit <= 0 or len(tokens) + limit > self.llama.n_ctx():
            return []
        self._catch_up(tokens)
        proposal: list[int] = []
        position = len(tokens)
        token = int(self._rows.row(-1).argmax())
        while token not in self._end_of_text:
            proposal.append(token)
            if len(proposal) == limit:
                break
            self._batch.decode_one(token, position)
            self._cached.append(token)
            position += 1
            token = int(self._rows.row(-1).argmax())
        return proposal

    def _catch_up(self, tokens: Sequence[int]) -> None:
        """Make the KV cache hold exactly `tokens`, decoding only what it lacks (at least the last one,
        whose logits the proposal starts from)."""
        cached = self._cached
        keep, most = 0, min(len(cached), len(tokens) - 1)
        while keep < most and cached[keep] == tokens[keep]:
            keep += 1
        if keep < len(cached):
            if not llama_cpp.llama_memory_seq_rm(self._memory, 0, keep, -1):
                llama_cpp.llama_memory_seq_rm(self._memory, -1, 0, -1)  # cannot drop a tail: start again
                keep = 0
            del cached[keep:]
        capacity = self._batch.capacity
        for start in range(keep, len(tokens), capacity):
            chunk = list(tokens[start : start + capacity])
            self._batch.decode(chunk, start)
            cached.extend(chunk)

    def close(self) -> None:
        self._batch.close()
        self.llama.close()
