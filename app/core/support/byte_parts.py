"""Sizes that add up as shown: a total and its parts written in one unit, rounded so the parts
shown sum exactly to the total shown.

Rounding each part on its own (what `format_bytes` does) makes "1.20 GiB = 0.90 + 0.20 + 0.05"
read wrong by a hundredth now and then, and parts written in different units cannot be added
by eye at all. Here every part takes the total's unit and precision, and the roundings are
shared out by the largest remainder, so the written parts always add up to the written total;
whatever the named parts do not cover is a part of its own (`remainder_name`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.support.formatting import GIB, KIB, MIB, TIB


@dataclass(frozen=True)
class ShownPart:
    name: str
    text: str  # for example "0.20 GiB"
    steps: int  # the shown value in the unit's smallest step (what the test of the sum adds)


@dataclass(frozen=True)
class ShownSizes:
    total_text: str
    total_steps: int
    parts: tuple[ShownPart, ...]


def _unit(total: int) -> tuple[str, int, int]:
    """Unit name, bytes per unit and decimals: the convention of `format_bytes` for this total."""
    size = abs(total)
    if size < KIB:
        return "B", 1, 0
    if size < MIB:
        return "KiB", KIB, 1
    if size < 100 * MIB:
        return "MiB", MIB, 1
    if size < GIB:
        return "MiB", MIB, 0
    if size < TIB:
        return "GiB", GIB, 2
    return "TiB", TIB, 2


def shown_sizes(parts: Sequence[tuple[str, int]], total: int, remainder_name: str) -> ShownSizes:
    """`total` and its `parts` (name, bytes) as written for a reader, adding up exactly.

    A part of `total` the named parts do not cover becomes a part called `remainder_name`.
    Raises ValueError when a part is negative or the parts exceed the total.
    """
    if any(size < 0 for _name, size in parts):
        raise ValueError("a part of a size cannot be negative")
    covered = sum(size for _name, size in parts)
    if covered > total:
        raise ValueError(f"the parts ({covered} bytes) exceed the total ({total} bytes)")
    named = list(parts)
    if covered < total:
        named.append((remainder_name, total - covered))
    unit, per_unit, decimals = _unit(total)
    step = per_unit / 10**decimals
    total_steps = round(total / step)
    exact = [size / step for _name, size in named]
    steps = [int(value) for value in exact]
    short = total_steps - sum(steps)
    by_remainder = sorted(range(len(named)), key=lambda i: exact[i] - steps[i], reverse=True)
    for index in by_remainder[: max(short, 0)]:
        steps[index] += 1

    def text(n: int) -> str:
        return f"{n / 10**decimals:.{decimals}f} {unit}"

    shown = tuple(ShownPart(name, text(n), n) for (name, _size), n in zip(named, steps, strict=True))
    return ShownSizes(text(total_steps), total_steps, shown)
