"""The chat list: shows chats, searches as you type, opens, renames, exports and deletes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.chat.store import Chat, SearchHit
from app.ui.chat.sidebar import ChatSidebar


def hit(chat_id: str, title: str, snippet: str = "") -> SearchHit:
    return SearchHit(Chat(chat_id, title, 1.0, 1_700_000_000.0), snippet, 1 if snippet else 0)


@pytest.fixture
def sidebar(qtbot: QtBot) -> ChatSidebar:
    widget = ChatSidebar()
    qtbot.addWidget(widget)
    widget.set_chats([hit("a", "Lisbon trip"), hit("b", "Code help")])
    return widget


def test_chats_are_listed_in_the_order_given_and_clicking_opens_one(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    assert [sidebar.list.item(i).text() for i in range(sidebar.list.count())] == ["Lisbon trip", "Code help"]
    with qtbot.waitSignal(sidebar.chatActivated) as opened:
        rect = sidebar.list.visualItemRect(sidebar.list.item(1))
        qtbot.mouseClick(sidebar.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == ["b"]


def test_the_current_chat_stays_selected_when_the_list_changes(sidebar: ChatSidebar) -> None:
    sidebar.set_current("b")
    sidebar.set_chats([hit("c", "New one"), hit("a", "Lisbon trip"), hit("b", "Code help")])
    assert sidebar.list.currentItem().text() == "Code help"


def test_typing_in_the_search_asks_once_after_a_pause(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    asked: list[str] = []
    sidebar.searchChanged.connect(asked.append)
    with qtbot.waitSignal(sidebar.searchChanged, timeout=2000):
        qtbot.keyClicks(sidebar.search, "nata")
    assert asked == ["nata"]


def test_search_results_show_where_the_text_was_found_or_say_nothing_matched(sidebar: ChatSidebar) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip", "…eat pastéis de nata?")])
    assert sidebar.list.item(0).text() == "Lisbon trip\n  …eat pastéis de nata?"
    sidebar.search.setText("zebra")
    sidebar.set_chats([])
    assert sidebar.list.item(0).text() == "No chat contains this text"
    assert sidebar.chat_ids() == []


def test_renaming_in_place_asks_for_the_new_title(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    with qtbot.waitSignal(sidebar.renameRequested) as renamed:
        sidebar.list.item(0).setText("  Porto   trip ")
    assert renamed.args == ["a", "Porto trip"]
    with qtbot.assertNotEmitted(sidebar.renameRequested):
        sidebar.list.item(1).setText("   ")
    assert sidebar.list.item(1).text() == "Code help", "an empty title is put back"


def test_delete_asks_first(sidebar: ChatSidebar, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sidebar, "confirm_delete", lambda title: False)
    with qtbot.assertNotEmitted(sidebar.deleteRequested):
        sidebar.delete("a")
    monkeypatch.setattr(sidebar, "confirm_delete", lambda title: title == "Lisbon trip")
    with qtbot.waitSignal(sidebar.deleteRequested) as deleted:
        sidebar.delete("a")
    assert deleted.args == ["a"]


def test_export_asks_where_and_passes_the_format(
    sidebar: ChatSidebar, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sidebar, "ask_export_path", lambda title, kind: f"/tmp/{title}.{kind}")
    with qtbot.waitSignal(sidebar.exportRequested) as exported:
        sidebar.export("b", "json")
    assert exported.args == ["b", "json", "/tmp/Code help.json"]
    monkeypatch.setattr(sidebar, "ask_export_path", lambda title, kind: "")
    with qtbot.assertNotEmitted(sidebar.exportRequested):
        sidebar.export("b", "markdown")


def test_the_new_button_asks_for_a_new_chat(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    with qtbot.waitSignal(sidebar.newChatRequested):
        qtbot.mouseClick(sidebar.new_button, Qt.MouseButton.LeftButton)


def test_a_search_snippet_with_html_shows_as_text_in_the_tooltip(sidebar: ChatSidebar) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip", '<img src="/dev/zero"> and <b>bold</b>')])
    tip = sidebar.list.item(0).toolTip()
    assert "<img" not in tip and "<b>" not in tip
    assert "&lt;img src=&quot;/dev/zero&quot;&gt; and &lt;b&gt;bold&lt;/b&gt;" in tip


def test_the_chat_whose_reply_is_written_is_marked_and_that_is_no_rename(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip"), hit("b", "Porto")])
    with qtbot.assertNotEmitted(sidebar.renameRequested):
        sidebar.set_writing("b")
    marked = sidebar.list.item(1)
    assert marked.font().italic() and not marked.icon().isNull()
    assert not sidebar.list.item(0).font().italic()
    sidebar.set_chats([hit("b", "Porto"), hit("a", "Lisbon trip")])  # listed again: still marked
    assert sidebar.list.item(0).font().italic()
    sidebar.set_writing(None)
    assert not sidebar.list.item(0).font().italic() and sidebar.list.item(0).icon().isNull()
