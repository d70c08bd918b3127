"""The indexer: a folder of mixed files, each with its status; rescans after changes; cancel; embeddings."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

import docx
import pytest

from app.core.documents import indexer as indexer_module
from app.core.documents.embedding_process import EmbeddingProcess
from app.core.documents.index import DocumentIndex, SourceStatus
from app.core.documents.indexer import FileStatus, Indexer, IndexProgress, Stage
from tests.core.documents.embedders import WordCountEmbedder
from tests.core.documents.pdfs import text_pdf


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "chats.sqlite3"


@pytest.fixture
def collection(db: Path) -> int:
    with DocumentIndex(db) as index:
        return index.create_collection("papers").id


def statuses(report: object) -> dict[str, tuple[FileStatus, str]]:
    return {r.path.name: (r.status, r.reason) for r in report.results}  # type: ignore[attr-defined]


def found(db: Path, collection: int, question: str) -> list[str]:
    with DocumentIndex(db) as index:
        hits = index.keyword_search(question, [collection], 10)
        return [Path(chunk.uri).name for chunk in index.chunks([h.chunk_id for h in hits])]


def make_folder(folder: Path) -> Path:
    folder.mkdir()
    (folder / "notes.txt").write_text("The lighthouse keeper counts ships at night.\n")
    (folder / "guide.md").write_text("# Guide\n\nPaint the fence before the winter rains.\n")
    (folder / "paper.pdf").write_bytes(text_pdf(["Glaciers retreat faster every decade."]))
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n%%EOF garbage")
    made = docx.Document()
    made.add_paragraph("The orchard gives plums in August.")
    made.save(str(folder / "letter.docx"))
    (folder / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "empty.txt").write_text("")
    (folder / ".hidden.txt").write_text("never indexed")
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.rst").write_text("Volcanoes\n=========\n\nMagma rises.\n")
    return folder


def test_a_folder_of_mixed_files_gets_a_status_for_each_file_and_the_text_is_searchable(
    db: Path, collection: int, tmp_path: Path
) -> None:
    folder = make_folder(tmp_path / "docs")
    seen: list[IndexProgress] = []

    report = Indexer(db).add(collection, [folder], progress=seen.append)

    status = statuses(report)
    for name in ("notes.txt", "guide.md", "paper.pdf", "letter.docx", "deep.rst"):
        assert status[name] == (FileStatus.INDEXED, ""), name
    assert status["broken.pdf"][0] is FileStatus.FAILED and "damaged" in status["broken.pdf"][1]
    assert status["photo.png"][0] is FileStatus.SKIPPED and "images" in status["photo.png"][1]
    assert status["empty.txt"][0] is FileStatus.SKIPPED
    assert ".hidden.txt" not in status
    assert found(db, collection, "glaciers") == ["paper.pdf"]
    assert found(db, collection, "plums orchard") == ["letter.docx"]
    assert found(db, collection, "magma") == ["deep.rst"]
    indexing = [p for p in seen if p.stage is Stage.INDEXING]
    assert [p.done for p in indexing] == list(range(1, 9)) and {p.total for p in indexing} == {8}
    assert seen[0].stage is Stage.SCANNING and seen[-1].stage is Stage.DONE
    with DocumentIndex(db) as index:
        assert index.roots(collection) == [folder]
        stats = index.stats(collection)
    assert (stats.indexed, stats.skipped, stats.failed) == (5, 2, 1)


def test_a_rescan_reindexes_changed_files_drops_deleted_ones_and_leaves_the_rest(
    db: Path, collection: int, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("apples are red")
    (folder / "b.txt").write_text("bananas are yellow")
    (folder / "c.txt").write_text("cherries are dark")
    indexer = Indexer(db)
    indexer.add(collection, [folder])

    (folder / "a.txt").write_text("apricots are orange now")
    (folder / "b.txt").unlink()
    os.utime(folder / "c.txt", (1_000_000, 1_000_000))  # touched, same content
    (folder / "d.txt").write_text("dates are sweet")
    report = indexer.rescan(collection)

    assert statuses(report) == {
        "a.txt": (FileStatus.INDEXED, ""),
        "b.txt": (FileStatus.REMOVED, ""),
        "c.txt": (FileStatus.UNCHANGED, ""),
        "d.txt": (FileStatus.INDEXED, ""),
    }
    assert found(db, collection, "apples") == []
    assert found(db, collection, "apricots") == ["a.txt"]
    assert found(db, collection, "bananas") == []
    assert found(db, collection, "dates") == ["d.txt"]
    again = indexer.rescan(collection)
    assert {r.status for r in again.results} == {FileStatus.UNCHANGED}, "nothing is read twice"


def test_cancel_between_files_keeps_what_was_done_and_the_next_rescan_finishes(
    db: Path, collection: int, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(6):
        (folder / f"{i}.txt").write_text(f"file number{i} of six")
    cancel = threading.Event()

    def cancel_after_two(progress: IndexProgress) -> None:
        if progress.stage is Stage.INDEXING and progress.done == 2:
            cancel.set()

    report = Indexer(db).add(collection, [folder], progress=cancel_after_two, cancel=cancel)

    assert report.cancelled
    assert [r.path.name for r in report.results] == ["0.txt", "1.txt"]
    assert found(db, collection, "number1") == ["1.txt"]
    assert found(db, collection, "number4") == []
    rest = Indexer(db).rescan(collection)
    assert [r.status for r in rest.results] == [FileStatus.UNCHANGED] * 2 + [FileStatus.INDEXED] * 4
    assert found(db, collection, "number4") == ["4.txt"]


def test_cancel_pressed_while_a_file_is_read_stops_there_and_leaves_it_as_it_was(
    db: Path, collection: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha")
    (folder / "b.txt").write_text("beta " * 2000)
    cancel = threading.Event()
    parse = indexer_module.parse_document

    def parse_as_cancel_is_pressed(path: Path, *args: object) -> object:
        if path.name == "b.txt":
            cancel.set()
        return parse(path, *args)

    monkeypatch.setattr(indexer_module, "parse_document", parse_as_cancel_is_pressed)
    report = Indexer(db, chunk_tokens=64, overlap_tokens=0).add(collection, [folder], cancel=cancel)
    monkeypatch.undo()

    assert report.cancelled
    assert [r.path.name for r in report.results] == ["a.txt"]
    assert found(db, collection, "beta") == []
    assert statuses(Indexer(db).rescan(collection))["b.txt"] == (FileStatus.INDEXED, "")


def test_cancel_during_embedding_leaves_the_file_in_hand_as_it_was(db: Path, collection: int, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("alpha")
    (folder / "b.txt").write_text("beta")
    cancel = threading.Event()
    embedder = WordCountEmbedder(["alpha", "beta"])
    real_embed = embedder.embed

    def embed_then_cancel(texts: list[str], event: threading.Event | None = None) -> object:
        rows = real_embed(texts, event)
        cancel.set()  # the user presses Cancel while the first file's vectors are made
        return rows

    embedder.embed = embed_then_cancel  # type: ignore[method-assign]
    report = Indexer(db, embedder).add(collection, [folder], cancel=cancel)

    assert report.cancelled
    assert [r.path.name for r in report.results] == ["a.txt"]
    assert found(db, collection, "beta") == []


def test_a_file_that_changes_while_it_is_read_fails_and_is_read_at_the_next_rescan(
    db: Path, collection: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    growing = folder / "log.txt"
    growing.write_text("first line")
    parse = indexer_module.parse_document

    def parse_while_another_program_writes(path: Path, *args: object) -> object:
        document = parse(path, *args)
        with path.open("a") as file:
            file.write("\nsecond line, written meanwhile")
        return document

    monkeypatch.setattr(indexer_module, "parse_document", parse_while_another_program_writes)
    report = Indexer(db).add(collection, [folder])
    monkeypatch.undo()

    assert statuses(report)["log.txt"][0] is FileStatus.FAILED
    assert "changed while it was being read" in statuses(report)["log.txt"][1]
    assert statuses(Indexer(db).rescan(collection))["log.txt"] == (FileStatus.INDEXED, "")
    assert found(db, collection, "meanwhile") == ["log.txt"]


def test_adding_a_path_that_is_not_there_says_so_and_does_not_keep_it(
    db: Path, collection: int, tmp_path: Path
) -> None:
    report = Indexer(db).add(collection, [tmp_path / "nowhere"])

    assert [(r.path.name, r.status) for r in report.results] == [("nowhere", FileStatus.FAILED)]
    with DocumentIndex(db) as index:
        assert index.roots(collection) == []


def test_a_missing_folder_keeps_its_files_and_says_so(db: Path, collection: int, tmp_path: Path) -> None:
    folder = tmp_path / "usb-drive"
    folder.mkdir()
    (folder / "a.txt").write_text("portable notes")
    Indexer(db).add(collection, [folder])
    (folder / "a.txt").rename(tmp_path / "a.txt")
    folder.rmdir()

    report = Indexer(db).rescan(collection)

    assert statuses(report) == {"usb-drive": (FileStatus.FAILED, statuses(report)["usb-drive"][1])}
    assert "is not there" in statuses(report)["usb-drive"][1]
    assert found(db, collection, "portable") == ["a.txt"]


def test_with_an_embedder_chunks_get_vectors_and_older_chunks_get_theirs_at_the_next_rescan(
    db: Path, collection: int, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "sea.txt").write_text("the sea and the boat")
    Indexer(db).add(collection, [folder])  # no embedding model yet
    (folder / "hill.txt").write_text("the hill and the goat")
    embedder = WordCountEmbedder(["sea", "boat", "hill", "goat"])

    report = Indexer(db, embedder).rescan(collection)

    assert report.embedded == 1, "sea.txt, indexed before the model was set, got its vector at the end"
    with DocumentIndex(db) as index:
        assert index.stats(collection).vectors == 2
        hits = index.vector_search([0, 0, 1, 1], embedder.model_key, [collection], 1)
        assert Path(index.chunks([hits[0].chunk_id])[0].uri).name == "hill.txt"


@pytest.mark.expected_log("app.core.documents.indexer", logging.WARNING, r"Embeddings could not be made")
def test_when_embeddings_fail_indexing_goes_on_with_full_text_search(db: Path, collection: int, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(f"text of {name}")

    report = Indexer(db, WordCountEmbedder(["text"], fail_after=1)).add(collection, [folder])

    assert [r.status for r in report.results] == [FileStatus.INDEXED] * 3
    assert "exit code 1" in report.embedding_error
    with DocumentIndex(db) as index:
        assert index.stats(collection).vectors == 1
        assert {s.status for s in index.sources(collection)} == {SourceStatus.INDEXED}


def test_the_starter_model_embeds_a_folder_through_the_embedding_process(
    db: Path, collection: int, tmp_path: Path, starter_model: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "cats.txt").write_text("Cats purr when they are content and sleep most of the day.")
    (folder / "tax.txt").write_text("The tax office sends the annual return form in spring.")
    embedder = EmbeddingProcess(starter_model, n_threads=2)
    try:
        report = Indexer(db, embedder).add(collection, [folder])
        question = embedder.embed(["Cats purr when they are content and sleep most of the day."])[0]
    finally:
        embedder.close()

    assert report.embedding_error == ""
    with DocumentIndex(db) as index:
        assert index.stats(collection).vectors == 2
        hits = index.vector_search(question, embedder.model_key, [collection], 2)
        assert Path(index.chunks([hits[0].chunk_id])[0].uri).name == "cats.txt"
        assert hits[0].similarity == pytest.approx(1.0, abs=1e-4)


needs_fifo_and_dev_zero = pytest.mark.skipif(
    not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="named pipes and /dev/zero are POSIX things"
)


@needs_fifo_and_dev_zero
@pytest.mark.timeout(60)  # a pipe blocked the open, a device was hashed for ever: a hang is a failure here
def test_a_pipe_and_a_link_to_a_device_in_a_watched_folder_are_left_out_with_why_and_the_rest_is_indexed(
    db: Path, collection: int, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("The lighthouse keeper counts ships at night.\n")
    Indexer(db).add(collection, [folder])
    os.mkfifo(folder / "x.txt")
    (folder / "zeros.txt").symlink_to("/dev/zero")
    (folder / "tides.txt").write_text("High tide comes twice a day.\n")

    report = Indexer(db).rescan(collection)  # what a change in a watched folder starts by itself

    found_statuses = statuses(report)
    assert found_statuses["x.txt"][0] is FileStatus.SKIPPED and "named pipe" in found_statuses["x.txt"][1]
    assert found_statuses["zeros.txt"][0] is FileStatus.SKIPPED and "device" in found_statuses["zeros.txt"][1]
    assert found_statuses["tides.txt"] == (FileStatus.INDEXED, "")
    assert found(db, collection, "tide") == ["tides.txt"]
    assert {r.status for r in Indexer(db).rescan(collection).results} == {FileStatus.UNCHANGED}


@needs_fifo_and_dev_zero
@pytest.mark.timeout(60)
def test_a_pipe_or_a_link_to_a_device_added_by_itself_gets_its_reason(
    db: Path, collection: int, tmp_path: Path
) -> None:
    pipe = tmp_path / "x.txt"
    os.mkfifo(pipe)
    link = tmp_path / "zeros.md"
    link.symlink_to("/dev/zero")

    report = Indexer(db).add(collection, [pipe, link])

    assert {name: status for name, (status, _why) in statuses(report).items()} == {
        "x.txt": FileStatus.SKIPPED,
        "zeros.md": FileStatus.SKIPPED,
    }
    assert "named pipe" in statuses(report)["x.txt"][1] and "device" in statuses(report)["zeros.md"][1]
