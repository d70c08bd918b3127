"""Per chat: which MCP servers' tools the model may call, and which of their tools, chosen in the settings panel
and kept with the chat."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle
from pytestqt.qtbot import QtBot

from app.core.settings import ChatSettings
from app.core.tools.errors import McpConfigError
from app.core.types.tools import ToolSpec
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


TIME_TOOLS = (ToolSpec("get_current_time", "The time now.", "{}"), ToolSpec("convert_time", "Another zone's.", "{}"))


def test_a_chosen_running_servers_tools_are_listed_under_it_each_on_until_unchecked(qtbot: QtBot) -> None:
    store = SettingsStore()
    store.show_chat(ChatSettings(tool_servers=("time",)))
    widget = button(qtbot, store, ["time", "git"])
    widget.server_tools = lambda name: TIME_TOOLS if name in ("time", "git") else None
    widget.fill_menu()
    assert widget.text() == "Tools: time (2 of 2)"
    boxes = widget.tool_boxes("time")
    assert {name: box.isChecked() for name, box in boxes.items()} == {"get_current_time": True, "convert_time": True}
    assert boxes["convert_time"].toolTip() == "Another zone's."
    assert widget.tool_boxes("git") == {}  # not chosen: its tools are not offered, so not listed

    boxes["convert_time"].setChecked(False)

    assert store.chat.tools_off == (("time", "convert_time"),)
    assert widget.text() == "Tools: time (1 of 2)"
    assert widget.accessibleName() == "Tools: time (1 of 2)"


def test_a_chosen_server_not_running_says_its_tools_are_listed_once_it_runs(qtbot: QtBot) -> None:
    store = SettingsStore()
    store.show_chat(ChatSettings(tool_servers=("time",), tools_off=(("time", "convert_time"),)))
    widget = button(qtbot, store, ["time"])  # nothing runs: the window's servers list no tools
    widget.fill_menu()
    texts = [a.text() for a in widget.menu_.actions()]
    assert texts == ["time", "Not running: start it to list its tools"]
    assert not widget.menu_.actions()[1].isEnabled()
    assert widget.text() == "Tools: time (1 off)"  # what it knows without the server


def test_tools_switched_off_belong_to_the_chat_they_were_switched_off_in(qtbot: QtBot) -> None:
    store = SettingsStore()
    store.show_chat(ChatSettings(tool_servers=("time",), tools_off=(("time", "convert_time"),)))
    widget = button(qtbot, store, ["time"])
    widget.server_tools = lambda _name: TIME_TOOLS
    widget.fill_menu()
    assert not widget.tool_boxes("time")["convert_time"].isChecked()
    store.show_chat(ChatSettings(tool_servers=("time",)))
    assert widget.text() == "Tools: time (2 of 2)"
    widget.fill_menu()
    assert widget.tool_boxes("time")["convert_time"].isChecked()


def test_the_buttons_text_and_its_menu_arrow_each_have_their_room(qtbot: QtBot) -> None:
    widget = button(qtbot, SettingsStore(), ["time"])
    widget.show()
    style = widget.style()
    arrow = style.pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, None, widget)
    margins = 2 * style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, widget)
    text = widget.fontMetrics().horizontalAdvance(widget.text())
    assert widget.width() >= text + margins + arrow, "the arrow is not drawn over the text's end"
