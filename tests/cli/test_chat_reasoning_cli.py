"""`glassbox chat` with a thinking model: the reasoning printed apart from the answer (dimmed on a
terminal, marked when piped, left out with --hide-thinking), never its tags inside the answer,
from every shape a server streams it in."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator

import pytest

from app.cli.reply_printer import FAINT, NOT_FAINT, ReplyPrinter
from app.core.types.replies import ReplyPart, TokenPiece
from app.main import main
from tests.helpers.canned_server import Canned, CannedServer
from tests.helpers.reasoning_streams import ANSWER_TEXT, REASONING_TEXT, STREAMS

PIPED = f"[thinking]\n{REASONING_TEXT}\n[answer]\n{ANSWER_TEXT}\n"
WAIT_S = 120  # a guard against a hang, not a measure


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def _chat(url: str, *args: str) -> list[str]:
    return ["chat", "--prompt", "What is 2 + 2?", "--server", url, "--model", "m", *args]


@pytest.mark.parametrize("server", ["llama-server", "llama-server reasoning_format none"])
def test_a_new_user_sees_the_reasoning_marked_apart_and_the_answer_without_tags(
    canned: CannedServer, server: str
) -> None:
    canned.reply = Canned(body=STREAMS[server]())
    command = [sys.executable, "-m", "app", *_chat(canned.url)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=WAIT_S)
    assert result.returncode == 0, result.stderr
    assert result.stdout == PIPED


@pytest.mark.parametrize("server", list(STREAMS))
def test_every_servers_shape_prints_the_reasoning_marked_when_piped(
    canned: CannedServer, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=STREAMS[server]())
    assert main(_chat(canned.url)) == 0
    assert capsys.readouterr().out == PIPED


@pytest.mark.parametrize("server", list(STREAMS))
def test_hide_thinking_prints_the_answer_alone(
    canned: CannedServer, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=STREAMS[server]())
    assert main(_chat(canned.url, "--hide-thinking")) == 0
    assert capsys.readouterr().out == f"{ANSWER_TEXT}\n"


def test_on_a_terminal_the_reasoning_is_dimmed_and_the_answer_follows_plain(
    canned: CannedServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    canned.reply = Canned(body=STREAMS["DeepSeek"]())
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(_chat(canned.url)) == 0
    assert capsys.readouterr().out == f"{FAINT}{REASONING_TEXT}{NOT_FAINT}\n\n{ANSWER_TEXT}\n"


def test_the_stats_say_how_many_tokens_and_seconds_went_to_thinking(
    canned: CannedServer, capsys: pytest.CaptureFixture[str]
) -> None:
    canned.reply = Canned(body=STREAMS["DeepSeek"]())
    assert main(_chat(canned.url, "--stats")) == 0
    assert "9 generated (6 thinking for " in capsys.readouterr().err


def printed(pieces: list[TokenPiece], *, terminal: bool, interrupted: bool = False) -> str:
    out = io.StringIO()
    printer = ReplyPrinter(out, terminal=terminal)
    for piece in pieces:
        printer.piece(piece)
    if interrupted:
        printer.close()
    else:
        printer.end()
    return out.getvalue()


def think(text: str) -> TokenPiece:
    return TokenPiece(text, -1, ReplyPart.REASONING)


def say(text: str) -> TokenPiece:
    return TokenPiece(text, -1)


def test_a_reply_without_reasoning_prints_exactly_as_it_came() -> None:
    assert printed([say("\n\nHi"), say(" there")], terminal=False) == "\n\nHi there\n"


def test_a_reply_stopped_in_its_reasoning_leaves_the_terminal_plain() -> None:
    assert printed([think("Let me"), think(" see")], terminal=True, interrupted=True) == f"{FAINT}Let me see{NOT_FAINT}"
    assert printed([think("Let me")], terminal=True) == f"{FAINT}Let me{NOT_FAINT}\n"


def test_control_codes_in_the_reasoning_are_inert_on_a_terminal() -> None:
    assert printed([think("\x1b[2Jgone?"), say("no")], terminal=True) == f"{FAINT}\\x1b[2Jgone?{NOT_FAINT}\n\nno\n"
