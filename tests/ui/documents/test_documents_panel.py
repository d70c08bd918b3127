"""The Documents panel as a user meets it: add a folder, see each file's status, cancel, rescan after a change."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from app.core.documents import indexer as indexer_module
from app.core.documents.embeddings import EmbeddingCancelled
from app.core.documents.formats import DocumentKind
from app.core.documents.index import DocumentIndex
from app.core.documents.indexer import IndexReport
from app.core.documents.read_problems import Cancelled, ReadCancelled
from app.core.documents.vectors import Matrix
from app.core.models.library import InstalledModel
from app.ui.documents.panel import DocumentsPanel
from app.ui.documents.workers import OWN, DocumentsState, DocumentsThreads
from app.ui.llm.retrieval import SharedEmbedder
from tests.core.documents.pdfs import text_pdf

CHAT = "chat-1"
TIMEOUT_MS = 30_000
DAMAGED_PDF = pytest.mark.expected_log("pypdf._reader", logging.WARNING, r"invalid pdf header|EOF marker not found")


class GateEmbedder:
    """Makes no vector until Cancel: `entered` says a run is waiting in it."""

    model_key = "gate|2"

    def __init__(self) -> None:
        self.entered = threading.Event()

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        self.entered.set()
        assert cancel is not None
        if cancel.wait(TIMEOUT_MS / 1000):
            raise EmbeddingCancelled("Embedding was cancelled.")
        return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "chats.db"


@pytest.fixture
def embedder() -> Iterator[SharedEmbedder]:
    shared = SharedEmbedder()
    yield shared
    shared.close()


@pytest.fixture
def panel(qtbot: QtBot, db: Path, embedder: SharedEmbedder) -> Iterator[DocumentsPanel]:
    threads = DocumentsThreads(db, embedder)
    shown = DocumentsPanel(threads, embedder, lambda: [])
    qtbot.addWidget(shown)
    with qtbot.waitSignal(shown.stateShown, timeout=TIMEOUT_MS):
        shown.set_chat(CHAT)
    yield shown
    threads.request_stop()
    for thread in threads.threads:
        thread.wait()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lighthouse.md").write_text("# The lighthouse\n\nThe keeper climbs 132 steps every evening.\n")
    (docs / "recipes.txt").write_text("Bread needs flour, water, salt and yeast.\n")
    (docs / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (docs / "broken.pdf").write_bytes(text_pdf(["Page one"])[:60])  # cut off: a damaged PDF
    return docs


def index(panel: DocumentsPanel, qtbot: QtBot, paths: Sequence[Path] = ()) -> IndexReport:
    """Add `paths` (or rescan) and wait until the run is done and the panel shows the state after it."""
    reports: list[IndexReport] = []
    panel.indexingDone.connect(reports.append)
    with qtbot.waitSignals([panel.indexingDone, panel.stateShown], timeout=TIMEOUT_MS):
        if paths:
            panel.add_paths(paths)
        else:
            panel.rescan_selected()
    panel.indexingDone.disconnect(reports.append)
    assert not panel.is_indexing
    return reports[0]


@DAMAGED_PDF
def test_adding_a_folder_lists_every_file_with_its_status_and_the_reason_for_the_ones_not_indexed(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path
) -> None:
    report = index(panel, qtbot, [folder])

    assert not report.cancelled
    statuses = panel.file_list.statuses()
    assert statuses[str(folder / "lighthouse.md")] == ("indexed", "")
    assert statuses[str(folder / "recipes.txt")] == ("indexed", "")
    status, why = statuses[str(folder / "photo.png")]
    assert status == "skipped" and "images" in why
    status, why = statuses[str(folder / "broken.pdf")]
    assert status == "failed" and "PDF" in why
    assert "2 indexed, 1 skipped, 1 failed" in panel.summary.text()
    assert panel.progress.isHidden() and panel.cancel_button.isHidden()


def test_a_named_collection_is_created_attached_to_the_chat_and_can_be_detached(
    panel: DocumentsPanel, qtbot: QtBot, db: Path
) -> None:
    with qtbot.waitSignal(panel.stateShown, timeout=TIMEOUT_MS) as shown:
        panel.create_collection("Handbooks")
    state: DocumentsState = shown.args[0]
    assert [(e.collection.name, e.attached) for e in state.named] == [("Handbooks", True)]
    item = panel.collection_list.item(1)
    assert item.text() == "Handbooks"
    with qtbot.waitSignal(panel.stateShown, timeout=TIMEOUT_MS) as shown:
        item.setCheckState(item.checkState().Unchecked)
    assert [e.attached for e in shown.args[0].named] == [False]
    with DocumentIndex(db) as documents:
        assert documents.chat_collections(CHAT) == []


@DAMAGED_PDF
def test_cancel_stops_indexing_mid_run_and_keeps_the_file_in_hand_as_it_was(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path, embedder: SharedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = GateEmbedder()
    monkeypatch.setattr(embedder, "current", lambda: gate)
    with qtbot.waitSignal(panel.indexingDone, timeout=TIMEOUT_MS) as done:
        panel.add_paths([folder])
        qtbot.waitUntil(gate.entered.is_set, timeout=TIMEOUT_MS)
        assert panel.is_indexing and not panel.cancel_button.isHidden()
        panel.cancel()
    assert done.args[0].cancelled
    assert "cancelled" in panel.status.text()
    qtbot.waitUntil(lambda: not panel.is_indexing and panel.entry(OWN) is not None, timeout=TIMEOUT_MS)
    assert str(folder / "lighthouse.md") not in panel.file_list.statuses()  # the file in hand was left as it was

    monkeypatch.setattr(embedder, "current", lambda: None)  # keyword search alone from here on
    report = index(panel, qtbot)
    assert not report.cancelled
    assert panel.file_list.statuses()[str(folder / "lighthouse.md")] == ("indexed", "")


@DAMAGED_PDF
def test_a_rescan_reads_a_changed_file_again_and_drops_a_deleted_one(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path, db: Path
) -> None:
    index(panel, qtbot, [folder])
    (folder / "lighthouse.md").write_text("# The lighthouse\n\nThe keeper now takes the new elevator.\n")
    (folder / "recipes.txt").unlink()

    index(panel, qtbot)

    statuses = panel.file_list.statuses()
    assert str(folder / "recipes.txt") not in statuses
    assert statuses[str(folder / "lighthouse.md")] == ("indexed", "")
    with DocumentIndex(db) as documents:
        own = documents.own_collection(CHAT).id
        assert documents.keyword_search("elevator", [own], 5)
        assert not documents.keyword_search("steps", [own], 5)
        assert not documents.keyword_search("yeast", [own], 5)
    assert panel.entry(OWN) is not None


@DAMAGED_PDF
def test_removing_a_folder_takes_its_files_out_of_the_collection(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path
) -> None:
    index(panel, qtbot, [folder])
    assert panel.remove_button.isEnabled()
    with qtbot.waitSignal(panel.stateShown, timeout=TIMEOUT_MS) as shown:
        panel.remove_root(folder)
    entry = shown.args[0].own
    assert entry is not None and entry.roots == () and entry.sources == ()
    assert panel.file_list.statuses() == {}
    assert folder.is_dir() and (folder / "recipes.txt").exists()  # the files themselves stay


def test_choosing_an_embedding_model_gives_the_indexed_chunks_vectors(
    qtbot: QtBot, db: Path, embedder: SharedEmbedder, tmp_path: Path, starter_model: Path
) -> None:
    threads = DocumentsThreads(db, embedder)
    starter = InstalledModel(starter_model.stem, starter_model, starter_model.stat().st_size, is_starter=True)
    panel = DocumentsPanel(threads, embedder, lambda: [starter])
    qtbot.addWidget(panel)
    try:
        with qtbot.waitSignal(panel.stateShown, timeout=TIMEOUT_MS):
            panel.set_chat(CHAT)
        docs = tmp_path / "plain"
        docs.mkdir()
        (docs / "a.txt").write_text("The keeper climbs the stairs of the lighthouse.")
        index(panel, qtbot, [docs])
        assert panel.embedding_picker.currentText().startswith("None")
        entry = panel.entry(OWN)
        assert entry is not None and entry.stats.vectors == 0

        panel.embedding_picker.setCurrentIndex(1)
        with qtbot.waitSignal(panel.indexingDone, timeout=120_000):
            panel.embedding_picker.activated.emit(1)  # as a click on the model does
        qtbot.waitUntil(lambda: not panel.is_indexing, timeout=TIMEOUT_MS)

        def vectors() -> int:
            own = panel.entry(OWN)
            return own.stats.vectors if own is not None else 0

        qtbot.waitUntil(lambda: vectors() > 0, timeout=TIMEOUT_MS)
        state = panel.state
        assert state is not None
        assert state.embedding_model == starter_model
        assert embedder.model_path == starter_model
        assert state.own is not None and state.own.stats.vectors == state.own.stats.chunks > 0
        assert panel.embedding_picker.currentText() == starter_model.name
    finally:
        threads.request_stop()
        for thread in threads.threads:
            thread.wait()


@DAMAGED_PDF
def test_a_file_saved_into_a_watched_folder_is_indexed_without_asking(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path
) -> None:
    index(panel, qtbot, [folder])
    assert str(folder) in panel.folder_watch.watcher.directories()
    with qtbot.waitSignals([panel.indexingDone, panel.stateShown], timeout=TIMEOUT_MS):
        (folder / "tides.txt").write_text("High tide comes twice a day.\n")
    assert panel.file_list.statuses()[str(folder / "tides.txt")] == ("indexed", "")


@DAMAGED_PDF
@pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="named pipes and /dev/zero are POSIX things"
)
def test_a_pipe_and_a_link_to_a_device_saved_into_a_watched_folder_are_left_out_with_why(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path
) -> None:
    index(panel, qtbot, [folder])
    with qtbot.waitSignals([panel.indexingDone, panel.stateShown], timeout=TIMEOUT_MS):
        os.mkfifo(folder / "x.txt")
        (folder / "zeros.txt").symlink_to("/dev/zero")
        (folder / "tides.txt").write_text("High tide comes twice a day.\n")

    statuses = panel.file_list.statuses()
    assert statuses[str(folder / "tides.txt")] == ("indexed", "")
    status, why = statuses[str(folder / "x.txt")]
    assert status == "skipped" and "named pipe" in why
    status, why = statuses[str(folder / "zeros.txt")]
    assert status == "skipped" and "device" in why


def test_closing_the_window_reaches_the_file_being_read(
    panel: DocumentsPanel, qtbot: QtBot, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered = threading.Event()
    saw_cancel: list[bool] = []

    def parse_until_cancelled(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled) -> object:
        entered.set()
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while not cancelled() and time.monotonic() < deadline:
            time.sleep(0.01)
        saw_cancel.append(cancelled())
        raise ReadCancelled()

    monkeypatch.setattr(indexer_module, "parse_document", parse_until_cancelled)
    panel.add_paths([folder])
    qtbot.waitUntil(entered.is_set, timeout=TIMEOUT_MS)

    panel.threads.request_stop()  # what closing the window does

    assert all(thread.wait(TIMEOUT_MS) for thread in panel.threads.threads)
    assert saw_cancel == [True]
