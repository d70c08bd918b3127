"""View → Language and View → Theme: two menus of choices, saved with the settings.

The theme changes at once; the language when Glassbox starts again (widgets word their
text as they are built), which a notice says, with Restart now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from app.core.settings import Language, Settings, Theme
from app.ui import message
from app.ui.widgets.error_banner import NoticeAction
from app.ui.widgets.theme import apply_theme

T = TypeVar("T", Language, Theme)


class AppearanceMenus(QObject):
    """Owns the Language and Theme menus; `add_to(menu)` puts them into a menu (the main window's View)."""

    def __init__(
        self,
        settings: Callable[[], Settings],
        save: Callable[[Settings], None],
        restart: Callable[[], None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._save = save
        self._restart = restart
        self.language_menu = QMenu(self.tr("&Language"), parent)
        self.theme_menu = QMenu(self.tr("T&heme"), parent)
        # Each language is named in itself, so whoever cannot read the current one still finds theirs.
        languages = {
            Language.SYSTEM: self.tr("System"),
            Language.ENGLISH: "English",
            Language.SIMPLIFIED_CHINESE: "简体中文",
        }
        themes = {Theme.SYSTEM: self.tr("System"), Theme.LIGHT: self.tr("Light"), Theme.DARK: self.tr("Dark")}
        appearance = settings().appearance
        self.language_actions = self._choices(self.language_menu, languages, appearance.language, self.choose_language)
        self.theme_actions = self._choices(self.theme_menu, themes, appearance.theme, self.choose_theme)

    def add_to(self, menu: QMenu) -> None:
        menu.addSeparator()
        menu.addMenu(self.language_menu)
        menu.addMenu(self.theme_menu)

    def _choices(self, menu: QMenu, labels: dict[T, str], current: T, choose: Callable[[T], None]) -> dict[T, QAction]:
        group = QActionGroup(menu)
        actions: dict[T, QAction] = {}
        for value, label in labels.items():
            action = QAction(label, menu)
            action.setCheckable(True)
            action.setChecked(value == current)
            action.triggered.connect(_choosing(choose, value))
            group.addAction(action)
            menu.addAction(action)
            actions[value] = action
        return actions

    def choose_language(self, language: Language) -> None:
        settings = self._settings()
        if settings.appearance.language is language:
            return
        self._save(replace(settings, appearance=replace(settings.appearance, language=language)))
        message.info(
            self.tr("The language changes when Glassbox starts again."),
            NoticeAction(self.tr("&Restart now"), self._restart),
        )

    def choose_theme(self, theme: Theme) -> None:
        settings = self._settings()
        self._save(replace(settings, appearance=replace(settings.appearance, theme=theme)))
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)


def _choosing(choose: Callable[[T], None], value: T) -> Callable[[], None]:
    return lambda: choose(value)
