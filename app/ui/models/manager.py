"""The Models window: Discover (search, variants with fit hints), Downloads (the queue), Library.

A non-modal dialog the main window keeps for the whole session, so downloads go on when it
is closed. Partial downloads left by an earlier run come back paused. `request_stop()` pauses
the downloads (their bytes stay for next time) and stops the workers without waiting;
`shutdown()` then waits for them.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.hub.client import TOKEN_KINDS, HubError, HubErrorKind, RepoListing, hub_endpoint
from app.core.hub.downloads.job import DownloadRequest
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.token_store import TokenStore
from app.core.models.library import split_shards
from app.core.paths import AppPaths, app_paths
from app.core.support.formatting import fill
from app.ui.models.discover import DiscoverPage
from app.ui.models.downloads_view import DownloadsPage
from app.ui.models.library_view import LibraryPage
from app.ui.models.mirror_bar import MirrorBar
from app.ui.models.workers import ModelWorkers, TokenState
from app.ui.settings.store import SettingsStore
from app.ui.widgets.error_banner import ErrorBanner, Notice, NoticeAction
from app.ui.widgets.screen_fit import resize_to_fit

log = logging.getLogger(__name__)


class TokenBar(QWidget):
    """The Hugging Face token, folded into one line until it is needed (a gated repository, a click).

    Saved only in the system keyring, never shown again. Without a keyring, Save is off and says why.
    """

    statusShown = Signal(str)

    def __init__(self, workers: ModelWorkers, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hub = workers.hub
        self.state: TokenState | None = None
        self.toggle = QToolButton(self)
        self.toggle.setText(self.tr("Hugging Face token"))
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolTip(self.tr("Only gated and private models need a token"))
        self.toggle.toggled.connect(self.set_expanded)
        self.toggle.clicked.connect(self._focus_entry)  # opened by hand: ready to paste
        self.status = QLabel(self.tr("Checking the keyring…"), self)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.toggle)
        header.addWidget(self.status, 1)

        self.body = QWidget(self)
        self.help = QLabel(self.body)
        self.help.setWordWrap(True)
        self.help.setTextFormat(Qt.TextFormat.RichText)
        self.help.setOpenExternalLinks(True)
        self.edit = QLineEdit(self.body)
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setAccessibleName(self.tr("Hugging Face token"))
        self.edit.setPlaceholderText(self.tr("Hugging Face token (hf_…)"))
        self.edit.setMinimumWidth(240)
        self.edit.setToolTip(fill(self.tr("A read token from {url}/settings/tokens"), url=hub_endpoint()))
        self.edit.returnPressed.connect(self.save)
        self.save_button = QPushButton(self.tr("Save token"), self.body)
        self.save_button.clicked.connect(self.save)
        self.save_button.setEnabled(False)  # until the keyring has answered
        self.clear_button = QPushButton(self.tr("Remove token"), self.body)
        self.clear_button.clicked.connect(self.hub.tokenClearRequested.emit)
        self.clear_button.setEnabled(False)
        entry = QHBoxLayout()
        entry.setContentsMargins(0, 0, 0, 0)
        entry.addWidget(self.edit, 1)
        entry.addWidget(self.save_button)
        entry.addWidget(self.clear_button)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.help)
        body.addLayout(entry)
        self.body.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.body)
        self.hub.tokenStatus.connect(self.show_status)
        self.hub.tokenStatusRequested.emit()

    @property
    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        self.toggle.setChecked(expanded)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)

    def _focus_entry(self, checked: bool) -> None:
        if checked and self.edit.isEnabled():
            self.edit.setFocus()

    def save(self) -> None:
        token = self.edit.text()
        if not token.strip() or not self.save_button.isEnabled():
            return
        self.edit.clear()  # the token leaves the widget at once
        self.hub.tokenSaveRequested.emit(token)

    def show_status(self, state: TokenState) -> None:
        self.state = state
        url = hub_endpoint() + "/settings/tokens"
        get_one = fill(self.tr('Create a read token at <a href="{url}">{url}</a> and paste it here.'), url=url)
        can_save = state is not TokenState.NO_KEYRING
        if state is TokenState.SAVED:
            text = self.tr("A token is saved in the system keyring.")
            help_text = self.tr("Gated and private models you have access to can be downloaded.")
        elif state is TokenState.FROM_ENVIRONMENT:
            text = self.tr("Using HF_TOKEN from the environment (not saved).")
            help_text = self.tr("A token saved here takes the place of HF_TOKEN.") + " " + get_one
        elif state is TokenState.NO_KEYRING:
            text = self.tr("No system keyring: a token cannot be saved here.")
            help_text = self.no_keyring_reason()
        else:
            text = self.tr("None: public models only.")
            help_text = self.tr("Gated and private models need a token.") + " " + get_one
        self.status.setText(text)
        self.help.setText(help_text)
        self.edit.setEnabled(can_save)
        self.save_button.setEnabled(can_save)
        self.save_button.setToolTip("" if can_save else self.no_keyring_reason())
        self.edit.setToolTip(
            fill(self.tr("A read token from {url}"), url=url) if can_save else self.no_keyring_reason()
        )
        self.clear_button.setEnabled(state is TokenState.SAVED)
        self.statusShown.emit(text)

    def no_keyring_reason(self) -> str:
        return self.tr(
            "Glassbox keeps tokens only in a system keyring, never in a file, and none is available. "
            "Start one (GNOME Keyring, KWallet, macOS Keychain, Windows Credential Manager) and reopen this "
            "window, or set HF_TOKEN before starting Glassbox. Public models work without a token."
        )


class ModelManagerDialog(QDialog):
    # Path of a model that is now in the library (download or import), or of the projector that lets the
    # models beside it read images
    modelInstalled = Signal(object)
    modelRemoved = Signal(object)  # Path of a model that was deleted
    loadRequested = Signal(object)  # Path of a library model the user asked to load in the main window

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        paths: AppPaths | None = None,
        token_store: TokenStore | None = None,
        manager: DownloadManager | None = None,
        settings: SettingsStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Models"))
        self.setAcceptDrops(True)
        resize_to_fit(self, 980, 680)
        self.paths = paths or app_paths()
        token_store = token_store or TokenStore()
        self.workers = ModelWorkers(token_store)
        self.manager = manager or DownloadManager(self.paths, token_provider=token_store.get)
        self._problems: dict[str, tuple[Notice, bool]] = {}  # what failed -> (its notice, a connection problem)
        restored = self.manager.restore()
        if restored:
            log.info("%d unfinished download(s) from an earlier run are paused", len(restored))

        self.banner = ErrorBanner(self)
        self.token_bar = TokenBar(self.workers, self)
        # The Hub mirror is the settings store's: offered when the window is given the store.
        self.mirror_bar = MirrorBar(settings, self) if settings is not None else None
        self.discover = DiscoverPage(self.workers.hub, self)
        self.downloads = DownloadsPage(self.manager, self)
        self.library = LibraryPage(self.workers.library, self.paths.models, self)
        self.library.settings_button.setVisible(settings is not None)  # load settings are the store's
        self.library.settings_action.setVisible(settings is not None)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.discover, self.tr("Discover"))
        self.tabs.addTab(self.downloads, self.tr("Downloads"))
        self.tabs.addTab(self.library, self.tr("Library"))
        if restored:
            self.tabs.setCurrentWidget(self.downloads)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.token_bar)
        if self.mirror_bar is not None:
            layout.addWidget(self.mirror_bar)
        layout.addWidget(self.tabs, 1)

        self.workers.hub.failed.connect(self._on_hub_failed)
        # Bound methods, not lambdas: a lambda would run on the worker's thread.
        self.workers.hub.searchFinished.connect(self._on_search_finished)
        self.workers.hub.listingFinished.connect(self._on_listing_finished)
        self.workers.hub.tokenStatus.connect(self._on_token_status)
        self.discover.listingShown.connect(self._on_listing_shown)
        self.discover.downloadRequested.connect(self.start_downloads)
        self.downloads.installed.connect(self._on_installed)
        self.downloads.failed.connect(self.banner.show_error)
        self.downloads.needsToken.connect(lambda: self.token_bar.set_expanded(True))
        self.library.problem.connect(self._show_problem)
        self.library.succeeded.connect(self._succeeded)
        self.library.notice.connect(self._on_library_notice)
        self.library.modelAdded.connect(self.modelInstalled.emit)
        self.library.modelRemoved.connect(self.modelRemoved.emit)
        self.library.loadRequested.connect(self.loadRequested.emit)
        self.tabs.currentChanged.connect(lambda _index: self._focus_search())
        self.library.refresh()
        # Enter belongs to the focused field (search, token), never to a "default" button.
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """.gguf files dropped anywhere on the window are imported into the library."""
        self.library.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.tabs.setCurrentWidget(self.library)
        self.library.dropEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        """Opening the window puts the cursor in the search box: typing searches at once."""
        super().showEvent(event)
        self._focus_search()

    def _focus_search(self) -> None:
        if self.tabs.currentWidget() is self.discover:
            self.discover.search_edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_hub_failed(self, what: str, message: str, error: object) -> None:
        retry: NoticeAction | None = None
        connection = isinstance(error, HubError) and error.retryable
        if connection and what in ("search", "listing"):
            retry = NoticeAction(self.tr("Retry"), lambda: self.discover.retry(what))
        if isinstance(error, HubError) and error.kind in TOKEN_KINDS:
            self.token_bar.set_expanded(True)
        if isinstance(error, HubError) and error.kind is HubErrorKind.OFFLINE and self.mirror_bar is not None:
            self.mirror_bar.offer()  # the Hub cannot be reached: a mirror may be the way
        self._show_problem(what, message, retry, connection)

    def _on_search_finished(self, _results: object) -> None:
        self._succeeded("search")

    def _on_listing_finished(self, _listing: object, _assessment: object) -> None:
        self._succeeded("listing")

    def _on_token_status(self, _state: object) -> None:
        self._succeeded("token")

    def _on_listing_shown(self, listing: RepoListing) -> None:
        if listing.gated and self.token_bar.state not in (TokenState.SAVED, TokenState.FROM_ENVIRONMENT):
            self.token_bar.set_expanded(True)

    def _on_library_notice(self, text: str) -> None:
        self._show_problem("import", text, level=logging.INFO)

    def _show_problem(
        self,
        what: str,
        message: str,
        action: NoticeAction | None = None,
        connection: bool = False,
        level: int = logging.ERROR,
    ) -> None:
        """Show a failure (or news, at a lower level) in the banner, in place of the last one about `what`."""
        earlier = self._problems.pop(what, None)
        if earlier is not None:
            self.banner.dismiss(earlier[0])
        self.banner.show_error(message, level, action)
        self._problems[what] = (self.banner.notices()[0], connection)

    def _succeeded(self, what: str) -> None:
        """A request worked: its old failure is stale, and so is any connection failure (the network is back)."""
        for key, (notice, connection) in list(self._problems.items()):
            if key == what or (connection and what in ("search", "listing")):
                del self._problems[key]
                if notice in self.banner.notices():
                    self.banner.dismiss(notice)

    def start_downloads(self, requests: list[DownloadRequest], note: str = "") -> None:
        """Queue the downloads and show them; `note`, when given, is a line of news about them for the user."""
        for request in requests:
            self.manager.enqueue(request)
        self.downloads.refresh()
        self.tabs.setCurrentWidget(self.downloads)
        if note:
            self._show_problem("download note", note, level=logging.INFO)

    def _on_installed(self, path: Path) -> None:
        """A file arrived; announce the model once all its parts are here (first shard first), or the projector
        (the model beside it now reads images)."""
        self.library.refresh()
        shards = split_shards(path)
        if all(shard.is_file() for shard in shards):
            self.modelInstalled.emit(shards[0])

    def request_stop(self) -> None:
        """Pause the downloads and stop the workers without waiting (the first step of the app's exit)."""
        self.downloads.stop()
        self.manager.shutdown(timeout=0)  # pauses every download; its threads are waited for in shutdown()
        self.workers.request_stop()

    def shutdown(self) -> bool:
        """Pause downloads (bytes kept for the next run) and stop the worker threads; True once all have ended."""
        self.request_stop()
        paused = self.manager.shutdown()
        stopped = self.workers.shutdown()
        return paused and stopped
