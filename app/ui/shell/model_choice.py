"""The model picker and the library behind it: which models there are, which one is chosen, the Models window.

At start the model whose last load did not finish (it may have taken Glassbox down) is held
back: a notice offers it, and nothing loads it until the user asks.

A library model's own load settings open from the picker (its context menu, the button beside it) and
from the Models window's Library, in one dialog (app/ui/chat/load_settings_dialog.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel, QMenu, QWidget

from app.core.models.library import InstalledModel, installed_models
from app.core.models.load_guard import end_load, unfinished_load
from app.core.paths import app_paths
from app.core.state import AppState
from app.core.support.formatting import format_bytes
from app.ui.chat.attachments import AttachmentTray
from app.ui.chat.load_settings_dialog import LoadSettingsDialog
from app.ui.models.vision_mark import vision_mark, vision_tooltip
from app.ui.shell.model_loading import ModelLoader
from app.ui.shell.server_models import ServerModels
from app.ui.shell.unfinished_load_notice import UnfinishedLoadNotice
from app.ui.threads import WorkerThread, connect_in_thread_of

if TYPE_CHECKING:
    from app.ui.models.manager import ModelManagerDialog

log = logging.getLogger(__name__)


class ModelChoice(QObject):
    """Fills the picker from the library (and the servers' models), loads what is picked, keeps the Models window."""

    listed = Signal(list)  # [(label, path)] of the library's models, each time the picker is filled
    seeingListed = Signal(list)  # [(name, path)] of the library's models that can see, each time it is filled

    def __init__(
        self,
        picker: QComboBox,
        loader: ModelLoader,
        server_models: ServerModels,
        state: AppState,
        status: QLabel,
        attachments: AttachmentTray,
        window: QWidget,
    ) -> None:
        """`attachments`: when the loaded model cannot see, the tray's refusal names the library's models that can
        and switches to one."""
        super().__init__(window)
        self.picker = picker
        self.loader = loader
        self.server_models = server_models
        self.state = state
        self.status = status
        self._window = window
        self.manager: ModelManagerDialog | None = None
        self.unfinished_notice: UnfinishedLoadNotice | None = None
        self._held_back: Path | None = None
        self._library: list[tuple[str, Path]] = []  # (label, path) of the library's models, as last listed
        self.load_settings_dialog: LoadSettingsDialog | None = None  # the one open last
        self.load_settings_action: QAction | None = None
        picker.activated.connect(self._on_chosen)
        picker.currentIndexChanged.connect(lambda _index: self._update_load_settings())
        picker.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        picker.customContextMenuRequested.connect(self._show_picker_menu)
        self.seeingListed.connect(attachments.set_seeing_models)
        attachments.switchRequested.connect(self.pick_and_load)

    def open_initial(self, path: Path | None, open_file: Callable[[Path], None], last: Path | None = None) -> None:
        """At start: load the model asked for (`glassbox gui --model`), else the one on duty at the last
        close (`last`), else (none, or its file has gone) the first of the library.

        One asked for that the library does not have is opened with `open_file` (as Open file… opens it:
        checked, added in place, then loaded); until then, and should that fail, no other model is loaded
        in its stead.
        """
        if path is None:
            self.refresh(select=_library_entry(last) if last is not None else None)
            return
        listed = _library_entry(path)
        if listed is not None:
            self.refresh(select=listed)
            return
        self.refresh(load=False)
        open_file(path)

    def refresh(self, select: Path | None = None, load: bool = True) -> None:
        """Fill the picker from the library; load `select`, else keep the current one, else the first
        (with `load` False: select it, load nothing).

        Never the model whose last load did not finish: that one waits until the user asks for it.
        """
        models = installed_models(app_paths().models)
        current = select or self.state.loaded_model or self.picked_path()
        self.picker.clear()
        for model in models:
            self.picker.addItem(self._label(model), str(model.path))
            self.picker.setItemData(self.picker.count() - 1, vision_tooltip(model), Qt.ItemDataRole.ToolTipRole)
        self._library = [(self._label(model), model.path) for model in models]
        self.listed.emit(list(self._library))
        self.seeingListed.emit([(model.name, model.path) for model in models if model.sees_images])
        self.server_models.add_rows()
        if not models:
            self.status.setText(self.tr("No model installed"))
            return
        index = self.picker.findData(str(current)) if current else -1
        self.picker.setCurrentIndex(max(index, 0))
        picked = self.picked_path()
        if not load or (picked is not None and picked == self._held_back):
            self.status.setText(self.tr("No model loaded"))
            return
        if picked is not None and picked != self.state.loaded_model:
            self.loader.load(picked)

    def hold_back_unfinished_load(self) -> UnfinishedLoadNotice | None:
        """At start: the model whose last load never finished is not loaded on its own; the notice offers it.

        The marker is cleared here; a new load of that model (Try again) writes it anew.
        """
        unfinished = unfinished_load()
        end_load()
        if unfinished is None:
            return None
        log.warning("Not loading %s again: Glassbox closed while loading it last time", unfinished)
        self._held_back = unfinished
        self.unfinished_notice = UnfinishedLoadNotice(unfinished)
        self.unfinished_notice.retryRequested.connect(self.pick_and_load)
        return self.unfinished_notice

    def pick_and_load(self, path: Path) -> None:
        self._held_back = None
        index = self.picker.findData(str(path))
        if index >= 0:
            self.picker.setCurrentIndex(index)
        self.loader.load(path)

    def open_models(self) -> ModelManagerDialog:
        """The Models window, kept for the session so downloads go on while it is closed."""
        if self.manager is None:
            # Imported on first use: huggingface_hub and friends stay out of the startup path.
            from app.ui.models.manager import ModelManagerDialog

            self.manager = ModelManagerDialog(self._window, settings=self.loader.store)
            self.manager.modelInstalled.connect(self._on_library_changed)
            self.manager.modelRemoved.connect(self._on_library_changed)
            self.manager.loadRequested.connect(self.pick_and_load)
            self.manager.library.loadSettingsRequested.connect(self._edit_from_library)
            library, worker = self.manager.library, self.loader.worker  # the end of a load it asked for, said there
            connect_in_thread_of(worker.loaded, library, lambda _report: library.show_load_ended())
            connect_in_thread_of(worker.loadFailed, library, library.show_load_ended)
            connect_in_thread_of(worker.loadCancelled, library, library.show_load_cancelled)
        self.manager.show()
        self.manager.raise_()
        self.manager.activateWindow()
        return self.manager

    def attach_load_settings(self, action: QAction) -> None:
        """`action` opens the load settings of the model picked; it is on while a library model is picked."""
        self.load_settings_action = action
        action.triggered.connect(lambda: self.edit_load_settings())
        self._update_load_settings()

    def edit_load_settings(self, path: Path | None = None, parent: QWidget | None = None) -> LoadSettingsDialog | None:
        """Open the load settings of the library model `path` (None: the one picked); None when there is none."""
        path = path or self.picked_path()
        if path is None:
            return None
        if self.load_settings_dialog is not None:
            self.load_settings_dialog.close()
        loaded = self.state.loaded_model == path
        report = self.state.load_report
        template = report.chat_template if loaded and report is not None else ""
        dialog = LoadSettingsDialog(self.loader.store, path, self._library, loaded, parent or self._window, template)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda: self._forget_dialog(dialog))
        dialog.reloadRequested.connect(self.pick_and_load)
        self.load_settings_dialog = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _forget_dialog(self, dialog: LoadSettingsDialog) -> None:
        if self.load_settings_dialog is dialog:
            self.load_settings_dialog = None

    def _edit_from_library(self, path: Path) -> None:
        self.edit_load_settings(path, self.manager)

    def picker_menu(self) -> QMenu:
        """The picker's context menu: the picked model's load settings (a server's model has none here)."""
        menu = QMenu(self.picker)
        edit = menu.addAction(self.tr("Edit load settings…"))
        edit.setEnabled(self.picked_path() is not None)
        edit.triggered.connect(lambda: self.edit_load_settings())
        return menu

    def _show_picker_menu(self, at: QPoint) -> None:
        menu = self.picker_menu()
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.picker.mapToGlobal(at))

    def _update_load_settings(self) -> None:
        if self.load_settings_action is not None:
            self.load_settings_action.setEnabled(self.picked_path() is not None)

    def picked_path(self) -> Path | None:
        data = self.picker.currentData()
        return Path(data) if isinstance(data, str) else None

    def _on_library_changed(self, _path: Path) -> None:
        self.refresh()

    def _label(self, model: InstalledModel) -> str:
        suffix = self.tr(" (starter)") if model.is_starter else ""
        # As the Models window shows it; a model that can see is marked.
        return f"{model.name}{suffix} — {format_bytes(model.size_bytes)}{vision_mark(model)}"

    def _on_chosen(self, _index: int) -> None:
        choice = self.server_models.picked()
        if choice is not None:
            report = self.state.load_report
            if report is None or (report.server, report.config.model_path) != (
                choice.server.name,
                Path(choice.model.id),
            ):
                self.loader.use_server_model(choice)
            return
        picked = self.picked_path()
        if picked is not None and picked != self.state.loaded_model:
            self.loader.load(picked)

    # ---- exit: the Models window's downloads and library jobs ----------------------------

    def request_stop(self) -> None:
        if self.manager is not None:
            self.manager.request_stop()

    def threads(self) -> list[WorkerThread]:
        return list(self.manager.workers.threads) if self.manager is not None else []

    def shutdown(self) -> None:
        if self.manager is not None:
            self.manager.shutdown()  # joins the paused downloads; their bytes stay for next time


def _library_entry(path: Path) -> Path | None:
    """The library's path of the model whose file `path` is (a shard of), None when the library does not have it."""
    wanted = path.resolve()
    for model in installed_models(app_paths().models):
        if any(file.resolve() == wanted for file in model.files):
            return model.path
    return None
