"""The chat list: shows chats in date groups, searches as you type, opens, pins, renames, exports and deletes."""

from __future__ import annotations

import time
from datetime import date, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidgetItem, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from app.core.chat.store import Chat, SearchHit, new_chat
from app.ui.chat.chat_list_items import DETAIL, GROUP, date_group, detail_document, detail_html
from app.ui.chat.sidebar import CHAT_ID, ChatSidebar

NOVEMBER_2023 = 1_700_000_000.0


def hit(chat_id: str, title: str, snippet: str = "", updated: float = NOVEMBER_2023, model: str = "") -> SearchHit:
    return SearchHit(Chat(chat_id, title, 1.0, updated), snippet, 1 if snippet else 0, model)


def chat_items(sidebar: ChatSidebar) -> list[QListWidgetItem]:
    items = (sidebar.list.item(row) for row in range(sidebar.list.count()))
    return [item for item in items if item.data(CHAT_ID)]


def groups(sidebar: ChatSidebar) -> list[str]:
    items = (sidebar.list.item(row) for row in range(sidebar.list.count()))
    return [str(item.data(GROUP)) for item in items if item.data(GROUP)]


@pytest.fixture
def sidebar(qtbot: QtBot) -> ChatSidebar:
    widget = ChatSidebar()
    qtbot.addWidget(widget)
    widget.set_chats([hit("a", "Lisbon trip"), hit("b", "Code help")])
    return widget


def test_chats_are_listed_in_the_order_given_and_clicking_opens_one(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    assert [item.text() for item in chat_items(sidebar)] == ["Lisbon trip", "Code help"]
    with qtbot.waitSignal(sidebar.chatActivated) as opened:
        rect = sidebar.list.visualItemRect(chat_items(sidebar)[1])
        qtbot.mouseClick(sidebar.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == ["b"]


def test_chats_are_grouped_by_when_they_were_last_used_pinned_first(sidebar: ChatSidebar) -> None:
    now = time.time()
    sidebar.set_chats(
        [
            SearchHit(Chat("p", "Pinned plan", 1.0, NOVEMBER_2023, pinned=True), "", 0),
            hit("t", "Today's", updated=now),
            hit("y", "Yesterday's", updated=now - 86_400),
            hit("w", "This week's", updated=now - 4 * 86_400),
            hit("m", "This month's", updated=now - 20 * 86_400),
            hit("o", "Old", updated=NOVEMBER_2023),
        ]
    )
    assert groups(sidebar) == ["Pinned", "Today", "Yesterday", "Previous 7 days", "Previous 30 days", "November 2023"]
    assert [item.data(CHAT_ID) for item in chat_items(sidebar)] == ["p", "t", "y", "w", "m", "o"]
    header = next(sidebar.list.item(row) for row in range(sidebar.list.count()) if sidebar.list.item(row).data(GROUP))
    assert not header.flags() & Qt.ItemFlag.ItemIsSelectable


def test_the_date_groups_follow_the_calendar() -> None:
    today = date(2026, 12, 1)
    at = lambda day: datetime.combine(day, datetime.min.time()).timestamp() + 3600  # noqa: E731
    assert date_group(at(today), False, today) == "Today"
    assert date_group(at(today - timedelta(days=1)), False, today) == "Yesterday"
    assert date_group(at(today - timedelta(days=6)), False, today) == "Previous 7 days"
    assert date_group(at(today - timedelta(days=7)), False, today) == "Previous 30 days"
    assert date_group(at(today - timedelta(days=30)), False, today) == "November 2026"
    assert date_group(at(today - timedelta(days=31)), False, today) == "October 2026"
    assert date_group(at(today), True, today) == "Pinned"


def test_each_chat_names_its_model_and_a_search_hit_shows_where_the_text_was_found(sidebar: ChatSidebar) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip", model="SmolLM2-135M-Instruct")])
    assert chat_items(sidebar)[0].data(DETAIL) == "SmolLM2-135M-Instruct"
    sidebar.search.setText("nata")
    sidebar.set_chats([hit("a", "Lisbon trip", "…eat pastéis de nata?", model="SmolLM2")])
    [item] = chat_items(sidebar)
    assert item.text() == "Lisbon trip" and item.data(DETAIL) == "…eat pastéis de nata?"
    assert detail_html("…eat pastéis de Nata & more", "nata") == "…eat pastéis de <b>Nata</b> &amp; more"
    sidebar.search.setText("zebra")
    sidebar.set_chats([])
    assert sidebar.list.item(0).text() == "No chat contains this text"
    assert sidebar.chat_ids() == []


def test_a_new_chat_is_listed_at_once_before_its_first_message(sidebar: ChatSidebar) -> None:
    fresh = new_chat()
    sidebar.set_current(fresh.id)
    sidebar.set_chats([hit("a", "Lisbon trip")], unsaved=fresh)
    assert [item.data(CHAT_ID) for item in chat_items(sidebar)] == [fresh.id, "a"]
    assert sidebar.list.currentItem().data(CHAT_ID) == fresh.id


def test_pin_and_unpin_are_asked_from_the_menu(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    with qtbot.waitSignal(sidebar.pinRequested) as pinned:
        sidebar.pinRequested.emit("a", True)  # what the menu's Pin does
    assert pinned.args == ["a", True]


def test_the_current_chat_stays_selected_when_the_list_changes(sidebar: ChatSidebar) -> None:
    sidebar.set_current("b")
    sidebar.set_chats([hit("c", "New one"), hit("a", "Lisbon trip"), hit("b", "Code help")])
    assert sidebar.list.currentItem().text() == "Code help"


def test_typing_in_the_search_asks_once_after_a_pause(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    asked: list[tuple[str, bool]] = []
    sidebar.searchChanged.connect(lambda text, reasoning: asked.append((text, reasoning)))
    with qtbot.waitSignal(sidebar.searchChanged, timeout=2000):
        qtbot.keyClicks(sidebar.search, "nata")
    assert asked == [("nata", False)]


def test_the_search_looks_in_reasoning_only_when_asked(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    assert sidebar.search_reasoning.isHidden(), "nothing to search for yet"
    with qtbot.waitSignal(sidebar.searchChanged, timeout=2000):
        qtbot.keyClicks(sidebar.search, "nata")
    assert not sidebar.search_reasoning.isHidden()
    with qtbot.waitSignal(sidebar.searchChanged, timeout=2000) as asked:
        sidebar.search_reasoning.setChecked(True)
    assert asked.args == ["nata", True]


def test_renaming_in_place_asks_for_the_new_title(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    first, second = chat_items(sidebar)
    with qtbot.waitSignal(sidebar.renameRequested) as renamed:
        first.setText("  Porto   trip ")
    assert renamed.args == ["a", "Porto trip"]
    with qtbot.assertNotEmitted(sidebar.renameRequested):
        second.setText("   ")
    assert second.text() == "Code help", "an empty title is put back"


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
    assert sidebar.new_button.text() == "New chat"
    with qtbot.waitSignal(sidebar.newChatRequested):
        qtbot.mouseClick(sidebar.new_button, Qt.MouseButton.LeftButton)


def test_a_search_snippet_with_html_shows_as_text_in_the_tooltip(sidebar: ChatSidebar) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip", '<img src="/dev/zero"> and <b>bold</b>')])
    tip = chat_items(sidebar)[0].toolTip()
    assert "<img" not in tip and "<b>" not in tip
    assert "&lt;img src=&quot;/dev/zero&quot;&gt; and &lt;b&gt;bold&lt;/b&gt;" in tip


def test_the_chat_whose_reply_is_written_is_marked_and_that_is_no_rename(sidebar: ChatSidebar, qtbot: QtBot) -> None:
    sidebar.set_chats([hit("a", "Lisbon trip"), hit("b", "Porto")])
    with qtbot.assertNotEmitted(sidebar.renameRequested):
        sidebar.set_writing("b")
    first, marked = chat_items(sidebar)
    assert marked.font().italic() and not marked.icon().isNull()
    assert not first.font().italic()
    sidebar.set_chats([hit("b", "Porto"), hit("a", "Lisbon trip")])  # listed again: still marked
    assert chat_items(sidebar)[0].font().italic()
    sidebar.set_writing(None)
    assert not chat_items(sidebar)[0].font().italic() and chat_items(sidebar)[0].icon().isNull()


def test_a_second_line_longer_than_the_list_ends_in_an_ellipsis_and_the_entry_holds_both_lines(
    qtbot: QtBot,
) -> None:
    widget = ChatSidebar()
    qtbot.addWidget(widget)
    widget.resize(170, 400)
    widget.show()
    model = "SmolLM2-135M-Instruct.Q4_1 · 简体中文的模型名字"
    widget.set_chats([hit("a", "Lisbon trip", model=model)])
    [item] = chat_items(widget)
    index = widget.list.indexFromItem(item)
    option = QStyleOptionViewItem()
    option.initFrom(widget.list)
    delegate = widget.list.itemDelegate()
    second = detail_document(str(item.data(DETAIL)), "", option, False, 120.0)
    assert second.toPlainText().endswith("…") and len(second.toPlainText()) < len(model)
    height = delegate.sizeHint(option, index).height()
    assert height >= option.fontMetrics.height() + second.size().height(), "the second line is not cut at its foot"
