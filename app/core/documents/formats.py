"""Which files Glassbox can read into a collection, and why it refuses the others."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from app.core.support.formatting import fill
from app.core.support.user_text import N_


class DocumentKind(str, Enum):
    TEXT = "text"
    MARKDOWN = "markdown"
    RESTRUCTURED_TEXT = "restructuredtext"
    SOURCE_CODE = "source code"
    HTML = "html"
    PDF = "pdf"
    DOCX = "docx"


SUPPORTED = N_("plain text, Markdown, reStructuredText, source code, HTML, PDF and DOCX")

_BY_SUFFIX: dict[str, DocumentKind] = {
    **dict.fromkeys((".txt", ".text", ".log", ".csv", ".tsv", ".org", ".adoc", ".asciidoc"), DocumentKind.TEXT),
    **dict.fromkeys((".md", ".markdown", ".mdown", ".mkd"), DocumentKind.MARKDOWN),
    **dict.fromkeys((".rst", ".rest"), DocumentKind.RESTRUCTURED_TEXT),
    **dict.fromkeys((".html", ".htm", ".xhtml"), DocumentKind.HTML),
    ".pdf": DocumentKind.PDF,
    ".docx": DocumentKind.DOCX,
    **dict.fromkeys(
        (
            *(".py", ".pyi", ".ipynb", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".java", ".kt"),
            *(".kts", ".scala", ".go", ".rs", ".swift", ".m", ".mm", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx"),
            *(".vue", ".svelte", ".rb", ".php", ".pl", ".pm", ".lua", ".r", ".jl", ".dart", ".hs", ".ml", ".mli"),
            *(".ex", ".exs", ".erl", ".clj", ".elm", ".zig", ".nim", ".sql", ".sh", ".bash", ".zsh", ".fish"),
            *(".ps1", ".bat", ".cmd", ".css", ".scss", ".sass", ".less", ".json", ".jsonl", ".yaml", ".yml"),
            *(".toml", ".ini", ".cfg", ".conf", ".xml", ".xsd", ".tex", ".bib", ".cmake", ".gradle", ".proto"),
            *(".graphql", ".tf", ".nix", ".f90", ".v", ".sv", ".vhd", ".asm", ".s", ".diff", ".patch"),
        ),
        DocumentKind.SOURCE_CODE,
    ),
}
_BY_NAME: dict[str, DocumentKind] = {
    **dict.fromkeys(
        ("makefile", "dockerfile", "cmakelists.txt", "justfile", "rakefile", "gemfile"), DocumentKind.SOURCE_CODE
    ),
    **dict.fromkeys(("readme", "license", "copying", "authors", "changelog", "notice"), DocumentKind.TEXT),
}
# Known formats that are not read, with what to do instead.
_REFUSED: dict[str, str] = {
    **dict.fromkeys((".doc", ".rtf", ".odt", ".pages", ".wpd"), N_("save it as DOCX or PDF to add it")),
    **dict.fromkeys((".xls", ".xlsx", ".ods", ".numbers"), N_("spreadsheets are not read; export the sheet as CSV")),
    **dict.fromkeys((".ppt", ".pptx", ".odp", ".key"), N_("slides are not read; export them as PDF")),
    **dict.fromkeys((".epub", ".mobi", ".azw3"), N_("e-books are not read; convert the book to PDF or HTML")),
    **dict.fromkeys(
        (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".svg", ".heic", ".ico"),
        N_("images carry no text Glassbox can read"),
    ),
    **dict.fromkeys(
        (".mp3", ".wav", ".flac", ".ogg", ".m4a", ".mp4", ".mkv", ".mov", ".avi", ".webm"),
        N_("audio and video are not read"),
    ),
    **dict.fromkeys(
        (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst"),
        N_("unpack the archive and add its files"),
    ),
    **dict.fromkeys(
        (
            ".exe",
            ".dll",
            ".so",
            ".dylib",
            ".o",
            ".a",
            ".bin",
            ".pyc",
            ".class",
            ".jar",
            ".wasm",
            ".gguf",
            ".safetensors",
        ),
        N_("programs and binary files carry no text to read"),
    ),
    **dict.fromkeys((".sqlite", ".sqlite3", ".db"), N_("databases are not read")),
}


def document_kind(path: Path) -> DocumentKind | None:
    """The kind of document at `path` by its name, None when Glassbox does not read it."""
    name = path.name.lower()
    return _BY_SUFFIX.get(path.suffix.lower()) or _BY_NAME.get(name)


def refusal_reason(path: Path) -> str:
    """Why a file Glassbox does not read is refused, worded for the person who added it."""
    suffix = path.suffix.lower()
    known = _REFUSED.get(suffix)
    if known:
        return fill(N_("{suffix} files are not supported: {reason}."), suffix=suffix, reason=known)
    if not suffix:
        return fill(N_("Files without an extension are not supported (Glassbox reads {formats})."), formats=SUPPORTED)
    return fill(N_("{suffix} files are not supported (Glassbox reads {formats})."), suffix=suffix, formats=SUPPORTED)
