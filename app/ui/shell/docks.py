"""The window's panels in docks that View toggles: a narrow chat list on the left, two tabbed groups on the right."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QTabBar, QTabWidget, QWidget

from app.ui.shell.window_memory import WindowMemory, restore
from app.ui.widgets.panel_scroller import PanelScroller
from app.ui.widgets.screen_fit import resize_to_fit

LEFT_DOCK_WIDTH = 240
RIGHT_DOCK_WIDTH = 460
# the right-hand panels that set up the chat and the model (the glass box's panels are tabbed below them)
SETUP_PANELS = frozenset({"ChatSettingsDock", "GpuOffloadDock", "DocumentsDock", "ServerDock"})

RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
LEFT = Qt.DockWidgetArea.LeftDockWidgetArea


class Docks:
    """Puts panels in the window's docks, lists each under View, and arranges them at start."""

    def __init__(self, window: QMainWindow, view_menu: QMenu) -> None:
        self.window = window
        self.view_menu = view_menu

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
        return dock

    def restore(self, memory: WindowMemory, first_size: QSize) -> None:
        """The layout of the last run, or the first start's (`first_size` fitted to the screen)."""
        remembered = bool(memory.geometry or memory.state)
        if not remembered:
            resize_to_fit(self.window, first_size.width(), first_size.height(), centre=True)
        self.arrange()
        if remembered:
            restore(self.window, memory)

    def arrange(self) -> None:
        """A chat that gets most of the width, a narrow chat list, one tabbed column of panels."""
        window = self.window
        window.setTabPosition(RIGHT, QTabWidget.TabPosition.North)
        for tabs in window.findChildren(QTabBar):  # whole panel names, scrolled rather than cut short
            tabs.setElideMode(Qt.TextElideMode.ElideNone)
            tabs.setUsesScrollButtons(True)
        left, right = self._docks_in(LEFT), self._docks_in(RIGHT)
        if left and right:  # on a small screen the conversation keeps most of the width
            width = window.width()
            sizes = [min(LEFT_DOCK_WIDTH, int(width * 0.2)), min(RIGHT_DOCK_WIDTH, int(width * 0.28))]
            window.resizeDocks([left[0], right[0]], sizes, Qt.Orientation.Horizontal)

    def _docks_in(self, area: Qt.DockWidgetArea) -> list[QDockWidget]:
        return [d for d in self.window.findChildren(QDockWidget) if self.window.dockWidgetArea(d) == area]
