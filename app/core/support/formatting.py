"""Text for people: sizes in one unit convention, and named placeholders filled in (`fill`, from user_text)."""

from __future__ import annotations

from app.core.support.user_text import fill

__all__ = ["GIB", "KIB", "MIB", "TIB", "fill", "format_bytes"]

KIB = 1024
MIB = 1024**2
GIB = 1024**3
TIB = 1024**4


def format_bytes(count: int | float) -> str:
    """Binary units everywhere (what llama.cpp, nvidia-smi and the memory planner count in).

    Bytes below 1 KiB, one decimal for KiB and small MiB, whole MiB from 100 MiB, two decimals for GiB and TiB.
    """
    value = float(count)
    size = abs(value)
    if size < KIB:
        return f"{value:.0f} B"
    if size < MIB:
        return f"{value / KIB:.1f} KiB"
    if size < 100 * MIB:
        return f"{value / MIB:.1f} MiB"
    if size < GIB:
        return f"{value / MIB:.0f} MiB"
    if size < TIB:
        return f"{value / GIB:.2f} GiB"
    return f"{value / TIB:.2f} TiB"
