"""How a download stops early: an error the user reads, or the pause or cancel the user asked for."""

from __future__ import annotations


class DownloadError(Exception):
    """A download that stopped; `resumable` says whether Resume can go on from the bytes on disk."""

    def __init__(self, message: str, kind: str = "error", resumable: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.resumable = resumable


class Interrupted(Exception):
    """Pause or cancel was requested; the job's intent says which."""
