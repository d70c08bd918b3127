"""Why a file could not be read into a document, and the cancel that can stop a read midway."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path

Cancelled = Callable[[], bool]  # asked between blocks, pages and paragraphs: True stops the read


def never_cancelled() -> bool:
    return False


class ReadProblem(str, Enum):
    UNSUPPORTED = "unsupported"  # not a format Glassbox reads
    NO_TEXT = "no text"  # readable, but nothing to index (empty, or a scanned PDF without a text layer)
    TOO_LARGE = "too large"
    NOT_A_FILE = "not a file"  # a named pipe, a device or a socket: reading it could wait or run forever
    UNREADABLE = "unreadable"  # the file system refused (permissions, gone, a folder)
    DAMAGED = "damaged"  # not what its name says, or broken inside
    ENCRYPTED = "encrypted"  # needs a password

    @property
    def skipped(self) -> bool:
        """True for files left out on purpose (the user can do nothing wrong here); False for failures."""
        return self in (ReadProblem.UNSUPPORTED, ReadProblem.NO_TEXT, ReadProblem.TOO_LARGE, ReadProblem.NOT_A_FILE)


class DocumentError(Exception):
    """A file that could not be read; `reason` says why and what to do."""

    def __init__(self, path: Path, problem: ReadProblem, reason: str) -> None:
        super().__init__(f"{path.name}: {reason}")
        self.path = path
        self.problem = problem
        self.reason = reason


class ReadCancelled(Exception):
    """The read stopped because its `Cancelled` said so; nothing of the file was kept."""
