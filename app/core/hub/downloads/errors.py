"""How a download stops early: an error the user reads, or the pause or cancel the user asked for."""

from __future__ import annotations

from enum import Enum


class NextStep(Enum):
    """What the user can do about a failed download; the window and the CLI each say it in their own terms."""

    RESUME = "resume"  # go on from the bytes kept on disk
    RETRY = "retry"  # download the file again from the start
    REFRESH = "refresh"  # the Hub's file list changed: look at the repository again


WINDOW_WORDING = {
    NextStep.RESUME: "Press Resume to go on from there.",
    NextStep.RETRY: "Press Retry to download it again.",
    NextStep.REFRESH: "Refresh the repository and choose again.",
}


class DownloadError(Exception):
    """A download that stopped; `resumable` says whether Resume can go on from the bytes on disk.

    `problem` says what happened, `next_step` what the user can do about it; `message` is the
    two together as the window says them.
    """

    def __init__(
        self, problem: str, kind: str = "error", resumable: bool = True, next_step: NextStep | None = None
    ) -> None:
        self.problem = problem
        self.next_step = next_step
        self.message = f"{problem} {WINDOW_WORDING[next_step]}" if next_step else problem
        super().__init__(self.message)
        self.kind = kind
        self.resumable = resumable


class Interrupted(Exception):
    """Pause or cancel was requested; the job's intent says which."""
