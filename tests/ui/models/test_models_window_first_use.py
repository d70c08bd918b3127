"""The Models window as a new user meets it: where the cursor is, the token folded away, errors in
plain words with Retry, nothing cut off, Load from the library, no second copy of a model, and
models other apps keep used where they are."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QTableWidget
from pytestqt.qtbot import QtBot

from app.core.memory.fit import Machine
from app.core.models.links import Missing, ModelSource
from app.core.paths import app_paths
from app.ui.models.manager import ModelManagerDialog
from tests.fakes.fake_hub import FakeHub, gguf_bytes, make_gguf
from tests.fakes.memory_keyring import MemoryKeyring

REPO = "acme/Tiny-GGUF"
WAIT_MS = 20_000


@pytest.fixture
def hub(fake_hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHub:
    fake_hub.add_repo(REPO, {"tiny.Q4_K_M.gguf": gguf_bytes(tmp_path, "a.gguf")}, downloads=321, likes=9)
    fake_hub.add_repo("meta/Gated-GGUF", {"g.Q4_0.gguf": gguf_bytes(tmp_path, "c.gguf")}, gated=True)
    monkeypatch.setattr("app.ui.models.workers.machine_now", lambda: Machine(None, 8 * 1024**3))
    return fake_hub


@pytest.fixture
def dialog(hub: FakeHub, qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    window = ModelManagerDialog()
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's home folder with other apps' model folders in it (and no environment overrides)."""
    folder = tmp_path / "user-home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("OLLAMA_MODELS", "HF_HOME", "HF_HUB_CACHE"):
        monkeypatch.delenv(name, raising=False)
    return folder


def library_rows(dialog: ModelManagerDialog) -> dict[str, int]:
    table = dialog.library.table
    return {table.item(row, 0).text(): row for row in range(table.rowCount())}


def assert_no_header_is_cut_off(table: QTableWidget) -> None:
    header = table.horizontalHeader()
    for column in range(table.columnCount()):
        label = table.horizontalHeaderItem(column).text()
        assert header.sectionSize(column) >= header.sectionSizeHint(column), label


def test_the_window_opens_with_the_cursor_in_the_search_box_and_the_token_folded_away(
    dialog: ModelManagerDialog, qtbot: QtBot
) -> None:
    qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.discover.search_edit, timeout=WAIT_MS)
    bar = dialog.token_bar
    assert not bar.expanded and bar.body.isHidden()
    qtbot.waitUntil(lambda: bar.status.text() == "None: public models only.", timeout=WAIT_MS)
    assert "\n" not in bar.status.text() and len(bar.status.text()) < 60  # one short line, not a paragraph
    qtbot.mouseClick(bar.toggle, Qt.MouseButton.LeftButton)
    assert bar.expanded and bar.body.isVisible() and bar.save_button.isEnabled()
    assert dialog.focusWidget() is bar.edit  # opened by hand: ready to paste the token


def test_opening_a_gated_repository_unfolds_the_token_section(dialog: ModelManagerDialog, qtbot: QtBot) -> None:
    with qtbot.waitSignal(dialog.discover.listingShown, timeout=WAIT_MS):
        dialog.discover.open_repository("meta/Gated-GGUF")
    assert dialog.token_bar.expanded
    assert dialog.focusWidget() is dialog.discover.search_edit  # unfolded, but the cursor stays put


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
@pytest.mark.expected_log("app.errors", logging.ERROR, "Cannot search Hugging Face: .* is unreachable")
def test_a_network_error_is_said_plainly_and_retry_searches_again_once_the_hub_answers(
    dialog: ModelManagerDialog, qtbot: QtBot, hub: FakeHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeHub() as stopped:
        dead = stopped.url
    monkeypatch.setenv("HF_ENDPOINT", dead)
    qtbot.keyClicks(dialog.discover.search_edit, "tiny")
    qtbot.keyClick(dialog.discover.search_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.banner.notices() != [], timeout=WAIT_MS)
    (notice,) = dialog.banner.notices()
    assert "is unreachable" in notice.text and "internet connection" in notice.text
    assert "Errno" not in notice.text
    assert notice.action is not None and notice.action.label == "Retry"

    monkeypatch.setenv("HF_ENDPOINT", hub.url)  # the connection is back
    (retry,) = [b for b in dialog.banner.findChildren(QPushButton, "NoticeAction") if b.isVisible()]
    with qtbot.waitSignal(dialog.discover.resultsShown, timeout=WAIT_MS) as shown:
        qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
    assert shown.args == [1]
    qtbot.waitUntil(lambda: dialog.banner.notices() == [], timeout=WAIT_MS)  # the old error is gone


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(not found\)")
@pytest.mark.expected_log("app.errors", logging.ERROR, "acme/Nothing-GGUF was not found")
def test_an_old_error_is_cleared_once_the_same_request_works(dialog: ModelManagerDialog, qtbot: QtBot) -> None:
    dialog.discover.open_repository("acme/Nothing-GGUF")
    qtbot.waitUntil(lambda: dialog.banner.notices() != [], timeout=WAIT_MS)
    assert dialog.banner.notices()[0].action is None  # nothing to retry: the name is wrong
    with qtbot.waitSignal(dialog.discover.listingShown, timeout=WAIT_MS):
        dialog.discover.open_repository(REPO)
    qtbot.waitUntil(lambda: dialog.banner.notices() == [], timeout=WAIT_MS)


def test_no_table_header_is_cut_off(dialog: ModelManagerDialog, qtbot: QtBot) -> None:
    tables = [dialog.discover.results, dialog.discover.variants, dialog.downloads.table, dialog.library.table]
    for table in tables:
        assert_no_header_is_cut_off(table)  # empty, as the window opens
    with qtbot.waitSignal(dialog.discover.resultsShown, timeout=WAIT_MS):
        dialog.discover.search_edit.setText("tiny")
        dialog.discover.search()
    with qtbot.waitSignal(dialog.discover.listingShown, timeout=WAIT_MS):
        dialog.discover.results.selectRow(0)
    (app_paths().models / "mine").mkdir(parents=True)
    make_gguf(app_paths().models / "mine" / ("a-rather-long-model-name-" * 4 + "Q4_0.gguf"))
    dialog.library.refresh()
    qtbot.waitUntil(lambda: len(dialog.library.entries) >= 1, timeout=WAIT_MS)
    dialog.tabs.setCurrentWidget(dialog.library)
    for table in tables:
        assert_no_header_is_cut_off(table)  # filled, long names and all


def test_load_in_the_library_asks_the_main_window_to_load_the_selected_model(
    dialog: ModelManagerDialog, qtbot: QtBot
) -> None:
    (app_paths().models / "mine").mkdir(parents=True)
    model = make_gguf(app_paths().models / "mine" / "local.Q4_0.gguf")
    dialog.library.refresh()
    qtbot.waitUntil(lambda: any(e.model.path == model for e in dialog.library.entries), timeout=WAIT_MS)
    dialog.tabs.setCurrentWidget(dialog.library)
    dialog.library.table.clearSelection()
    assert not dialog.library.load_button.isEnabled()
    dialog.library.select(model)
    with qtbot.waitSignal(dialog.loadRequested, timeout=WAIT_MS) as asked:
        qtbot.mouseClick(dialog.library.load_button, Qt.MouseButton.LeftButton)
    assert asked.args == [model]


def test_importing_a_file_the_library_already_has_says_so_and_keeps_one_copy(
    dialog: ModelManagerDialog, qtbot: QtBot, tmp_path: Path
) -> None:
    first = make_gguf(tmp_path / "first.Q4_0.gguf")
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS):
        dialog.library.import_file(first)
    again = tmp_path / "copy" / "same-model.gguf"
    again.parent.mkdir()
    shutil.copyfile(first, again)
    dialog.library.import_file(again)
    qtbot.waitUntil(lambda: "already in the library" in dialog.library.status.text(), timeout=WAIT_MS)
    assert "first.Q4_0" in dialog.library.status.text() and "SHA-256" in dialog.library.status.text()
    assert [n.severity for n in dialog.banner.notices()] == ["info"]  # news, not an error
    assert sorted(p.name for p in (app_paths().models / "imported").iterdir()) == ["first.Q4_0.gguf"]
    assert dialog.library.selected_model().path == app_paths().models / "imported" / "first.Q4_0.gguf"  # type: ignore[union-attr]


def test_a_model_lm_studio_keeps_is_added_in_place_without_a_copy(
    dialog: ModelManagerDialog, qtbot: QtBot, home: Path
) -> None:
    folder = home / ".lmstudio" / "models" / "bartowski" / "Tiny-GGUF"
    folder.mkdir(parents=True)
    source = make_gguf(folder / "Tiny-Q4_K_M.gguf", tensor_bytes=1024 * 1024)
    size = source.stat().st_size
    dialog.tabs.setCurrentWidget(dialog.library)
    qtbot.mouseClick(dialog.library.find_button, Qt.MouseButton.LeftButton)
    found = dialog.library.elsewhere
    assert found is not None and found.isVisible()
    qtbot.waitUntil(lambda: found.found != [], timeout=WAIT_MS)
    assert_no_header_is_cut_off(found.table)
    assert [m.path for m in found.found if m.source is ModelSource.LM_STUDIO] == [source]
    found.select(source)
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS) as added:
        qtbot.mouseClick(found.add_button, Qt.MouseButton.LeftButton)
    assert added.args == [source]
    qtbot.waitUntil(lambda: "Tiny-Q4_K_M" in library_rows(dialog), timeout=WAIT_MS)
    assert source.stat().st_size == size  # the file is where it was, as it was
    assert not list(app_paths().models.rglob("*.gguf"))  # nothing was copied
    row = library_rows(dialog)["Tiny-Q4_K_M"]
    assert dialog.library.table.item(row, 7).text() == "in place · LM Studio"
    assert str(source) in dialog.library.table.item(row, 7).toolTip()
    qtbot.waitUntil(lambda: found.table.item(0, 4).text() == "yes", timeout=WAIT_MS)  # now in the library
    assert not found.add_button.isEnabled()


def test_a_model_used_in_place_whose_file_vanished_shows_as_missing_with_the_reason(
    dialog: ModelManagerDialog, qtbot: QtBot, tmp_path: Path, home: Path
) -> None:
    source = make_gguf(tmp_path / "elsewhere.Q4_0.gguf")
    dialog.tabs.setCurrentWidget(dialog.library)
    found = dialog.library.open_elsewhere()
    found.choose_file = lambda: source
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS):
        qtbot.mouseClick(found.file_button, Qt.MouseButton.LeftButton)
    source.unlink()  # deleted in another app
    dialog.library.refresh()
    qtbot.waitUntil(lambda: any(e.model.missing is Missing.GONE for e in dialog.library.entries), timeout=WAIT_MS)
    row = library_rows(dialog)["elsewhere.Q4_0"]
    assert dialog.library.table.item(row, 1).text() == "missing: moved or deleted"
    dialog.library.table.selectRow(row)
    assert not dialog.library.load_button.isEnabled() and not dialog.library.verify_button.isEnabled()
    assert "is no longer there" in dialog.library.load_button.toolTip()
    assert dialog.library.status.text().startswith(f"{source} is no longer there: it was moved or deleted.")
    assert dialog.library.delete_button.text() == "Remove from library"
    with qtbot.waitSignal(dialog.modelRemoved, timeout=WAIT_MS):
        qtbot.mouseClick(dialog.library.delete_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "elsewhere.Q4_0" not in library_rows(dialog), timeout=WAIT_MS)


@pytest.mark.expected_log("app.errors", logging.ERROR, "not a GGUF file")
def test_a_failed_import_banner_goes_once_an_import_works(
    dialog: ModelManagerDialog, qtbot: QtBot, tmp_path: Path
) -> None:
    bad = tmp_path / "notes.gguf"
    bad.write_bytes(b"plain text, not a model" * 10)
    dialog.library.import_file(bad)
    qtbot.waitUntil(lambda: dialog.banner.notices() != [], timeout=WAIT_MS)
    with qtbot.waitSignal(dialog.modelInstalled, timeout=WAIT_MS):
        dialog.library.import_file(make_gguf(tmp_path / "good.gguf"))
    qtbot.waitUntil(lambda: dialog.banner.notices() == [], timeout=WAIT_MS)
