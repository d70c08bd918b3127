"""Read a file into a Document, or say clearly why it cannot be read.

Every failure is a `DocumentError` with a problem kind and a sentence for the person who
added the file; nothing here raises anything else for a bad file, so one damaged PDF
never stops the files after it. The file's bytes are read by `file_bytes` (regular files
only, bounded); text is decoded by `text_decoding`, a DOCX is held to `zip_limits` before
it is parsed. A read asks its `Cancelled` between blocks, pages and paragraphs and stops
with `ReadCancelled`.
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Iterator
from pathlib import Path

import docx
import pypdf
from docx.document import Document as DocxDocument
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from pypdf.errors import DependencyError, PdfReadError

from app.core.documents.document import Document, LineUnit, TextBuilder
from app.core.documents.file_bytes import read_file_bytes
from app.core.documents.formats import DocumentKind, document_kind, refusal_reason
from app.core.documents.html_text import HtmlText
from app.core.documents.read_problems import Cancelled, DocumentError, ReadCancelled, ReadProblem, never_cancelled
from app.core.documents.text_decoding import decode_text
from app.core.documents.zip_limits import check_zip_limits
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)


def read_document(path: Path, cancelled: Cancelled = never_cancelled) -> Document:
    """The document at `path`; raises DocumentError when it cannot be read, ReadCancelled when told to stop."""
    kind = document_kind(path)
    if kind is None:
        raise DocumentError(path, ReadProblem.UNSUPPORTED, refusal_reason(path))
    return parse_document(path, kind, read_file_bytes(path, cancelled).data, cancelled)


def parse_document(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled = never_cancelled) -> Document:
    """The document in `data`, the bytes of the file at `path`; raises as `read_document` does."""
    document = _READERS[kind](path, kind, data, cancelled)
    if not document.text.strip():
        raise DocumentError(path, ReadProblem.NO_TEXT, _no_text(kind))
    return document


def _no_text(kind: DocumentKind) -> str:
    if kind is DocumentKind.PDF:
        return "The PDF has no text layer (it may be scanned pages); run it through OCR, then add it again."
    return "The file holds no text."


# ---- text formats ------------------------------------------------------------------------


def _text_of(path: Path, data: bytes) -> str:
    text = decode_text(data)
    if text is None:
        raise DocumentError(
            path, ReadProblem.DAMAGED, N_("The file looks binary, not text, although its name says it is text.")
        )
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_text(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled) -> Document:
    builder = TextBuilder()
    builder.add_lines(_text_of(path, data))
    return Document(path, kind, builder.text(), tuple(builder.marks))


def _read_html(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled) -> Document:
    parser = HtmlText()
    parser.feed(_text_of(path, data))
    parser.close()
    builder = TextBuilder()
    for text, line in parser.pieces:
        builder.add(text, line=line)
    return Document(path, kind, builder.text().strip("\n") + "\n", tuple(builder.marks))


# ---- PDF -----------------------------------------------------------------------------------


def _read_pdf(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled) -> Document:
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            _unlock(path, reader)
        pages = list(reader.pages)
    except DocumentError:
        raise
    except DependencyError as error:
        raise DocumentError(
            path,
            ReadProblem.ENCRYPTED,
            fill(N_("The PDF is encrypted in a way this build cannot read ({error})."), error=error),
        ) from error
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError) as error:
        raise DocumentError(
            path, ReadProblem.DAMAGED, fill(N_("The PDF is damaged or not a PDF ({short})."), short=_short(error))
        ) from error
    builder = TextBuilder()
    notes: list[str] = []
    for number, page in enumerate(pages, start=1):
        if cancelled():
            raise ReadCancelled()
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
        raise DocumentError(
            path, ReadProblem.DAMAGED, fill(N_("No page of the PDF could be read: {notes}."), notes=notes[0])
        )
    return Document(path, kind, builder.text(), tuple(builder.marks), notes=tuple(notes))


def _unlock(path: Path, reader: pypdf.PdfReader) -> None:
    """Many PDFs are encrypted with an empty user password (only printing or copying is restricted)."""
    try:
        unlocked = reader.decrypt("")
    except (PdfReadError, NotImplementedError) as error:
        raise DocumentError(
            path,
            ReadProblem.ENCRYPTED,
            fill(N_("The PDF's encryption is not supported ({short})."), short=_short(error)),
        ) from error
    if not unlocked:
        raise DocumentError(
            path,
            ReadProblem.ENCRYPTED,
            N_("The PDF is protected by a password. Open it, save an unprotected copy, and add that copy."),
        )


# ---- DOCX ----------------------------------------------------------------------------------


def _read_docx(path: Path, kind: DocumentKind, data: bytes, cancelled: Cancelled) -> Document:
    try:
        check_zip_limits(path, data)
        paragraphs = []
        for text in _docx_paragraphs(docx.Document(io.BytesIO(data))):
            if cancelled():
                raise ReadCancelled()
            paragraphs.append(text)
    except (DocumentError, ReadCancelled):
        raise
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise DocumentError(
            path,
            ReadProblem.DAMAGED,
            fill(
                N_(
                    "The file is not a readable DOCX: it may be damaged, password-protected, or an "
                    "old .doc renamed ({short})."
                ),
                short=_short(error),
            ),
        ) from error
    except Exception as error:  # lxml's XMLSyntaxError and friends, for a broken document.xml
        raise DocumentError(
            path, ReadProblem.DAMAGED, fill(N_("The DOCX is damaged ({short})."), short=_short(error))
        ) from error
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
