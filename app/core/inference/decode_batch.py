"""One llama_batch, allocated once per loaded model and reused for every decode.

llama-cpp-python's `Llama.eval` refills its batch through Python loops and removes the KV
cache's tail before every token; the token loop needs less: a prompt in chunks of at most
n_batch tokens with logits for the last one only, a single token with its logits, or a
short run of tokens (a token and its drafted continuation) with logits for each.
"""

from __future__ import annotations

from collections.abc import Sequence

import llama_cpp

DECODE_ABORTED = 2  # llama_decode's return value when the abort callback stopped it
NO_KV_SLOT = 1


class DecodeError(RuntimeError):
    """llama_decode failed for a reason other than an abort Glassbox asked for."""


class DecodeAborted(Exception):
    """The abort callback stopped the decode (the user's Stop, or closing)."""


def describe(code: int) -> str:
    if code == NO_KV_SLOT:
        return "llama.cpp found no room in the KV cache for the batch (llama_decode returned 1)"
    if code == -1:
        return "llama.cpp refused the batch as invalid (llama_decode returned -1)"
    return f"llama.cpp failed to decode (llama_decode returned {code})"


class DecodeBatch:
    """Tokens of sequence 0 at given positions; close() frees the batch."""

    def __init__(self, ctx: llama_cpp.llama_context_p, capacity: int) -> None:
        self._ctx = ctx
        self.capacity = capacity
        self._batch = llama_cpp.llama_batch_init(capacity, 0, 1)
        self._open = True
        for i in range(capacity):
            self._batch.n_seq_id[i] = 1
            self._batch.seq_id[i][0] = 0
        self._batch.logits[0] = 1
        self._single_ready = True  # slot 0 wants its logits, as a single-token decode needs
        # The batch's arrays, taken once: reading a pointer field makes a new pointer object.
        self._tokens, self._positions = self._batch.token, self._batch.pos

    def decode_one(self, token: int, position: int) -> None:
        """Decode one token with its logits (the hot path of generation)."""
        batch = self._batch
        if not self._single_ready:
            batch.logits[0] = 1
            self._single_ready = True
        self._tokens[0] = token
        self._positions[0] = position
        batch.n_tokens = 1
        code = llama_cpp.llama_decode(self._ctx, batch)
        if code:
            self._failed(code)

    def decode(self, tokens: Sequence[int], start: int, every_logit: bool = False) -> None:
        """Decode up to `capacity` tokens at positions start, start+1, ...; logits for the last
        token only, or for each of them (`every_logit`, to check drafted tokens)."""
        count = len(tokens)
        if not 0 < count <= self.capacity:
            raise ValueError(f"a batch holds 1 to {self.capacity} tokens, not {count}")
        batch = self._batch
        flag = 1 if every_logit else 0
        for i, token in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = start + i
            batch.logits[i] = flag
        batch.logits[count - 1] = 1
        batch.n_tokens = count
        self._single_ready = count == 1 or every_logit
        self._run()

    def _run(self) -> None:
        code = llama_cpp.llama_decode(self._ctx, self._batch)
        if code:
            self._failed(code)

    @staticmethod
    def _failed(code: int) -> None:
        if code == DECODE_ABORTED:
            raise DecodeAborted
        raise DecodeError(describe(code))

    def close(self) -> None:
        if self._open:
            self._open = False
            llama_cpp.llama_batch_free(self._batch)
