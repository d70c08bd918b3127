"""Chunks: a few hundred tokens, cut at paragraphs then sentences, overlapping, each with its place."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.documents.chunking import chunk_document, chunk_spans
from app.core.documents.document import Document, TextBuilder
from app.core.documents.formats import DocumentKind
from app.core.documents.tokens import estimate_tokens


def words(text: str) -> int:
    """A token counter for the tests: one token per word."""
    return len(text.split())


def sentence(n: int, word: str = "word") -> str:
    return " ".join([word] * (n - 1) + [word + "."])


def test_short_paragraphs_are_packed_and_the_cut_falls_between_paragraphs() -> None:
    paragraphs = [sentence(30, f"p{i}") for i in range(6)]
    text = "\n\n".join(paragraphs)

    spans = chunk_spans(text, words, size=100, overlap=0)

    assert [text[s.start : s.end] for s in spans] == ["\n\n".join(paragraphs[:3]), "\n\n".join(paragraphs[3:])]
    assert [s.tokens for s in spans] == [90, 90]


def test_a_long_paragraph_is_cut_at_a_sentence_end_and_the_next_chunk_repeats_the_last_sentence() -> None:
    sentences = [sentence(20, f"s{i}") for i in range(10)]
    text = " ".join(sentences)

    spans = chunk_spans(text, words, size=70, overlap=25)

    pieces = [text[s.start : s.end] for s in spans]
    assert pieces[0] == " ".join(sentences[:3])
    assert pieces[1].startswith(sentences[2]), "the overlap is the previous chunk's last sentence"
    assert all(piece.endswith(".") for piece in pieces)
    assert pieces[-1].endswith(sentences[-1])


def test_a_sentence_longer_than_a_chunk_is_cut_between_words() -> None:
    text = " ".join(f"w{i}" for i in range(250))

    spans = chunk_spans(text, words, size=100, overlap=0)

    assert [s.tokens for s in spans] == [100, 100, 50]
    assert " ".join(text[s.start : s.end] for s in spans) == text


def test_chinese_without_spaces_is_cut_at_its_full_stops() -> None:
    text = "".join(f"第{i}句话讲的是一件很长的事情。" for i in range(40))

    spans = chunk_spans(text, estimate_tokens, size=60, overlap=0)

    assert len(spans) > 1
    assert all(text[s.start : s.end].endswith("。") for s in spans)
    assert all(s.tokens <= 60 for s in spans)


def test_a_run_of_characters_longer_than_a_chunk_is_still_cut() -> None:
    text = "x" * 4000

    spans = chunk_spans(text, estimate_tokens, size=100, overlap=10)

    assert all(s.tokens <= 100 for s in spans)
    assert "".join(text[s.start : s.end] for s in spans) == text


def test_chunks_of_a_document_carry_their_lines_and_pages() -> None:
    builder = TextBuilder()
    builder.add_lines(sentence(50, "a") + "\n\n" + sentence(50, "b") + "\n\n", page=1)
    builder.add_lines(sentence(50, "c") + "\n", page=2)
    document = Document(Path("x.pdf"), DocumentKind.PDF, builder.text(), tuple(builder.marks))

    chunks = chunk_document(document, words, size=60, overlap=0)

    assert [c.text.split()[0] for c in chunks] == ["a", "b", "c"]
    assert [(c.place.page_start, c.place.page_end) for c in chunks] == [(1, 1), (1, 1), (2, 2)]
    assert [c.place.line_start for c in chunks] == [1, 3, 1]
    assert [c.ordinal for c in chunks] == [0, 1, 2]


def test_a_bad_size_or_overlap_is_refused() -> None:
    with pytest.raises(ValueError, match="overlap"):
        chunk_spans("text", words, size=10, overlap=10)


texts = st.lists(
    st.one_of(st.sampled_from(["\n\n", "\n", ". ", "。", " "]), st.text(alphabet="abc 字", min_size=1, max_size=40)),
    max_size=60,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=texts, size=st.integers(min_value=5, max_value=80), overlap=st.integers(min_value=0, max_value=4))
def test_every_non_blank_character_is_in_some_chunk_and_chunks_fit_and_move_forward(
    text: str, size: int, overlap: int
) -> None:
    spans = chunk_spans(text, estimate_tokens, size=size, overlap=overlap)

    covered = set()
    for span in spans:
        covered.update(range(span.start, span.end))
        assert span.tokens <= size or span.end - span.start == 1
    assert {i for i, ch in enumerate(text) if not ch.isspace()} <= covered
    assert [s.start for s in spans] == sorted({s.start for s in spans}), "each chunk starts after the previous one"
