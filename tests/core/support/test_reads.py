"""Ending a read blocked in another thread, through the socket under a handle, leaving the handle's owner as it is."""

from __future__ import annotations

import os
import socket
import threading

from app.core.support.reads import end_reads

WAIT_S = 30.0  # a bound on a read that end_reads ends at once


class Handle:
    """A descriptor's owner whose own shutdown must not be used (as a TLS socket's, which drops its TLS state)."""

    def __init__(self, descriptor: int) -> None:
        self.descriptor = descriptor

    def fileno(self) -> int:
        return self.descriptor

    def shutdown(self, _how: int) -> None:
        raise AssertionError("the owner's own shutdown was called")


def test_a_read_blocked_in_another_thread_ends_as_end_of_file_and_the_handle_stays_open() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        read: list[bytes] = []
        reader = threading.Thread(target=lambda: read.append(ours.recv(16)), name="blocked-read")
        reader.start()
        end_reads(Handle(ours.fileno()))
        reader.join(WAIT_S)
        assert not reader.is_alive() and read == [b""]
        assert ours.fileno() >= 0  # still open: the owner closes it
        assert theirs.recv(16) == b""  # the other end sees the connection end


def test_a_closed_handle_or_one_that_is_no_socket_is_left_alone() -> None:
    closed = socket.socket()
    closed.close()
    end_reads(closed)
    reading, writing = os.pipe()
    try:
        end_reads(Handle(reading))
        os.write(writing, b"x")
        assert os.read(reading, 1) == b"x"  # the pipe works as before
    finally:
        os.close(reading)
        os.close(writing)
