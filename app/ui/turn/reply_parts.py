"""Streamed text of a reply kept in order by part: a batch may hold the reasoning's end and the answer's start."""

from __future__ import annotations

from collections.abc import Iterable

from app.core.types.replies import ReplyPart


def joined_runs(pieces: Iterable[tuple[ReplyPart, str]]) -> list[tuple[ReplyPart, str]]:
    """The pieces' text joined by runs of the same part, in order."""
    runs: list[tuple[ReplyPart, list[str]]] = []
    for part, text in pieces:
        if runs and runs[-1][0] is part:
            runs[-1][1].append(text)
        else:
            runs.append((part, [text]))
    return [(part, "".join(texts)) for part, texts in runs]
