"""Clicking one of a pinned token's alternatives asks to fork the reply there, with that token."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.inference.sampling import SamplingParams
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace
from app.ui.glass.fork_links import fork_link, parse_fork_link
from app.ui.glass.token_view import TokenReplyView


def trace() -> TokenTrace:
    def step(text: str, token_id: int) -> TokenStep:
        return TokenStep(token_id, text, 0.6, (Alternative(token_id, text, 0.6), Alternative(9, " other", 0.3)))

    return TokenTrace([step("The", 1), step(" sky", 2), step(" is", 3)], SamplingParams(seed=3).to_dict())


def test_a_pinned_token_offers_its_alternatives_as_forks(qtbot: QtBot) -> None:
    view = TokenReplyView(trace())
    qtbot.addWidget(view)
    view.show()
    view.text.linkActivated.emit("token:1")
    assert f'href="{fork_link(1, 9)}"' in view.detail.text()
    assert f'href="{fork_link(1, 2)}"' not in view.detail.text()  # the chosen token is no fork
    assert "fork the reply there" in view.detail.text()
    with qtbot.waitSignal(view.forkRequested) as asked:
        view.detail.linkActivated.emit(fork_link(1, 9))
    assert asked.args == [1, 9]


def test_a_link_that_is_no_fork_of_this_reply_asks_for_nothing(qtbot: QtBot) -> None:
    view = TokenReplyView(trace())
    qtbot.addWidget(view)
    with qtbot.assertNotEmitted(view.forkRequested):
        view.detail.linkActivated.emit(fork_link(7, 9))  # past the reply's end
        view.detail.linkActivated.emit("https://example.com")
    assert parse_fork_link("fork:2:-1") == (2, -1)
    assert parse_fork_link("fork:x:1") is None
