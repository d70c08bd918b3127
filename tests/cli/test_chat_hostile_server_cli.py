"""`glassbox chat --server` against a hostile or broken server: Ctrl-C, escape codes, redirects, max_tokens."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from app.main import main
from tests.helpers.canned_server import DONE, FINISH, Canned, CannedServer, piece

WAIT_S = 60  # a guard against a hang, not a measure: each case ends in well under a second


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def _chat(url: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "app", "chat", "--prompt", "hi", "--server", url, "--model", "m", *args]


def test_ctrl_c_while_the_server_is_silent_stops_with_a_word_and_exit_130(canned: CannedServer) -> None:
    canned.reply = Canned(silent=True)
    process = subprocess.Popen(_chat(canned.url), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert canned.asked.wait(WAIT_S), "the request never came"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=WAIT_S)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert stderr.strip() == "Stopped."


def test_a_servers_error_text_reaches_the_terminal_without_its_control_codes(
    canned: CannedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(status=400, body=b'{"error": {"message": "bad\\u001b]0;owned\\u0007\\u001b[2J"}}')
    assert main(_chat(canned.url)[3:]) == 1
    error = capsys.readouterr().err
    assert "\x1b" not in error and "\x07" not in error
    assert "bad\\x1b]0;owned\\x07\\x1b[2J" in error


def test_a_redirect_is_named_with_where_it_points(canned: CannedServer, capsys: pytest.CaptureFixture[str]) -> None:
    canned.reply = Canned(status=307, headers={"Location": "http://127.0.0.1:9/v1/chat/completions"})
    assert main(_chat(canned.url)[3:]) == 1
    error = capsys.readouterr().err
    assert "redirected the request to http://127.0.0.1:9/v1/chat/completions (307)" in error


def test_a_server_that_ignores_max_tokens_is_cut_and_named(
    canned: CannedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=piece("one ") + piece("two ") + piece("three ") + FINISH + DONE)
    assert main(_chat(canned.url, "--max-tokens", "2")[3:]) == 0
    printed = capsys.readouterr()
    assert printed.out == "one two \n"
    assert "ignored the limit of 2 tokens" in printed.err


def test_model_text_on_a_terminal_shows_its_control_codes_inert(
    canned: CannedServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    canned.reply = Canned(body=piece("\\u001b[31mred\\u001b[0m\\ttab\\r") + FINISH + DONE)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(_chat(canned.url)[3:]) == 0
    assert capsys.readouterr().out == "\\x1b[31mred\\x1b[0m\ttab\\x0d\n"


def test_model_text_piped_to_a_file_keeps_every_character(
    canned: CannedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=piece("\\u001b[31mred\\u001b[0m\\ttab") + FINISH + DONE)
    assert main(_chat(canned.url)[3:]) == 0
    assert capsys.readouterr().out == "\x1b[31mred\x1b[0m\ttab\n"


def test_a_servers_model_names_reach_the_terminal_without_their_control_codes(
    canned: CannedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=b'{"data": [{"id": "m\\u001b[2J\\u001b]0;owned\\u0007"}]}')
    assert main(["servers", "test", canned.url]) == 0
    printed = capsys.readouterr().out
    assert "\x1b" not in printed and "\x07" not in printed
    assert "m\\x1b[2J\\x1b]0;owned\\x07" in printed


def test_a_second_ctrl_c_ends_a_connect_the_first_cannot_reach_with_a_word_and_exit_130() -> None:
    # A listener with a backlog of 0 and one connection it never accepts: the next connect hangs.
    with (
        socket.create_server(("127.0.0.1", 0), backlog=0) as listener,
        socket.create_connection(listener.getsockname()),
    ):
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        process = subprocess.Popen(
            [*_chat(url), "--verbose"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        try:
            assert process.stderr is not None
            for line in process.stderr:
                if "connect_tcp.started" in line:  # httpcore's own debug line: the connect is under way
                    break
            process.send_signal(signal.SIGINT)  # sets the stop flag, which a connect does not look at
            time.sleep(0.5)  # two signals at once would be one
            process.send_signal(signal.SIGINT)
            _, rest = process.communicate(timeout=WAIT_S)
        finally:
            process.kill()
            process.wait()
    assert process.returncode == 130
    assert rest.strip().splitlines()[-1] == "Stopped."
