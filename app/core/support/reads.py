"""Ending a read that another thread is blocked in: a pipe to a child process, a download's connection.

Closing the handle does not wake that read (it goes on, or fails later on a reused descriptor).
Shutting down the socket under the handle does, as end-of-file. It is shut down through a
duplicate of the descriptor, so the owner's object is left as it is: a TLS socket's own `shutdown`
drops its TLS state, and a read after that would take the raw encrypted bytes for data.
"""

from __future__ import annotations

import contextlib
import os
import socket
from typing import Protocol


class HasDescriptor(Protocol):
    def fileno(self) -> int: ...


def end_reads(handle: HasDescriptor) -> None:
    """End-of-file, now, for every read of `handle`'s socket; nothing where it is closed or no socket
    (a pipe elsewhere than POSIX: there the other end closing still ends the read)."""
    try:
        descriptor = os.dup(handle.fileno())  # closing the duplicate leaves `handle` open
    except (OSError, ValueError):
        return
    try:
        duplicate = socket.socket(fileno=descriptor)
    except OSError:  # no socket
        os.close(descriptor)
        return
    with duplicate, contextlib.suppress(OSError):
        duplicate.shutdown(socket.SHUT_RDWR)
