"""The Models window as a user meets it, against the fake Hub: search, choose, download, pause, library."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from pytestqt.qtbot import QtBot

from app.core.hub.downloads.job import DownloadRequest, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.memory.fit import Machine
from app.core.models.hashing import VerifyState
from app.core.paths import app_paths
from app.ui.models.manager import ModelManagerDialog
from tests.fakes.fake_hub import FakeHub, gguf_bytes, make_gguf
from tests.fakes.memory_keyring import ForgetfulKeyring, MemoryKeyring

REPO = "acme/Tiny-GGUF"
Q4 = "tiny.Q4_K_M.gguf"
Q8 = "tiny.Q8_0.gguf"
WAIT_MS = 20_000


@pytest.fixture
def hub(fake_hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHub:
    fake_hub.add_repo(
        REPO,
        {Q4: gguf_bytes(tmp_path, "a.gguf", tensor_bytes=512 * 1024), Q8: gguf_bytes(tmp_path, "b.gguf", seed=5)},
        downloads=321,
        likes=9,
    )
    fake_hub.add_repo("meta/Gated-GGUF", {"g.Q4_0.gguf": gguf_bytes(tmp_path, "c.gguf")}, gated=True, downloads=1)
    # A machine with 8 GiB free RAM and no GPU, whatever this one has.
    monkeypatch.setattr("app.ui.models.workers.machine_now", lambda: Machine(None, 8 * 1024**3))
    return fake_hub


@pytest.fixture
def dialog(hub: FakeHub, qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


def open_repository(dialog: ModelManagerDialog, qtbot: QtBot, text: str = "tiny") -> None:
    with qtbot.waitSignal(dialog.discover.resultsShown, timeout=WAIT_MS):
        qtbot.keyClicks(dialog.discover.search_edit, text)
        qtbot.keyClick(dialog.discover.search_edit, Qt.Key.Key_Return)
    with qtbot.waitSignal(dialog.discover.listingShown, timeout=WAIT_MS):
        dialog.discover.results.selectRow(0)


def status_text(dialog: ModelManagerDialog, row: int = 0) -> str:
    return dialog.downloads.table.item(row, 5).text()


def test_search_lists_repositories_and_a_repository_shows_variants_with_fit_and_a_recommendation(
    dialog: ModelManagerDialog, qtbot: QtBot
) -> None:
    open_repository(dialog, qtbot)
    results = dialog.discover.results
    assert results.rowCount() == 1
    assert [results.item(0, c).text() for c in range(4)] == [REPO, "321", "9", "2025-01-15"]
    variants = dialog.discover.variants
    rows = {variants.item(r, 1).text(): r for r in range(variants.rowCount())}
    assert set(rows) == {"Q8_0", "Q4_K_M"}
    q4 = rows["Q4_K_M"]
    assert variants.item(q4, 0).text() == "★ " + Q4  # recommended off the GPU: Q4_K_M, not Q8_0
    assert variants.item(q4, 3).text() == "RAM only"
    assert "balanced" in variants.item(q4, 4).text()
    assert dialog.discover.selected_variant().key == Q4  # type: ignore[union-attr]
    assert "no GPU offload" in dialog.discover.machine_label.text()


def test_downloading_the_recommended_variant_installs_it_and_the_library_shows_it_verified(
    dialog: ModelManagerDialog, qtbot: QtBot
) -> None:
    open_repository(dialog, qtbot)
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS) as installed:
        qtbot.mouseClick(dialog.discover.download_button, Qt.MouseButton.LeftButton)
        assert dialog.tabs.currentWidget() is dialog.downloads
    path: Path = installed.args[0]
    assert path == app_paths().models / "acme" / "Tiny-GGUF" / Q4
    assert status_text(dialog).startswith("Installed")
    assert dialog.downloads.table.cellWidget(0, 2).value() == 1000
    qtbot.waitUntil(lambda: any(e.model.path == path for e in dialog.library.entries), timeout=WAIT_MS)
    entry = next(e for e in dialog.library.entries if e.model.path == path)
    assert entry.state is VerifyState.VERIFIED and entry.reference == "hub"


def test_pause_and_resume_buttons_control_a_running_download(
    dialog: ModelManagerDialog, qtbot: QtBot, hub: FakeHub
) -> None:
    hold = hub.hold(REPO, Q4, 200_000)
    file = hub.file(REPO, Q4)
    dialog.start_downloads([DownloadRequest(REPO, Q4, None, file.sha256, file.size)])
    assert hold.reached.wait(20)
    (job,) = dialog.manager.jobs()
    qtbot.waitUntil(lambda: job.snapshot().downloaded == hold.offset, timeout=WAIT_MS)
    buttons = dialog.downloads.table.cellWidget(0, 6)
    qtbot.waitUntil(lambda: buttons.toggle.text() == "Pause", timeout=WAIT_MS)
    qtbot.mouseClick(buttons.toggle, Qt.MouseButton.LeftButton)
    hold.release()
    qtbot.waitUntil(lambda: status_text(dialog).startswith("Paused"), timeout=WAIT_MS)
    assert buttons.toggle.text() == "Resume"
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS):
        qtbot.mouseClick(buttons.toggle, Qt.MouseButton.LeftButton)
    assert hub.file_requests(Q4)[-1].range is not None  # resumed, not restarted


def test_cancel_button_stops_the_download_and_removes_the_partial_file(
    dialog: ModelManagerDialog, qtbot: QtBot, hub: FakeHub
) -> None:
    hold = hub.hold(REPO, Q4, 200_000)
    file = hub.file(REPO, Q4)
    dialog.start_downloads([DownloadRequest(REPO, Q4, None, file.sha256, file.size)])
    assert hold.reached.wait(20)
    qtbot.mouseClick(dialog.downloads.table.cellWidget(0, 6).cancel, Qt.MouseButton.LeftButton)
    hold.release()
    qtbot.waitUntil(lambda: status_text(dialog).startswith("Cancelled"), timeout=WAIT_MS)
    assert list(app_paths().downloads.glob("*.part")) == []


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(gated\)")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* is gated")
@pytest.mark.expected_log("app.errors", logging.ERROR, "meta/Gated-GGUF is gated")
def test_a_gated_repository_download_fails_with_the_licence_and_token_steps_in_the_banner(
    dialog: ModelManagerDialog, qtbot: QtBot, hub: FakeHub
) -> None:
    file = hub.file("meta/Gated-GGUF", "g.Q4_0.gguf")
    dialog.start_downloads([DownloadRequest("meta/Gated-GGUF", "g.Q4_0.gguf", None, file.sha256, file.size)])
    qtbot.waitUntil(lambda: dialog.banner.message() != "", timeout=WAIT_MS)
    assert "accept its licence" in dialog.banner.message() and "token" in dialog.banner.message()
    assert dialog.token_bar.expanded  # the token section opens: it is what the user needs now
    assert status_text(dialog).startswith("Failed")
    assert dialog.downloads.table.cellWidget(0, 6).toggle.text() == "Retry"


def test_a_token_entered_in_the_window_goes_to_the_keyring_and_opens_the_gated_repository(
    dialog: ModelManagerDialog, qtbot: QtBot, hub: FakeHub, memory_keyring: MemoryKeyring
) -> None:
    hub.add_token("hf_granted", "meta/Gated-GGUF")
    bar = dialog.token_bar
    qtbot.waitUntil(lambda: "Checking" not in bar.status.text(), timeout=WAIT_MS)  # the opening status is in
    bar.set_expanded(True)
    with qtbot.waitSignal(bar.statusShown, timeout=WAIT_MS):
        qtbot.keyClicks(bar.edit, "hf_granted")
        qtbot.mouseClick(bar.save_button, Qt.MouseButton.LeftButton)
    assert bar.edit.text() == ""
    assert list(memory_keyring.passwords.values()) == ["hf_granted"]
    assert "saved in the system keyring" in bar.status.text()
    file = hub.file("meta/Gated-GGUF", "g.Q4_0.gguf")
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS):
        dialog.start_downloads([DownloadRequest("meta/Gated-GGUF", "g.Q4_0.gguf", None, file.sha256, file.size)])


def test_without_a_keyring_save_token_is_off_and_says_why(
    hub: FakeHub, qtbot: QtBot, no_keyring: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    try:
        bar = window.token_bar
        qtbot.waitUntil(lambda: "No system keyring" in bar.status.text(), timeout=WAIT_MS)
        assert not bar.save_button.isEnabled() and not bar.edit.isEnabled()
        assert "never in a file" in bar.save_button.toolTip() and "HF_TOKEN" in bar.save_button.toolTip()
        bar.set_expanded(True)
        assert "never in a file" in bar.help.text()  # the reason is also written out beside the field
        bar.edit.setText("hf_nowhere")
        bar.save()  # Return in the field does nothing either
        assert window.banner.notices() == []
    finally:
        assert window.shutdown()


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "did not keep it")
@pytest.mark.expected_log("app.errors", logging.ERROR, "The token was not saved")
def test_a_token_the_keyring_does_not_keep_is_reported_as_not_saved_and_where(
    hub: FakeHub, qtbot: QtBot, forgetful_keyring: ForgetfulKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    try:
        bar = window.token_bar
        qtbot.waitUntil(lambda: "Checking" not in bar.status.text(), timeout=WAIT_MS)
        bar.set_expanded(True)
        bar.edit.setText("hf_lost")
        bar.save()
        qtbot.waitUntil(lambda: window.banner.notices() != [], timeout=WAIT_MS)
        shown = window.banner.notices()[0].text
        assert "The token was not saved" in shown and "ForgetfulKeyring" in shown and "HF_TOKEN" in shown
        assert "saved in the system keyring" not in bar.status.text()
        assert forgetful_keyring.passwords == {}
    finally:
        assert window.shutdown()


def test_library_verify_reports_intact_and_delete_asks_first(dialog: ModelManagerDialog, qtbot: QtBot) -> None:
    (app_paths().models / "mine").mkdir(parents=True)
    model = make_gguf(app_paths().models / "mine" / "local.Q4_0.gguf")
    dialog.library.refresh()
    qtbot.waitUntil(lambda: any(e.model.path == model for e in dialog.library.entries), timeout=WAIT_MS)
    dialog.library.select(model)
    with qtbot.waitSignal(dialog.library.verifyFinished, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.library.verify_button, Qt.MouseButton.LeftButton)
    assert "hash recorded" in dialog.library.status.text()

    dialog.library.select(model)
    dialog.library.confirm_delete = lambda _model: False
    qtbot.mouseClick(dialog.library.delete_button, Qt.MouseButton.LeftButton)
    assert model.exists()
    dialog.library.confirm_delete = lambda _model: True
    with qtbot.waitSignal(dialog.modelRemoved, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.library.delete_button, Qt.MouseButton.LeftButton)
    assert not model.exists()


def test_the_starter_model_cannot_be_deleted_from_the_library(
    dialog: ModelManagerDialog, qtbot: QtBot, starter_model: Path
) -> None:
    qtbot.waitUntil(lambda: any(e.model.is_starter for e in dialog.library.entries), timeout=WAIT_MS)
    dialog.library.select(starter_model)
    assert dialog.library.verify_button.isEnabled() and not dialog.library.delete_button.isEnabled()
    opened: list[Path] = []
    dialog.library.open_folder = opened.append
    qtbot.mouseClick(dialog.library.reveal_button, Qt.MouseButton.LeftButton)
    assert opened == [starter_model.parent]


def test_dropping_a_gguf_file_on_the_window_imports_it_into_the_library(
    dialog: ModelManagerDialog, qtbot: QtBot, tmp_path: Path
) -> None:
    source = make_gguf(tmp_path / "dropped.Q5_K_M.gguf")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(source)), QUrl.fromLocalFile(str(tmp_path / "notes.txt"))])
    event = QDropEvent(
        QPointF(QPoint(10, 10)),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    dialog.tabs.setCurrentWidget(dialog.discover)
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS) as added:
        dialog.dropEvent(event)  # dropped anywhere on the window
    assert dialog.tabs.currentWidget() is dialog.library
    assert added.args[0] == app_paths().models / "imported" / "dropped.Q5_K_M.gguf"
    assert "Imported" in dialog.library.status.text()


@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, "Download of .* failed: The connection dropped mid-file"
)
def test_unfinished_downloads_from_an_earlier_run_come_back_paused(hub: FakeHub, qtbot: QtBot, memory_keyring) -> None:
    file = hub.file(REPO, Q4)
    hub.faults(REPO, Q4).drop_at = file.size // 2
    from app.core.hub.downloads.transfer import RetryPolicy

    earlier = DownloadManager(app_paths(), retry=RetryPolicy(attempts=1))
    job = earlier.enqueue(DownloadRequest(REPO, Q4, None, file.sha256, file.size))
    assert job.wait(20) and job.snapshot().state is JobState.FAILED
    assert earlier.shutdown()

    window = ModelManagerDialog()
    qtbot.addWidget(window)
    try:
        assert window.tabs.currentWidget() is window.downloads
        assert status_text(window).startswith("Paused")
        assert window.downloads.table.cellWidget(0, 2).value() == 500
        with qtbot.waitSignal(window.modelInstalled, timeout=WAIT_MS):
            qtbot.mouseClick(window.downloads.table.cellWidget(0, 6).toggle, Qt.MouseButton.LeftButton)
        assert hub.served(REPO, Q4) == file.size
    finally:
        assert window.shutdown()


@pytest.mark.requires_model  # the window loads the starter
@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform cannot raise windows
# Reloading a model in the main window (any reload, also from the picker) makes Qt say this; reproduced
# before the Load button existed and reported, not hidden elsewhere.
@pytest.mark.qt_log_ignore("QObject::killTimer: Timers cannot be stopped from another thread")
def test_the_main_window_opens_models_and_a_downloaded_model_appears_in_its_picker(
    hub: FakeHub, qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    from app.ui.shell.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.state.loaded_model is not None, timeout=30_000)
        assert window.models_action in window.tools_menu.actions()
        window.models_action.trigger()
        models = window.models.manager
        assert models is not None and models.isVisible()
        file = hub.file(REPO, Q4)
        with qtbot.waitSignal(models.modelInstalled, timeout=WAIT_MS):
            models.start_downloads([DownloadRequest(REPO, Q4, None, file.sha256, file.size)])
        labels = [window.model_picker.itemText(i) for i in range(window.model_picker.count())]
        assert any(label.startswith("tiny.Q4_K_M") for label in labels)
        starter = window.state.loaded_model
        assert starter is not None and starter.name.startswith("SmolLM2")  # still loaded

        models.tabs.setCurrentWidget(models.library)  # Load in the library loads in the main window
        qtbot.waitUntil(lambda: any(e.model.path == starter for e in models.library.entries), timeout=WAIT_MS)
        models.library.select(starter)
        with qtbot.waitSignal(window.worker.loaded, timeout=60_000) as loaded:
            qtbot.mouseClick(models.library.load_button, Qt.MouseButton.LeftButton)
        assert Path(loaded.args[0].config.model_path) == starter
        assert window.model_picker.currentData() == str(starter)
    finally:
        window.close()
