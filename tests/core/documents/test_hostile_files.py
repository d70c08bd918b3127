"""Files that would hold, flood or fool the reader: each is refused or read at once, with the reason.

Every file is made in the test and small on disk (a file over the size limit is sparse, a
zip bomb is a megabyte of packed zeros); the time limit turns a hang back into a failure.
"""

from __future__ import annotations

import io
import os
import random
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
import pytest

from app.core.documents import file_bytes, zip_limits
from app.core.documents.file_bytes import MAX_FILE_BYTES
from app.core.documents.formats import DocumentKind
from app.core.documents.read_problems import DocumentError, ReadCancelled, ReadProblem
from app.core.documents.readers import parse_document, read_document
from tests.core.documents.pdfs import text_pdf

pytestmark = pytest.mark.timeout(60)
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
needs_dev_zero = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")


def refusal(path: Path) -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        read_document(path)
    return caught.value


def cancelled_after(asks: int) -> Callable[[], bool]:
    """A Cancel that says 'stop' from its `asks + 1`-th question on."""
    count = 0

    def cancelled() -> bool:
        nonlocal count
        count += 1
        return count > asks

    return cancelled


@needs_fifo
def test_a_named_pipe_called_txt_is_left_out_at_once_and_says_why(tmp_path: Path) -> None:
    pipe = tmp_path / "x.txt"
    os.mkfifo(pipe)

    error = refusal(pipe)

    assert error.problem is ReadProblem.NOT_A_FILE and error.problem.skipped
    assert "named pipe" in error.reason


@needs_dev_zero
def test_a_link_to_a_device_is_left_out_at_once_and_says_why(tmp_path: Path) -> None:
    link = tmp_path / "zeros.txt"
    link.symlink_to("/dev/zero")

    error = refusal(link)

    assert error.problem is ReadProblem.NOT_A_FILE
    assert "device" in error.reason


@needs_fifo
def test_a_pipe_swapped_in_after_the_type_check_does_not_block_the_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipe = tmp_path / "notes.txt"
    os.mkfifo(pipe)
    check = file_bytes.refuse_what_is_not_a_file
    checks: list[Path] = []

    def first_check_sees_a_regular_file(path: Path, status: os.stat_result) -> None:
        checks.append(path)
        if len(checks) > 1:  # the check on the open file: the pipe is there by now
            check(path, status)

    monkeypatch.setattr(file_bytes, "refuse_what_is_not_a_file", first_check_sees_a_regular_file)

    assert refusal(pipe).problem is ReadProblem.NOT_A_FILE
    assert len(checks) == 2


def test_a_file_one_byte_over_the_limit_says_by_how_much(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    with path.open("wb") as sparse:
        sparse.truncate(MAX_FILE_BYTES + 1)

    error = refusal(path)

    assert error.problem is ReadProblem.TOO_LARGE
    assert error.reason.startswith("The file is 200 MiB, 1 B over the 200 MiB Glassbox reads at most.")


def test_cancel_stops_the_read_of_a_file_between_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_bytes, "READ_BLOCK", 16)
    path = tmp_path / "long.txt"
    path.write_text("a line of text\n" * 100)

    with pytest.raises(ReadCancelled):
        read_document(path, cancelled_after(3))


def test_cancel_stops_a_pdf_between_pages(tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    data = text_pdf(["Chapter one", "Chapter two", "Chapter three"])

    with pytest.raises(ReadCancelled):
        parse_document(path, DocumentKind.PDF, data, cancelled_after(1))


def test_cancel_stops_a_docx_between_paragraphs(tmp_path: Path) -> None:
    made = docx.Document()
    for number in range(5):
        made.add_paragraph(f"Paragraph {number}.")
    packed = io.BytesIO()
    made.save(packed)

    with pytest.raises(ReadCancelled):
        parse_document(tmp_path / "long.docx", DocumentKind.DOCX, packed.getvalue(), cancelled_after(2))


# ---- text that is not text, and text that looks binary -------------------------------------


def test_random_bytes_without_a_zero_byte_are_refused_as_binary_not_indexed_as_mojibake(tmp_path: Path) -> None:
    noise = random.Random(26).randbytes(64 * 1024).replace(b"\x00", b"\x01")
    path = tmp_path / "notes.txt"
    path.write_bytes(noise)

    error = refusal(path)

    assert error.problem is ReadProblem.DAMAGED
    assert "binary" in error.reason


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf_16_without_a_byte_order_mark_is_read_as_text(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "wide.txt"
    path.write_bytes("Grüße aus Zürich, 模型说明 and more words.\n".encode(encoding))

    assert read_document(path).text == "Grüße aus Zürich, 模型说明 and more words.\n"


def test_text_with_colour_codes_page_breaks_and_accents_is_still_text(tmp_path: Path) -> None:
    path = tmp_path / "build.log"
    lines = ["\x1b[32mok\x1b[0m café – compiled", "\x0cpage two\x08", "\x1b[31mfailed\x1b[0m naïve test"]
    path.write_bytes("\n".join(lines * 50).encode("cp1252"))

    assert "café" in read_document(path).text


# ---- zip bombs ------------------------------------------------------------------------------


def docx_with_document_xml(path: Path, inflated_bytes: int) -> None:
    """A real DOCX whose word/document.xml is padded with blanks to `inflated_bytes`, written in blocks."""
    made = docx.Document()
    made.add_paragraph("A letter.")
    packed = io.BytesIO()
    made.save(packed)
    with zipfile.ZipFile(packed) as original, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        for member in original.infolist():
            content = original.read(member)
            if member.filename != "word/document.xml":
                out.writestr(member, content)
                continue
            body = content.index(b"<w:body>") + len(b"<w:body>")
            blanks = inflated_bytes - len(content)
            with out.open("word/document.xml", "w", force_zip64=True) as document:
                document.write(content[:body])
                block = b" " * (1 << 20)
                for _ in range(blanks // len(block)):
                    document.write(block)
                document.write(b" " * (blanks % len(block)))
                document.write(content[body:])


def test_a_docx_whose_document_inflates_to_hundreds_of_megabytes_is_refused_before_it_is_parsed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bomb.docx"
    docx_with_document_xml(path, 320 * 1024 * 1024)
    assert path.stat().st_size < 4 * 1024 * 1024

    tracemalloc.start()
    try:
        error = refusal(path)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert error.problem is ReadProblem.DAMAGED
    assert "word/document.xml" in error.reason and "zip bomb" in error.reason
    assert peak < 32 * 1024 * 1024  # the packed file and some change, never the inflated part


def test_a_docx_part_over_the_part_limit_is_refused_with_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(zip_limits, "MAX_PART_BYTES", 64 * 1024)
    path = tmp_path / "long.docx"
    docx_with_document_xml(path, 100 * 1024)  # blanks pack well, but under the ratio's floor

    error = refusal(path)

    assert error.problem is ReadProblem.TOO_LARGE
    assert "word/document.xml" in error.reason and "64.0 KiB" in error.reason


def test_a_docx_whose_parts_together_inflate_past_the_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(zip_limits, "MAX_INFLATED_BYTES", 64 * 1024)
    path = tmp_path / "many.docx"
    docx_with_document_xml(path, 60 * 1024)  # with the other parts: over 64 KiB

    error = refusal(path)

    assert error.problem is ReadProblem.TOO_LARGE
    assert "64.0 KiB" in error.reason


def test_a_docx_of_more_parts_than_the_limit_is_refused_before_its_directory_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(zip_limits, "MAX_MEMBERS", 40)
    path = tmp_path / "crowded.docx"
    docx_with_document_xml(path, 1024)
    with zipfile.ZipFile(path, "a") as crowded:
        for number in range(40):
            crowded.writestr(f"word/crowd/part{number}.xml", b"")

    error = refusal(path)

    assert error.problem is ReadProblem.TOO_LARGE
    assert "parts" in error.reason and "up to 40 parts" in error.reason


def test_a_docx_within_the_limits_is_read(tmp_path: Path) -> None:
    path = tmp_path / "letter.docx"
    docx_with_document_xml(path, 200 * 1024)

    assert read_document(path).text == "A letter.\n\n"
