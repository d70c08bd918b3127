"""The window's panels in docks that View toggles: a narrow chat list on the left, two tabbed groups on the right.

The conversation comes first. A first start shows the chat, the chat list and the panels
that set up the chat (Chat settings, GPU offload, tabbed); the glass box's panels are a
click away in View. The chat keeps at least MIN_CHAT_WIDTH: where the window is too narrow
for the panels open (a small screen, or a layout saved on a bigger one), panels close, the
glass box's first, until it has that room. View → Reset layout puts the first start's back.

Panels the window closed so (not the user) come back, the last closed first, as soon as the window is
made wide enough to hold them beside the chat's room, at this run or the next (the window's memory
keeps them): they were open because the user wanted them. A panel the user opens or closes meanwhile
is the user's again.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QTabBar, QTabWidget, QWidget

from app.ui.shell.window_memory import WindowMemory, fit_to_screen, restore
from app.ui.widgets.panel_scroller import PanelScroller
from app.ui.widgets.screen_fit import resize_to_fit

LEFT_DOCK_WIDTH = 240
RIGHT_DOCK_WIDTH = 460
MIN_CHAT_WIDTH = 320  # a readable line of the conversation (some 40 characters), beside the panels
# the right-hand panels that set up the chat and the model (the glass box's panels are tabbed below them)
SETUP_PANELS = frozenset({"ChatSettingsDock", "GpuOffloadDock", "DocumentsDock", "ServerDock"})
FIRST_PANELS = frozenset({"ChatsDock", "ChatSettingsDock", "GpuOffloadDock"})  # open at the first start

RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
LEFT = Qt.DockWidgetArea.LeftDockWidgetArea


class Docks:
    """Puts panels in the window's docks, lists each under View, and arranges them at start."""

    def __init__(self, window: QMainWindow, view_menu: QMenu) -> None:
        self.window = window
        self.view_menu = view_menu
        self._first_size = window.size()
        self.closed_for_room: list[str] = []  # panels closed to give the chat room, in the order closed
        self._making_room = False  # the docks shown or hidden now are this class's doing, not the user's
        window.installEventFilter(_Widening(self, window))

    def add(self, title: str, name: str, panel: QWidget, area: Qt.DockWidgetArea = RIGHT) -> QDockWidget:
        """Put a panel in a dock that View toggles.

        On the right, the panels that set up the chat and the model share one tabbed group and
        the glass box's panels another below it, so every tab's name fits. A panel scrolls
        when its dock is shorter than it, so none makes the window taller than a small screen.
        """
        window = self.window
        dock = QDockWidget(title, window)
        dock.setObjectName(name)
        dock.setWidget(PanelScroller(panel, dock))
        window.addDockWidget(area, dock)
        if area == RIGHT:
            column = [d for d in self._docks_in(RIGHT) if d is not dock]
            group = name in SETUP_PANELS
            peers = [d for d in column if (d.objectName() in SETUP_PANELS) == group]
            others = [d for d in column if (d.objectName() in SETUP_PANELS) != group]
            if peers:
                window.tabifyDockWidget(peers[-1], dock)
            elif others:
                window.splitDockWidget(others[0], dock, Qt.Orientation.Vertical)
        self.view_menu.addAction(dock.toggleViewAction())
        dock.toggleViewAction().toggled.connect(lambda _on: self._user_toggled(name))
        dock.visibilityChanged.connect(lambda _visible: QTimer.singleShot(0, window, self._tidy_tab_bars))
        return dock

    def _tidy_tab_bars(self) -> None:
        """The tab bars Qt makes for tabbed docks (they appear as docks are shown): whole panel names, scrolled
        rather than cut short; named for screen readers; out of the Tab key's way, as a click or Alt+digit (View)
        brings a panel to the front."""
        for tabs in self.window.findChildren(QTabBar):
            tabs.setElideMode(Qt.TextElideMode.ElideNone)
            tabs.setUsesScrollButtons(True)
            tabs.setAccessibleName(QCoreApplication.translate("Docks", "Panels"))
            tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def restore(self, memory: WindowMemory, first_size: QSize) -> None:
        """The layout of the last run, or the first start's (`first_size` fitted to the screen); either way the
        chat gets its room on the screen the window opens on."""
        self._first_size = first_size
        central = self.window.centralWidget()
        if central is not None:  # the docks give way to it; give_chat_room closes them when they cannot
            central.setMinimumWidth(MIN_CHAT_WIDTH)
        remembered = bool(memory.geometry or memory.state)
        if not remembered:
            resize_to_fit(self.window, first_size.width(), first_size.height(), centre=True)
            self.show_first_panels()
        self.arrange()
        if remembered:
            restore(self.window, memory)
        hidden = {dock.objectName() for dock in self.docks() if dock.isHidden()}
        self.closed_for_room = [name for name in memory.closed_for_room if name in hidden]
        self.give_chat_room(self.window.width())
        self.window_resized(self.window.width())  # those closed for room last time, where they fit now
        fit_to_screen(self.window)  # the panels closed may have been what kept the window wider than the screen
        QTimer.singleShot(0, self.window, lambda: fit_to_screen(self.window))  # shown: its frame counts too

    def add_reset_action(self) -> QAction:
        """View → Reset layout: the first start's panels and sizes, fitted to this screen."""
        action = QAction(QCoreApplication.translate("Docks", "Reset layout"), self.window)
        action.setToolTip(
            QCoreApplication.translate("Docks", "Show the chat with its settings panel as at the first start")
        )
        action.triggered.connect(self.reset)
        self.view_menu.addSeparator()
        self.view_menu.addAction(action)
        return action

    def reset(self) -> None:
        window = self.window
        if window.isMaximized() or window.isFullScreen():
            window.showNormal()
        resize_to_fit(window, self._first_size.width(), self._first_size.height(), centre=True)
        width = window.width()
        for dock in self.docks():  # back in their places: the chat list left, the panels right
            area = LEFT if dock.objectName() == "ChatsDock" else RIGHT
            dock.setFloating(False)
            if window.dockWidgetArea(dock) != area:
                window.addDockWidget(area, dock)
        self.closed_for_room.clear()
        self.show_first_panels()
        self.arrange()
        self.give_chat_room(width)
        fit_to_screen(window)

    def show_first_panels(self) -> None:
        """The chat list and the panels that set up the chat, Chat settings in front; the others closed."""
        for dock in self.docks():
            dock.setVisible(dock.objectName() in FIRST_PANELS)
        settings = self.window.findChild(QDockWidget, "ChatSettingsDock")
        if settings is not None:
            settings.raise_()

    def give_chat_room(self, width: int) -> list[str]:
        """Close panels, the glass box's first and the chat list last, until the window fits in `width` with the
        chat at least MIN_CHAT_WIDTH wide beside the open ones at their narrowest; the object names of those
        closed."""
        closed = []
        self._making_room = True
        for dock in sorted(self.docks(), key=_giving_way_order):
            if self.narrowest() <= width:
                break
            if not dock.isHidden():
                dock.hide()
                closed.append(dock.objectName())
        self._making_room = False
        self.closed_for_room.extend(closed)
        return closed

    def window_resized(self, width: int) -> list[str]:
        """The window is `width` wide now: the panels closed for room come back, the last closed first, each that
        fits beside the chat's room and the panels open; the object names of those opened."""
        opened = []
        docks = {dock.objectName(): dock for dock in self.docks()}
        self._making_room = True
        for name in reversed(list(self.closed_for_room)):
            dock = docks.get(name)
            if dock is None:
                continue
            dock.show()
            if self.narrowest() > width:
                dock.hide()
                continue
            self.closed_for_room.remove(name)
            opened.append(name)
        self._making_room = False
        return opened

    def _user_toggled(self, name: str) -> None:
        """A panel opened or closed by the user (View, its close button, a shortcut) is the user's again."""
        if not self._making_room and name in self.closed_for_room:
            self.closed_for_room.remove(name)

    def narrowest(self) -> int:
        """The window's narrowest width with the docks open now (the chat at MIN_CHAT_WIDTH)."""
        layout = self.window.layout()
        if layout is None:
            return 0
        layout.invalidate()
        return layout.minimumSize().width()

    def docks(self) -> list[QDockWidget]:
        return self.window.findChildren(QDockWidget)

    def arrange(self) -> None:
        """A chat that gets most of the width, a narrow chat list, one tabbed column of panels."""
        window = self.window
        window.setTabPosition(RIGHT, QTabWidget.TabPosition.North)
        self._tidy_tab_bars()
        left, right = self._docks_in(LEFT), self._docks_in(RIGHT)
        if left and right:  # on a small screen the conversation keeps most of the width
            width = window.width()
            sizes = [min(LEFT_DOCK_WIDTH, int(width * 0.2)), min(RIGHT_DOCK_WIDTH, int(width * 0.28))]
            window.resizeDocks([left[0], right[0]], sizes, Qt.Orientation.Horizontal)

    def _docks_in(self, area: Qt.DockWidgetArea) -> list[QDockWidget]:
        return [d for d in self.window.findChildren(QDockWidget) if self.window.dockWidgetArea(d) == area]


class _Widening(QObject):
    """Hears the window made wider: the panels closed for room are tried again once the resize has settled."""

    def __init__(self, docks: Docks, window: QMainWindow) -> None:
        super().__init__(window)
        self._docks = docks
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize and self._docks.closed_for_room:
            resized = cast(QResizeEvent, event)
            if resized.size().width() > resized.oldSize().width() > 0:
                QTimer.singleShot(0, self._window, lambda: self._docks.window_resized(self._window.width()))
        return False


def _giving_way_order(dock: QDockWidget) -> int:
    """Which panels close first when the chat needs room: the glass box's, the set-up ones, Chat settings, and the
    chat list last."""
    name = dock.objectName()
    order = {"ChatsDock": 3, "ChatSettingsDock": 2}
    return order.get(name, 1 if name in SETUP_PANELS else 0)
