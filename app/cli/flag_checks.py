"""Command-line flags checked with the settings' own bounds, so the CLI accepts what the window accepts.

Each flag's argparse `type` is made from the field's `FieldSpec`: a value out of bounds, not
a number (`nan`, `inf`) or not whole where it must be is refused by argparse itself (exit
status 2) with one line naming the flag and its range:

    glassbox chat: error: argument --temperature: must be a number from 0 to 2, not -5
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from app.core.inference.sampling import FieldSpec, InvalidSetting

SHOWN_CHARS = 24  # of a refused value, so the reason stays one line


def bounded(spec: FieldSpec) -> Callable[[str], Any]:
    """An argparse `type` that converts a flag's text as `spec` does and refuses what `spec` refuses."""

    def convert(text: str) -> Any:
        try:
            return spec.check(_number(text, spec))
        except (InvalidSetting, OverflowError):  # OverflowError: a whole number too large to compare
            shown = text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
            raise argparse.ArgumentTypeError(f"must be {accepted(spec)}, not {shown}") from None

    convert.__name__ = spec.name  # what argparse names in its own messages
    return convert


def accepted(spec: FieldSpec) -> str:
    """What a field accepts, in words: "a number from 0 to 2", "a positive whole number up to 32768"."""
    if spec.kind == "float":
        return f"a number from {spec.minimum:g} to {spec.maximum:g}"
    low, high = int(spec.minimum), int(spec.maximum)
    if spec.minimum == 1:
        return f"a positive whole number up to {high}"
    return f"a whole number from {low} to {high}"


def _number(text: str, spec: FieldSpec) -> int | str:
    """A whole-number field's text as an int (seeds stay exact), anything else as the text `spec` converts."""
    if spec.kind != "float":
        try:
            return int(text.strip())
        except ValueError:
            pass
    return text
