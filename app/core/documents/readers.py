"""Read a file into a Document, or say clearly why it cannot be read.

Every failure is a `DocumentError` with a problem kind and a sentence for the person who
added the file; nothing here raises anything else for a bad file, so one damaged PDF
never stops the files after it. Text is decoded as UTF-8 (with or without a byte-order
mark) or UTF-16 with a BOM, then Windows-1252, then Latin-1, which cannot fail.
"""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

import docx
import pypdf
from docx.document import Document as DocxDocument
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from pypdf.errors import DependencyError, PdfReadError

from app.core.documents.document import Document, LineUnit, TextBuilder
from app.core.documents.formats import DocumentKind, document_kind, refusal_reason
from app.core.documents.html_text import HtmlText

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 200 * 1024 * 1024  # larger files are refused: reading one would hold the index for minutes
_BINARY_SNIFF = 8192


class ReadProblem(str, Enum):
    UNSUPPORTED = "unsupported"  # not a format Glassbox reads
    NO_TEXT = "no text"  # readable, but nothing to index (empty, or a scanned PDF without a text layer)
    TOO_LARGE = "too large"
    UNREADABLE = "unreadable"  # the file system refused (permissions, gone, a folder)
    DAMAGED = "damaged"  # not what its name says, or broken inside
    ENCRYPTED = "encrypted"  # needs a password

    @property
    def skipped(self) -> bool:
        """True for files left out on purpose (the user can do nothing wrong here); False for failures."""
        return self in (ReadProblem.UNSUPPORTED, ReadProblem.NO_TEXT, ReadProblem.TOO_LARGE)


class DocumentError(Exception):
    """A file that could not be read; `reason` says why and what to do."""

    def __init__(self, path: Path, problem: ReadProblem, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}")
        self.path = path
        self.problem = problem
        self.reason = reason


def read_document(path: Path) -> Document:
    """The document at `path`; raises DocumentError when it cannot be read."""
    kind = document_kind(path)
    if kind is None:
        raise DocumentError(path, ReadProblem.UNSUPPORTED, refusal_reason(path))
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise DocumentError(path, ReadProblem.UNREADABLE, "This is not a regular file.")
        if size > MAX_FILE_BYTES:
            raise DocumentError(
                path,
                ReadProblem.TOO_LARGE,
                f"The file is {size / 2**20:.0f} MB; Glassbox reads files up to {MAX_FILE_BYTES // 2**20} MB. "
                "Split it into smaller files to add it.",
            )
        document = _READERS[kind](path, kind)
    except DocumentError:
        raise
    except OSError as error:
        raise DocumentError(
            path, ReadProblem.UNREADABLE, f"The file could not be read ({error.strerror or error})."
        ) from error
    if not document.text.strip():
        raise DocumentError(path, ReadProblem.NO_TEXT, _no_text(kind))
    return document


def _no_text(kind: DocumentKind) -> str:
    if kind is DocumentKind.PDF:
        return "The PDF has no text layer (it may be scanned pages); run it through OCR, then add it again."
    return "The file holds no text."


# ---- text formats ------------------------------------------------------------------------


def decode_text(data: bytes) -> str:
    """Bytes of a text file as text; see the module docstring for the encodings tried."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _read_text_bytes(path: Path) -> str:
    data = path.read_bytes()
    if b"\x00" in data[:_BINARY_SNIFF] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DocumentError(
            path, ReadProblem.DAMAGED, "The file looks binary, not text, although its name says it is text."
        )
    return decode_text(data).replace("\r\n", "\n").replace("\r", "\n")


def _read_text(path: Path, kind: DocumentKind) -> Document:
    builder = TextBuilder()
    builder.add_lines(_read_text_bytes(path))
    return Document(path, kind, builder.text(), tuple(builder.marks))


def _read_html(path: Path, kind: DocumentKind) -> Document:
    parser = HtmlText()
    parser.feed(_read_text_bytes(path))
    parser.close()
    builder = TextBuilder()
    for text, line in parser.pieces:
        builder.add(text, line=line)
    return Document(path, kind, builder.text().strip("\n") + "\n", tuple(builder.marks))


# ---- PDF -----------------------------------------------------------------------------------


def _read_pdf(path: Path, kind: DocumentKind) -> Document:
    try:
        reader = pypdf.PdfReader(path, strict=False)
        if reader.is_encrypted:
            _unlock(path, reader)
        pages = list(reader.pages)
    except DocumentError:
        raise
    except DependencyError as error:
        raise DocumentError(
            path, ReadProblem.ENCRYPTED, f"The PDF is encrypted in a way this build cannot read ({error})."
        ) from error
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
        raise DocumentError(path, ReadProblem.DAMAGED, f"The PDF is damaged or not a PDF ({_short(error)}).") from error
    builder = TextBuilder()
    notes: list[str] = []
    for number, page in enumerate(pages, start=1):
        try:
            text = page.extract_text() or ""
        except Exception as error:  # pypdf raises many kinds on broken content streams; the rest still counts
            log.info("%s: page %d could not be read: %s", path, number, error)
            notes.append(f"page {number} could not be read ({_short(error)})")
            continue
        text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
        if text:
            builder.add_lines(text + "\n\n", page=number)
    if not builder.length and notes:
        raise DocumentError(path, ReadProblem.DAMAGED, f"No page of the PDF could be read: {notes[0]}.")
    return Document(path, kind, builder.text(), tuple(builder.marks), notes=tuple(notes))


def _unlock(path: Path, reader: pypdf.PdfReader) -> None:
    """Many PDFs are encrypted with an empty user password (only printing or copying is restricted)."""
    try:
        unlocked = reader.decrypt("")
    except (PdfReadError, NotImplementedError) as error:
        raise DocumentError(
            path, ReadProblem.ENCRYPTED, f"The PDF's encryption is not supported ({_short(error)})."
        ) from error
    if not unlocked:
        raise DocumentError(
            path,
            ReadProblem.ENCRYPTED,
            "The PDF is protected by a password. Open it, save an unprotected copy, and add that copy.",
        )


# ---- DOCX ----------------------------------------------------------------------------------


def _read_docx(path: Path, kind: DocumentKind) -> Document:
    try:
        document = docx.Document(str(path))
        paragraphs = list(_docx_paragraphs(document))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise DocumentError(
            path,
            ReadProblem.DAMAGED,
            "The file is not a readable DOCX: it may be damaged, password-protected, or an old .doc renamed "
            f"({_short(error)}).",
        ) from error
    except Exception as error:  # lxml's XMLSyntaxError and friends, for a broken document.xml
        raise DocumentError(path, ReadProblem.DAMAGED, f"The DOCX is damaged ({_short(error)}).") from error
    builder = TextBuilder()
    for number, text in enumerate(paragraphs, start=1):
        if text.strip():
            builder.add(text.strip() + "\n\n", line=number)
    return Document(path, kind, builder.text(), tuple(builder.marks), unit=LineUnit.PARAGRAPH)


def _docx_paragraphs(document: DocxDocument) -> Iterator[str]:
    """Paragraphs and table rows in reading order (a row's cells joined with ' | ')."""
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            for table_row in block.rows:
                cells: list[str] = []
                for cell in table_row.cells:
                    text = " ".join(cell.text.split())
                    if text and (not cells or cells[-1] != text):  # a merged cell repeats itself
                        cells.append(text)
                yield " | ".join(cells)
        else:
            yield block.text


def _short(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text if len(text) <= 160 else text[:159] + "…"


_READERS = {
    DocumentKind.TEXT: _read_text,
    DocumentKind.MARKDOWN: _read_text,
    DocumentKind.RESTRUCTURED_TEXT: _read_text,
    DocumentKind.SOURCE_CODE: _read_text,
    DocumentKind.HTML: _read_html,
    DocumentKind.PDF: _read_pdf,
    DocumentKind.DOCX: _read_docx,
}
