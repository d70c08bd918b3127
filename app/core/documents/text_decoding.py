"""Bytes that a file's name says are text, as text, or None when they are not text at all.

Text is decoded as UTF-8 (with or without a byte-order mark), UTF-16 with a BOM, UTF-16
without one (found by its zero bytes: ASCII letters in UTF-16 have a zero byte every other
byte, on the same side), then Windows-1252, then Latin-1, which cannot fail. Because
Latin-1 takes any bytes, the decoded start of the file is then judged: text has almost no
control characters, random or compressed bytes have one in five, so anything with more
than `MAX_CONTROL_SHARE` of them is not text (it would be indexed as chunks of mojibake).
"""

from __future__ import annotations

import re

SAMPLE_BYTES = 64 * 1024  # the start of the file that is judged
MAX_CONTROL_SHARE = 0.03
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Characters text does not hold: C0 and C1 controls and DEL, less tab, line breaks, form feed,
# backspace (man pages' overstrike) and escape (colour codes in logs); and U+FFFD, what a
# byte that fits no character was decoded as.
_NOT_TEXT = re.compile("[\x00-\x07\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]")
_UTF16_ZERO_SHARE = 0.1  # of the characters in one byte column: at least this many zeros ...
_UTF16_ZERO_DOMINANCE = 4  # ... and this many times the zeros of the other column


def decode_text(data: bytes) -> str | None:
    """`data` as text, or None when it is not text (see the module docstring)."""
    text = _decode(data)
    if text is None or not _looks_like_text(text[:SAMPLE_BYTES]):
        return None
    return text


def _looks_like_text(sample: str) -> bool:
    return len(_NOT_TEXT.findall(sample)) <= MAX_CONTROL_SHARE * len(sample)


def _decode(data: bytes) -> str | None:
    if data.startswith(_UTF8_BOM):
        return data[len(_UTF8_BOM) :].decode("utf-8", errors="replace")
    if data.startswith(_UTF16_BOMS):
        return data.decode("utf-16", errors="replace")
    if b"\x00" in data[:SAMPLE_BYTES]:
        encoding = _utf16_without_bom(data[:SAMPLE_BYTES])
        return data.decode(encoding, errors="replace") if encoding else None
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _utf16_without_bom(sample: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' when the zero bytes fall on one side of the byte pairs, else None."""
    pairs = len(sample) // 2
    if not pairs:
        return None
    even, odd = sample[0 : 2 * pairs : 2].count(0), sample[1 : 2 * pairs : 2].count(0)
    if odd >= _UTF16_ZERO_SHARE * pairs and odd >= _UTF16_ZERO_DOMINANCE * even:
        return "utf-16-le"
    if even >= _UTF16_ZERO_SHARE * pairs and even >= _UTF16_ZERO_DOMINANCE * odd:
        return "utf-16-be"
    return None
