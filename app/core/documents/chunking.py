"""Cut a document into chunks of a few hundred tokens that overlap a little.

A chunk ends at the strongest boundary in the second half of its room: the end of a
paragraph, else of a sentence, else of a line, else between words (and only inside a word
that alone is longer than a chunk: a minified file, a run of Chinese without punctuation).
The next chunk starts with the last sentences of the previous one (up to `overlap` tokens),
so a passage cut in two is still found whole in one of them.

Tokens are counted with the counter given (a model's tokenizer) or estimated
(`tokens.estimate_tokens`); each unit between boundaries is counted once, and a chunk's
size is the sum of its units.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from app.core.documents.document import Document, Place
from app.core.documents.tokens import TextTokenCounter, estimate_tokens

DEFAULT_CHUNK_TOKENS = 320
DEFAULT_OVERLAP_TOKENS = 48

_PARAGRAPH_BREAK = re.compile(r"\n[ \t\f\v]*\n\s*")
_INNER_BREAK = re.compile(r"[.!?…]+[\"'”’)\]]*\s+|[。！？；]+[”’」』）)]*\s*|\n")
_WORD = re.compile(r"\S+")

_WORD_BOUNDARY, _LINE, _SENTENCE, _PARAGRAPH = range(4)


@dataclass(frozen=True)
class Span:
    """A chunk as offsets into the text it was cut from."""

    start: int
    end: int
    tokens: int


@dataclass(frozen=True)
class Chunk:
    ordinal: int  # position in the document, from 0
    text: str
    start: int
    end: int
    tokens: int
    place: Place


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    tokens: int
    strength: int  # of the boundary at the unit's end


def chunk_document(
    document: Document,
    counter: TextTokenCounter = estimate_tokens,
    size: int = DEFAULT_CHUNK_TOKENS,
    overlap: int = DEFAULT_OVERLAP_TOKENS,
) -> list[Chunk]:
    """The document's chunks with their pages and lines."""
    chunks = []
    for ordinal, span in enumerate(chunk_spans(document.text, counter, size, overlap)):
        chunks.append(
            Chunk(
                ordinal,
                document.text[span.start : span.end],
                span.start,
                span.end,
                span.tokens,
                document.place(span.start, span.end),
            )
        )
    return chunks


def chunk_spans(
    text: str,
    counter: TextTokenCounter = estimate_tokens,
    size: int = DEFAULT_CHUNK_TOKENS,
    overlap: int = DEFAULT_OVERLAP_TOKENS,
) -> list[Span]:
    """Where to cut `text`: spans of at most about `size` tokens, each overlapping the previous one."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"a chunk needs size >= 1 and 0 <= overlap < size (got size {size}, overlap {overlap})")
    units = list(_units(text, counter, size))
    if not units:
        return []
    sums = [0]
    for unit in units:
        sums.append(sums[-1] + unit.tokens)
    spans: list[Span] = []
    first = 0
    while first < len(units):
        last = bisect.bisect_right(sums, sums[first] + size) - 1  # units[first:last] fit
        last = max(last, first + 1)
        if last < len(units):
            last = _best_cut(units, sums, first, last, size)
        spans.append(Span(units[first].start, units[last - 1].end, sums[last] - sums[first]))
        if last >= len(units):
            break
        following = last
        while following - 1 > first and sums[last] - sums[following - 1] <= overlap:
            following -= 1
        first = following
    return spans


def _best_cut(units: list[_Unit], sums: list[int], first: int, last: int, size: int) -> int:
    """The end (exclusive unit index) at the strongest boundary in the second half of the room, the latest of those."""
    floor = sums[first] + size // 2
    best, best_strength = last, -1
    for end in range(last, first, -1):
        if sums[end] < floor:
            break
        strength = units[end - 1].strength
        if strength > best_strength:
            best, best_strength = end, strength
            if strength == _PARAGRAPH:
                break
    return best


def _units(text: str, counter: TextTokenCounter, size: int) -> Iterator[_Unit]:
    """Sentences and lines, each with the strength of the boundary after it; over-long ones cut smaller."""
    for start, end in _paragraphs(text):
        pieces = list(_inner_pieces(text, start, end))
        for index, (piece_start, piece_end, strength) in enumerate(pieces):
            if index == len(pieces) - 1:
                strength = _PARAGRAPH
            tokens = counter(text[piece_start:piece_end])
            if tokens <= size:
                yield _Unit(piece_start, piece_end, tokens, strength)
            else:
                yield from _split_long(text, piece_start, piece_end, counter, size, strength)


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        yield from _trimmed(text, start, match.start())
        start = match.end()
    yield from _trimmed(text, start, len(text))


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        yield start, end


def _inner_pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int, int]]:
    position = start
    for match in _INNER_BREAK.finditer(text, start, end):
        strength = _LINE if match.group() == "\n" else _SENTENCE
        for piece in _trimmed(text, position, match.end()):
            yield (*piece, strength)
        position = match.end()
    for piece in _trimmed(text, position, end):
        yield (*piece, _LINE)


def _split_long(
    text: str, start: int, end: int, counter: TextTokenCounter, size: int, strength: int
) -> Iterator[_Unit]:
    """A piece longer than a chunk, cut between words (inside a word only when it alone is too long)."""
    pieces: list[tuple[int, int, int]] = []
    for match in _WORD.finditer(text, start, end):
        word_tokens = counter(match.group())
        if word_tokens <= size:
            pieces.append((match.start(), match.end(), word_tokens))
            continue
        step = max(1, (match.end() - match.start()) * size // (word_tokens + 1))
        at = match.start()
        while at < match.end():
            stop = min(at + step, match.end())
            tokens = counter(text[at:stop])
            while tokens > size and stop - at > 1:  # the estimate is not linear in length: shrink until it fits
                stop = at + (stop - at) * 3 // 4
                tokens = counter(text[at:stop])
            pieces.append((at, stop, tokens))
            at = stop
    group_start, group_tokens, previous_end = start, 0, start
    for piece_start, piece_end, tokens in pieces:
        if group_tokens and group_tokens + tokens > size:
            yield _Unit(group_start, previous_end, group_tokens, _WORD_BOUNDARY)
            group_start, group_tokens = piece_start, 0
        group_tokens += tokens
        previous_end = piece_end
    yield _Unit(group_start, previous_end, group_tokens, strength)
