"""The messages every child-process host speaks with its parent, over one duplex pipe.

A child serves one table of operations (the engine's, the embedding model's; see
child_host.py). The parent sends a `Job` with an id and a piece of work; the child answers
with events of that id (which events depends on the table) and ends each job with exactly
one `Finished` or `Failed`. `Abort` may arrive at any time and sets the running job's abort
flag at once. `Log` records are not tied to a job. Job ids start at 1: a `Failed` of job 0
says the child could not open what it serves, and ends it.

Every message is a small frozen dataclass, pickled by `multiprocessing.connection`. Errors
cross as an `ErrorReport` that the table's owner defines (its kind and fields, not a pickled
exception) and are rebuilt on the parent's side as the owner's own exception types.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

START_JOB = 0  # the id of a Failed that says the child could not open what it serves


class ErrorReport(Protocol):
    """An error as it crosses the pipe; picklable."""

    @property
    def unexpected(self) -> bool:
        """A bug rather than a failure the user should read: the child logs it with its traceback."""

    def to_exception(self) -> Exception:
        """The error again, on the parent's side."""


# ---- parent → child -------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    id: int
    work: object  # one of the kinds of work the child's table of operations names


@dataclass(frozen=True)
class Abort:
    """Stop job `id` as soon as the child can."""

    id: int


@dataclass(frozen=True)
class Shutdown:
    pass


# ---- child → parent -------------------------------------------------------------------


@dataclass(frozen=True)
class Ready:
    pid: int


@dataclass(frozen=True)
class Finished:
    """The job's result: what its operation returned."""

    job: int
    value: object


@dataclass(frozen=True)
class Failed:
    job: int
    error: ErrorReport


@dataclass(frozen=True)
class Log:
    """A log record of the child, re-logged in the parent's process under the same logger."""

    logger: str
    level: int
    message: str

    def emit(self) -> None:
        logging.getLogger(self.logger).log(self.level, "%s", self.message)
