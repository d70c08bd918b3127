"""Reading files into documents: each supported format, its places, and a clear refusal for the rest."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import docx
import pypdf
import pytest

from app.core.documents.document import LineUnit
from app.core.documents.formats import DocumentKind
from app.core.documents.readers import DocumentError, ReadProblem, read_document
from tests.core.documents.pdfs import text_pdf


def refusal(path: Path) -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        read_document(path)
    return caught.value


def test_a_text_file_keeps_its_lines_and_a_span_knows_them(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("first line\nsecond line\r\nthird line\n", encoding="utf-8")

    document = read_document(path)

    assert document.kind is DocumentKind.TEXT
    assert document.text == "first line\nsecond line\nthird line\n"
    start = document.text.index("second")
    place = document.place(start, document.text.index("third") + 5)
    assert (place.line_start, place.line_end, place.page_start) == (2, 3, None)
    assert place.describe() == "lines 2–3"


def test_text_in_windows_1252_and_utf_16_is_decoded(tmp_path: Path) -> None:
    latin = tmp_path / "café.md"
    latin.write_bytes("Crème brûlée – 5 €".encode("cp1252"))
    wide = tmp_path / "wide.txt"
    wide.write_bytes("Grüße aus Zürich".encode("utf-16"))

    assert read_document(latin).text == "Crème brûlée – 5 €"
    assert read_document(latin).kind is DocumentKind.MARKDOWN
    assert read_document(wide).text == "Grüße aus Zürich"


def test_source_code_and_restructured_text_are_read_as_text(tmp_path: Path) -> None:
    code = tmp_path / "tool.py"
    code.write_text("def main():\n    return 42\n")
    rst = tmp_path / "guide.rst"
    rst.write_text("Title\n=====\n\nBody.\n")
    makefile = tmp_path / "Makefile"
    makefile.write_text("all:\n\techo hi\n")

    assert read_document(code).kind is DocumentKind.SOURCE_CODE
    assert read_document(rst).kind is DocumentKind.RESTRUCTURED_TEXT
    assert read_document(makefile).kind is DocumentKind.SOURCE_CODE


def test_html_gives_its_text_without_scripts_and_styles_and_with_source_lines(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_text(
        "<html><head><title>The Title</title><style>p { color: red }</style>\n"
        "<script>alert('no')</script></head>\n"
        "<body>\n"
        "<h1>Heading &amp; more</h1>\n"
        "<p>First    paragraph\nwraps here.</p>\n"
        "<ul><li>one</li><li>two</li></ul>\n"
        "<table><tr><td>a</td><td>b</td></tr></table>\n"
        "</body></html>\n"
    )

    document = read_document(path)

    assert "alert" not in document.text and "color" not in document.text
    assert "The Title" in document.text
    assert "Heading & more" in document.text
    assert "First paragraph wraps here." in document.text
    assert "one\ntwo" in document.text
    assert "a | b" in document.text
    paragraph = document.text.index("First")
    assert document.place(paragraph, paragraph + 5).line_start == 5


def test_a_pdf_gives_its_pages(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(text_pdf(["The first page talks about apples.", "The second page talks about pears."]))

    document = read_document(path)

    pears = document.text.index("pears")
    assert document.place(pears, pears + 5).page_start == 2
    assert document.place(0, len(document.text)).describe() == "pages 1–2"


def test_a_damaged_pdf_is_refused_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a pdf at all\n%%EOF")

    error = refusal(path)

    assert error.problem is ReadProblem.DAMAGED
    assert not error.problem.skipped
    assert "broken.pdf" in str(error)


@pytest.mark.expected_log("pypdf._reader", logging.WARNING, r"invalid pdf header|EOF marker not found")
def test_a_file_named_pdf_that_is_not_one_is_refused_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "fake.pdf"
    path.write_text("hello, I am text")

    assert refusal(path).problem is ReadProblem.DAMAGED


def test_a_password_protected_pdf_is_refused_and_says_so(tmp_path: Path) -> None:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(text_pdf(["secret plans"]))))
    writer.encrypt(user_password="open sesame", algorithm="AES-128")
    path = tmp_path / "locked.pdf"
    with path.open("wb") as out:
        writer.write(out)

    error = refusal(path)

    assert error.problem is ReadProblem.ENCRYPTED
    assert "password" in error.reason


def test_a_pdf_encrypted_with_an_empty_password_is_read(tmp_path: Path) -> None:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(text_pdf(["open to all"]))))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    path = tmp_path / "restricted.pdf"
    with path.open("wb") as out:
        writer.write(out)

    assert "open to all" in read_document(path).text


def test_a_docx_gives_its_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    made = docx.Document()
    made.add_heading("Quarterly report", level=1)
    made.add_paragraph("Revenue grew in the north.")
    table = made.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Region"
    table.rows[0].cells[1].text = "North"
    made.add_paragraph("Costs fell.")
    path = tmp_path / "report.docx"
    made.save(str(path))

    document = read_document(path)

    assert document.kind is DocumentKind.DOCX
    assert document.unit is LineUnit.PARAGRAPH
    assert document.text.index("Quarterly") < document.text.index("Region | North") < document.text.index("Costs")
    costs = document.text.index("Costs")
    assert document.place(costs, costs + 5).describe() == "paragraph 4"


def test_a_damaged_docx_is_refused_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "old.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)  # an OLE file: a .doc renamed

    error = refusal(path)

    assert error.problem is ReadProblem.DAMAGED
    assert "DOCX" in error.reason


@pytest.mark.parametrize(
    ("name", "words"),
    [("photo.jpg", "images"), ("book.epub", "e-books"), ("old.doc", "DOCX"), ("data.xyz", "Glassbox reads")],
)
def test_other_files_are_refused_with_the_reason(tmp_path: Path, name: str, words: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"whatever")

    error = refusal(path)

    assert error.problem is ReadProblem.UNSUPPORTED
    assert error.problem.skipped
    assert words in error.reason


def test_an_empty_file_a_binary_text_file_and_a_missing_file_each_get_their_own_status(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x00\x01\x02 not text")

    assert refusal(empty).problem is ReadProblem.NO_TEXT
    assert refusal(binary).problem is ReadProblem.DAMAGED
    assert refusal(tmp_path / "gone.txt").problem is ReadProblem.UNREADABLE
