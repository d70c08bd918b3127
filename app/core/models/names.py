"""Safe names: where a file from a repository may go in the models folder, and nowhere else.

Repository and file names come from the network and are untrusted; these turn them into
path components that are harmless on every OS, or refuse them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from app.core.models.library import LibraryError
from app.core.support.formatting import fill
from app.core.support.user_text import N_


class UnsafeNameError(LibraryError):
    """A repository or file name that would place a file outside the models folder."""


_ODD_CHARACTERS = re.compile(r"[^A-Za-z0-9._+\-()\[\]@]")
_WINDOWS_RESERVED = re.compile(r"^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?$", re.IGNORECASE)
_MAX_COMPONENT = 180


def safe_component(text: str) -> str:
    """One path component that is valid and harmless on every OS; raises UnsafeNameError if nothing is left."""
    if text in ("", ".", "..") or "\x00" in text:
        raise UnsafeNameError(fill(N_("{text} is not a usable file name"), text=f"{text!r}"))
    cleaned = _ODD_CHARACTERS.sub("_", text.strip(" .")).strip(" .")
    if not cleaned or set(cleaned) <= {"_", "."}:
        raise UnsafeNameError(fill(N_("{text} is not a usable file name"), text=f"{text!r}"))
    if _WINDOWS_RESERVED.match(cleaned):
        cleaned = "_" + cleaned
    if len(cleaned) > _MAX_COMPONENT:
        stem, dot, suffix = cleaned.rpartition(".")
        cleaned = (stem[: _MAX_COMPONENT - len(suffix) - 1] + dot + suffix) if dot else cleaned[:_MAX_COMPONENT]
    return cleaned


def model_destination(models_dir: Path, repo_id: str, filename: str) -> Path:
    """Where a repository file is installed: `models/<owner>/<repo>/<file name>`.

    Names from a repository are untrusted: `..`, absolute paths, drive letters, backslashes
    and control characters are refused; other odd characters become `_`. Sub-folders in the
    repository are flattened (split shards always share one folder).
    """
    owner, slash, name = repo_id.partition("/")
    if not slash or "/" in name:
        raise UnsafeNameError(
            fill(N_("{repo_id} is not a repository id of the form owner/name"), repo_id=f"{repo_id!r}")
        )
    if "\\" in filename or filename.startswith("/") or re.match(r"^[A-Za-z]:", filename):
        raise UnsafeNameError(
            fill(
                N_("the repository names a file with an absolute or Windows path: {filename}"), filename=f"{filename!r}"
            )
        )
    if any(ord(ch) < 32 for ch in filename):
        raise UnsafeNameError(
            fill(N_("the repository names a file with control characters: {filename}"), filename=f"{filename!r}")
        )
    parts = PurePosixPath(filename).parts
    if not parts or any(part in ("..", ".") for part in parts):
        raise UnsafeNameError(
            fill(N_("the repository names a file outside its own folder: {filename}"), filename=f"{filename!r}")
        )
    destination = models_dir / safe_component(owner) / safe_component(name) / safe_component(parts[-1])
    root = os.path.normpath(os.path.abspath(models_dir))
    if os.path.commonpath([root, os.path.normpath(os.path.abspath(destination))]) != root:
        raise UnsafeNameError(
            fill(N_("{filename} would be written outside the models folder"), filename=f"{filename!r}")
        )
    return destination
