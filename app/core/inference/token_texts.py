"""The bytes each generated token adds to the reply, read once per token id and kept.

`llama_token_to_piece` writes a token's text into a buffer the caller owns; the buffer is
reused and each token's bytes are kept, so a token seen before costs one dict lookup. A
token that ends generation (end of turn, end of text) has no text here: `piece` returns
None for it, which is how the token loop learns that the reply is over.

A thinking model's markers are shown: where a family's marker is one special token (gpt-oss's
`<|channel|>`, Magistral's `[THINK]`), the token loop needs its text to tell reasoning from answer,
so those tokens (`shown`) write their text, and never end the reply.
"""

from __future__ import annotations

import ctypes

import llama_cpp

FIRST_BUFFER = 64  # bytes; grown when a token's text is longer


class TokenTexts:
    """What each token of one model's vocabulary writes into a reply (special tokens not rendered)."""

    def __init__(self, vocab: llama_cpp.llama_vocab_p, shown: frozenset[int] = frozenset()) -> None:
        self._vocab = vocab
        self._buffer = ctypes.create_string_buffer(FIRST_BUFFER)
        self._known: dict[int, bytes | None] = {}
        self._shown = shown

    def piece(self, token: int) -> bytes | None:
        """The token's bytes (maybe part of a character), or None when it ends generation."""
        try:
            return self._known[token]
        except KeyError:
            shown = token in self._shown
            text = None if not shown and llama_cpp.llama_vocab_is_eog(self._vocab, token) else self._read(token, shown)
            self._known[token] = text
            return text

    def _read(self, token: int, special: bool) -> bytes:
        size = llama_cpp.llama_token_to_piece(self._vocab, token, self._buffer, len(self._buffer), 0, special)
        if size < 0:  # the buffer was too small: -size bytes are needed
            self._buffer = ctypes.create_string_buffer(-size)
            size = llama_cpp.llama_token_to_piece(self._vocab, token, self._buffer, len(self._buffer), 0, special)
        return self._buffer.raw[:size]
