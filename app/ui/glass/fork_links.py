"""Fork links in a pinned token's alternatives: clicking one forks the reply at that token.

A link says which token of the reply it replaces and with what: `fork:<index>:<token id>`.
The token view turns a click into `forkRequested(index, token_id)`; whoever owns the
backend runs the fork (app/core/inference/fork.py: the text before the token is kept and
its KV cache reused, the alternative forced there, generation goes on with the chat's
settings) and saves it as a branch of the message.
"""

from __future__ import annotations

PREFIX = "fork:"


def fork_link(index: int, token_id: int) -> str:
    return f"{PREFIX}{index}:{token_id}"


def parse_fork_link(link: str) -> tuple[int, int] | None:
    """(token index, alternative token id) of a fork link; None for any other link."""
    if not link.startswith(PREFIX):
        return None
    index, _, token = link[len(PREFIX) :].partition(":")
    if not (index.isdigit() and token.lstrip("-").isdigit()):
        return None
    return int(index), int(token)
