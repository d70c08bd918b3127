"""The logits rows llama.cpp holds after a decode, read in place (never copied).

`llama_get_logits_ith(ctx, i)` returns a pointer into the context's output buffer: the row
of n_vocab floats of the batch's i-th output (-1: the last). A numpy view over that memory
costs a few microseconds to make, so views are kept by address: llama.cpp reuses the same
buffer from token to token and only reallocates it when a batch needs more outputs. A view
is valid until the next decode; nobody may keep one past it.
"""

from __future__ import annotations

import ctypes

import llama_cpp
import numpy as np

MAX_KEPT_VIEWS = 64  # more rows than a verification batch has outputs

# llama_get_logits_ith returning the address as an int: llama_cpp's binding returns a float
# pointer object, which would have to be made and cast on every token.
_logits_address = ctypes.CFUNCTYPE(ctypes.c_void_p, llama_cpp.llama_context_p_ctypes, ctypes.c_int32)(
    ("llama_get_logits_ith", llama_cpp.llama_cpp._lib)
)


class LogitsRows:
    """Views of one context's logits rows."""

    def __init__(self, ctx: llama_cpp.llama_context_p, n_vocab: int) -> None:
        self._ctx = ctx
        self.n_vocab = n_vocab
        self._views: dict[int, np.ndarray] = {}

    def row(self, index: int) -> np.ndarray:
        """The logits of the batch's `index`-th output (-1: the last), as float32, in place."""
        address = _logits_address(self._ctx, index)  # also waits for the decode to finish
        if not address:
            raise RuntimeError(f"llama.cpp has no logits for output {index}")
        view = self._views.get(address)
        if view is None:
            if len(self._views) >= MAX_KEPT_VIEWS:
                self._views.clear()
            buffer = (ctypes.c_float * self.n_vocab).from_address(address)
            view = self._views[address] = np.frombuffer(memoryview(buffer), dtype=np.float32)
        return view


class SampledLogits:
    """What a token observer gets beside the token: the logits row that token was sampled from.

    One object is reused for every token of a reply (the engine moves `index`); `row()`
    reads llama.cpp's buffer in place, so it is only valid during the observer's call.
    """

    def __init__(self, rows: LogitsRows) -> None:
        self._rows = rows
        self.index = -1

    def row(self) -> np.ndarray:
        return self._rows.row(self.index)
