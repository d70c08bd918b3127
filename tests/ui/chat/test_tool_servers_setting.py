"""Per chat: which MCP servers' tools the model may call, chosen in the settings panel and kept with the chat."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle
from pytestqt.qtbot import QtBot

from app.core.settings import ChatSettings
from app.core.tools.errors import McpConfigError
from app.ui.chat.tool_servers import ToolServersButton
from app.ui.settings.store import SettingsStore


def button(qtbot: QtBot, store: SettingsStore, names: list[str]) -> ToolServersButton:
    widget = ToolServersButton(store, names=lambda: names)
    qtbot.addWidget(widget)
    return widget


def test_a_chat_offers_no_tools_until_servers_are_chosen(qtbot: QtBot) -> None:
    store = SettingsStore()
    widget = button(qtbot, store, ["time", "git"])
    assert widget.text() == "Tools: none"
    widget.fill_menu()
    assert [a.text() for a in widget.menu_.actions()] == ["time", "git"]
    assert not any(a.isChecked() for a in widget.menu_.actions())


def test_checking_servers_edits_the_chats_own_settings(qtbot: QtBot) -> None:
    store = SettingsStore()
    edited: list[ChatSettings] = []
    store.chatEdited.connect(edited.append)
    widget = button(qtbot, store, ["time", "git"])
    widget.fill_menu()
    widget.menu_.actions()[0].setChecked(True)
    widget.menu_.actions()[1].setChecked(True)
    assert store.chat.tool_servers == ("time", "git")
    assert edited[-1].tool_servers == ("time", "git")
    assert widget.text() == "Tools: time, git"
    widget.menu_.actions()[0].setChecked(False)
    assert store.chat.tool_servers == ("git",)


def test_the_choice_follows_the_chat_on_show(qtbot: QtBot) -> None:
    store = SettingsStore()
    widget = button(qtbot, store, ["time"])
    store.show_chat(ChatSettings(tool_servers=("time",)))
    assert widget.text() == "Tools: time"
    store.show_chat(ChatSettings())
    assert widget.text() == "Tools: none"


def test_a_server_no_longer_configured_stays_listed_to_be_unchecked(qtbot: QtBot) -> None:
    store = SettingsStore()
    store.show_chat(ChatSettings(tool_servers=("gone",)))
    widget = button(qtbot, store, ["time"])
    widget.fill_menu()
    actions = {a.text(): a.isChecked() for a in widget.menu_.actions()}
    assert actions == {"time": False, "gone": True}


def test_an_unreadable_mcp_json_is_said_in_the_menu(qtbot: QtBot) -> None:
    def broken() -> list[str]:
        raise McpConfigError("mcp.json has no “mcpServers” object.")

    store = SettingsStore()
    widget = ToolServersButton(store, names=broken)
    qtbot.addWidget(widget)
    widget.fill_menu()
    first = widget.menu_.actions()[0]
    assert "mcpServers" in first.text() and not first.isEnabled()


def test_the_choice_is_saved_with_the_chat_and_read_back() -> None:
    chat = ChatSettings(tool_servers=("time", "git"))
    assert chat.to_dict()["tool_servers"] == ["time", "git"]
    assert ChatSettings.from_dict(chat.to_dict()) == chat
    assert "tool_servers" not in ChatSettings().to_dict()
    assert ChatSettings.from_dict({"tool_servers": "time"}).tool_servers == ()
    assert ChatSettings.from_dict({"tool_servers": ["time", 3, "", "time"]}).tool_servers == ("time",)


def test_the_buttons_text_and_its_menu_arrow_each_have_their_room(qtbot: QtBot) -> None:
    widget = button(qtbot, SettingsStore(), ["time"])
    widget.show()
    style = widget.style()
    arrow = style.pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, widget)
    margins = 2 * style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, widget)
    text = widget.fontMetrics().horizontalAdvance(widget.text())
    assert widget.width() >= text + margins + arrow, "the arrow is not drawn over the text's end"
