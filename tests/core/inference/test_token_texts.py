"""Token texts: each token's bytes as llama.cpp writes them, and no text for the tokens that end a reply."""

from __future__ import annotations

import ctypes

import llama_cpp
import pytest

from app.core.inference import token_texts
from app.core.inference.engine import Engine
from app.core.inference.token_texts import TokenTexts


def _whole_piece(engine: Engine, token: int) -> bytes:
    buffer = ctypes.create_string_buffer(1024)
    size = llama_cpp.llama_token_to_piece(engine.llama._model.vocab, token, buffer, len(buffer), 0, False)
    return buffer.raw[:size]


def test_every_token_reads_whole_even_through_a_buffer_that_has_to_grow(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(token_texts, "FIRST_BUFFER", 1)  # every longer piece makes the buffer grow
    llama = engine.llama
    texts = TokenTexts(llama._model.vocab)
    sample = [*range(0, llama.n_vocab(), 97), *llama.tokenize("天空是蓝色的 🌊".encode(), add_bos=False)]
    for token in sample:
        if llama_cpp.llama_vocab_is_eog(llama._model.vocab, token):
            assert texts.piece(token) is None
        else:
            assert texts.piece(token) == _whole_piece(engine, token)
            assert texts.piece(token) == _whole_piece(engine, token)  # the second time from what was kept


def test_a_token_longer_than_llama_cpp_pythons_32_byte_buffer_keeps_all_its_text(engine: Engine) -> None:
    # Runs of spaces (code indentation) are single tokens in this vocabulary; llama-cpp-python's
    # detokenize reads every piece through 32 bytes and returns nothing for these.
    indentation = engine.tokenize(" " * 64, special=False)
    texts = TokenTexts(engine.llama._model.vocab)
    assert b"".join(texts.piece(token) or b"?" for token in indentation) == b" " * 64
    assert any(len(texts.piece(token) or b"") > 32 for token in indentation)


def test_the_end_of_turn_token_has_no_text(engine: Engine) -> None:
    texts = TokenTexts(engine.llama._model.vocab)
    (end_of_turn,) = engine.tokenize("<|im_end|>")
    assert texts.piece(end_of_turn) is None
    assert texts.piece(engine.llama.token_eos()) is None
