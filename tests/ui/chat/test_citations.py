"""The sources under a reply, read from what the chat history keeps with it."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.ui.chat.citations import CitationsBar, recalled_ids, retrieved_sources

STATS: dict[str, Any] = {
    "retrieval": {
        "chunks": [
            {
                "number": 1,
                "uri": "/docs/guide.pdf",
                "label": "guide.pdf, page 4",
                "page": 4,
                "line": None,
                "why": "both",
            },
            {
                "number": 2,
                "uri": "/docs/notes.md",
                "label": "notes.md, lines 3–9",
                "page": None,
                "line": 3,
                "why": "keyword",
            },
        ],
        "memories": [{"uri": "m-1"}, {"uri": "m-1"}, {"uri": "m-2"}],
    }
}


def test_each_source_is_a_button_with_its_place_and_the_cited_ones_are_bold(qtbot: QtBot) -> None:
    bar = CitationsBar(retrieved_sources(STATS), "The lamp is lit at dusk [2].")
    qtbot.addWidget(bar)
    assert [b.text() for b in bar.buttons] == ["[1] guide.pdf, page 4", "[2] notes.md, lines 3–9"]
    assert "page 4" in bar.buttons[0].toolTip() and "both" in bar.buttons[0].toolTip()
    assert "line 3" in bar.buttons[1].toolTip() and "cites it" in bar.buttons[1].toolTip()
    assert [b.font().bold() for b in bar.buttons] == [False, True]


def test_recalled_turns_are_named_once_each() -> None:
    assert recalled_ids(STATS) == ["m-1", "m-2"]


@pytest.mark.parametrize(
    "stats", [None, {}, {"retrieval": None}, {"retrieval": {"chunks": "x"}}, {"retrieval": {"chunks": [1, {"a": 1}]}}]
)
def test_a_reply_saved_without_sources_or_with_damaged_ones_shows_none(stats: dict[str, Any] | None) -> None:
    assert retrieved_sources(stats) == []
    assert recalled_ids(stats) == []
