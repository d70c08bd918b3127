"""Keyboard shortcuts of the main window, the access keys of its menus, and Help → Keyboard shortcuts.

Standard keys come from Qt (`QKeySequence.StandardKey`: New, Find, Quit, Preferences …), so
they follow the platform; where a platform has none for one (Quit and Preferences on some
Linux desktops), the usual key stands in. Every shortcut is an action in a menu, so the menu
shows it, and the window holds every action too, so it works wherever the focus is. The list
in Help → Keyboard shortcuts is read from the menus when it opens: it cannot drift from them.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.chat.composer import Composer
from app.ui.chat.conversations import Conversations
from app.ui.widgets.screen_fit import resize_to_fit

StandardKey = QKeySequence.StandardKey
PANEL_KEYS = [f"Alt+{digit}" for digit in "1234567890"]  # View: the panels in menu order
ACCESS_LETTERS = string.ascii_uppercase


def key_sequences(standard: StandardKey | None, *usual: str) -> list[QKeySequence]:
    """The platform's keys for `standard`, else the usual ones (some platforms have no Quit key)."""
    keys = QKeySequence.keyBindings(standard) if standard is not None else []
    return keys or [QKeySequence(key) for key in usual]


def plain_text(action: QAction) -> str:
    """An action's text without its access-key mark."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")


def give_access_keys(menu: QMenu) -> None:
    """Give each item of `menu` (and of its submenus) a letter of its own for Alt+letter.

    A text that has a letter free gets the mark before it ("&Regenerate reply"); a text
    without one, as in Chinese, gets it after ("重新生成回复(&R)"), as Chinese programs write it.
    Items that already have one keep it.
    """
    actions = [a for a in menu.actions() if not a.isSeparator() and a.text()]
    taken = {_access_letter(a.text()) for a in actions} - {None}
    for action in actions:
        if action.menu() is not None:
            give_access_keys(action.menu())  # type: ignore[arg-type]
    needing = [a for a in actions if _access_letter(a.text()) is None]
    # the items with the fewest letters choose first, so a short word ("Logs") is not left with none of its own
    for action in sorted(needing, key=lambda a: len({c.upper() for c in a.text()} & set(ACCESS_LETTERS))):
        text = action.text()
        position = next((i for i, c in enumerate(text) if c.upper() in ACCESS_LETTERS and c.upper() not in taken), -1)
        if position >= 0:
            taken.add(text[position].upper())
            action.setText(text[:position] + "&" + text[position:])
            continue
        letter = next((c for c in ACCESS_LETTERS if c not in taken), None)
        if letter is not None:
            taken.add(letter)
            action.setText(f"{text}(&{letter})")


def _access_letter(text: str) -> str | None:
    index = text.replace("&&", "").find("&")
    cleaned = text.replace("&&", "")
    return cleaned[index + 1].upper() if 0 <= index < len(cleaned) - 1 else None


@dataclass(frozen=True)
class ShellParts:
    """What the shortcuts act on, handed over by the main window."""

    chats: Conversations
    composer: Composer
    new_chat_action: QAction
    stop_reply: Callable[[], None]
    chat_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu


class WindowShortcuts(QObject):
    """The window's own shortcuts beside the features' (Regenerate Ctrl+R, Token probabilities …)."""

    def __init__(self, window: QMainWindow, parts: ShellParts) -> None:
        super().__init__(window)
        self.window = window
        self.parts = parts
        chats = parts.chats
        parts.new_chat_action.setShortcuts(key_sequences(StandardKey.New, "Ctrl+N"))
        parts.new_chat_action.triggered.connect(self.focus_composer)  # so the next typed text is not lost
        chats.sidebar.newChatRequested.connect(self.focus_composer)
        self.find_action = self._action(self.tr("Find in chats"), self.find_in_chats, StandardKey.Find, "Ctrl+F")
        self.next_chat_action = self._action(self.tr("Next chat"), lambda: chats.sidebar.step(1), None, "Ctrl+PgDown")
        self.previous_chat_action = self._action(
            self.tr("Previous chat"), lambda: chats.sidebar.step(-1), None, "Ctrl+PgUp"
        )
        self.focus_action = self._action(self.tr("Focus the message box"), self.focus_composer, None, "Ctrl+L")
        self.stop_action = self._action(self.tr("Stop the reply"), parts.stop_reply, None, "Esc")
        self.copy_reply_action = self._action(
            self.tr("Copy the last reply"), self.copy_last_reply, None, "Ctrl+Shift+C"
        )
        self.settings_action = self._action(
            self.tr("Chat settings"), self.open_settings, StandardKey.Preferences, "Ctrl+,"
        )
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.quit_action = self._action(self.tr("Quit"), window.close, StandardKey.Quit, "Ctrl+Q")
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.shortcuts_action = self._action(
            self.tr("Keyboard shortcuts"), self.show_shortcuts, StandardKey.HelpContents, "F1"
        )
        self._fill_menus()
        for action, key in zip(self.panel_actions(), PANEL_KEYS, strict=False):
            action.setShortcut(QKeySequence(key))
        for dock in window.findChildren(QDockWidget):  # a panel shown (Alt+digit, View) comes to the front of its tabs
            dock.toggleViewAction().triggered.connect(lambda shown, dock=dock: dock.raise_() if shown else None)
        for menu in self.menus():
            give_access_keys(menu)
            menu.aboutToShow.connect(lambda menu=menu: give_access_keys(menu))  # items added later get one too
        for action in self.shortcut_actions():  # wherever the focus is, even with the menu bar hidden
            if action not in window.actions():
                window.addAction(action)

    def _action(self, text: str, run: object, standard: StandardKey | None, *usual: str) -> QAction:
        action = QAction(text, self.window)
        action.setShortcuts(key_sequences(standard, *usual))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(run)
        return action

    def _fill_menus(self) -> None:
        chat = self.parts.chat_menu
        first = chat.actions()[1] if len(chat.actions()) > 1 else None  # right after New chat
        for action in (self.find_action, self.next_chat_action, self.previous_chat_action):
            chat.insertAction(first, action)  # type: ignore[arg-type]
        chat.insertSeparator(first)  # type: ignore[arg-type]
        chat.addSeparator()
        for action in (self.focus_action, self.stop_action, self.copy_reply_action):
            chat.addAction(action)
        chat.addSeparator()
        chat.addAction(self.settings_action)
        chat.addSeparator()
        chat.addAction(self.quit_action)
        help_menu = self.parts.help_menu
        help_menu.insertAction(help_menu.actions()[0] if help_menu.actions() else None, self.shortcuts_action)  # type: ignore[arg-type]

    # ---- what the keys do ------------------------------------------------------------

    def focus_composer(self) -> None:
        self.parts.composer.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def find_in_chats(self) -> None:
        chats = self.parts.chats
        self._show_dock(chats.sidebar_dock)
        chats.sidebar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        chats.sidebar.search.selectAll()

    def open_settings(self) -> None:
        dock = self.parts.chats.settings_dock
        self._show_dock(dock)
        first = next(
            (
                w
                for w in dock.widget().findChildren(QWidget)
                if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisible()
            ),
            None,
        )
        if first is not None:
            first.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def copy_last_reply(self) -> None:
        replies = [m.content for m in self.parts.chats.session.conversation() if m.role == "assistant"]
        bar = self.window.statusBar()
        if not replies:
            bar.showMessage(self.tr("No reply to copy yet"), 4000)
            return
        QGuiApplication.clipboard().setText(replies[-1])
        bar.showMessage(self.tr("The last reply is on the clipboard"), 4000)

    def show_shortcuts(self) -> None:
        ShortcutsDialog(self.menus(), self.window).exec()

    def _show_dock(self, dock: QDockWidget) -> None:
        dock.show()
        dock.raise_()

    # ---- what there is -------------------------------------------------------------

    def menus(self) -> list[QMenu]:
        return [a.menu() for a in self.window.menuBar().actions() if isinstance(a.menu(), QMenu)]  # type: ignore[misc]

    def panel_actions(self) -> list[QAction]:
        """View's show/hide actions of the panels, in menu order."""
        toggles = {dock.toggleViewAction() for dock in self.window.findChildren(QDockWidget)}
        return [a for a in self.parts.view_menu.actions() if a in toggles]

    def shortcut_actions(self) -> list[QAction]:
        return [action for _menu, action in menu_actions(self.menus()) if not action.shortcut().isEmpty()]


def typed_keys(action: QAction) -> list[str]:
    """The keys of `action` a keyboard has, as the shortcuts list shows them ("Ctrl+N"). The platform's
    standard keys also name keys of multimedia keyboards ("New", "Find"): they are left out, as they
    read like words ("Ctrl+N, New") and most keyboards lack them."""
    keys = [k for k in action.shortcuts() if not k.isEmpty() and k[0].key().value < Qt.Key.Key_Back.value]  # type: ignore[index]
    return [k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys]


def menu_actions(menus: list[QMenu]) -> list[tuple[str, QAction]]:
    """(menu title, action) of every item in `menus` and their submenus, in order."""
    found: list[tuple[str, QAction]] = []
    for menu in menus:
        title = menu.title().replace("&", "")
        for action in menu.actions():
            submenu = action.menu()
            if isinstance(submenu, QMenu):
                found += menu_actions([submenu])
            elif not action.isSeparator() and action.text():
                found.append((title, action))
    return found


class ShortcutsDialog(QDialog):
    """Every menu item that has a shortcut, read from the menus: menu, what it does, the keys."""

    def __init__(self, menus: list[QMenu], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        resize_to_fit(self, 560, 520)
        rows = [(title, a) for title, a in menu_actions(menus) if typed_keys(a)]
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setAccessibleName(self.tr("Keyboard shortcuts"))
        self.table.setHorizontalHeaderLabels([self.tr("Menu"), self.tr("Action"), self.tr("Keys")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        for row, (title, action) in enumerate(rows):
            keys = self.tr(" or ").join(typed_keys(action))  # the other keys that do the same
            for column, text in enumerate((title, plain_text(action), keys)):
                self.table.setItem(row, column, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)

    def entries(self) -> list[tuple[str, str, str]]:
        """(menu, action, keys) of each row, as shown."""
        return [(self._cell(row, 0), self._cell(row, 1), self._cell(row, 2)) for row in range(self.table.rowCount())]

    def _cell(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text() if item is not None else ""
