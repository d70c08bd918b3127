"""Text for people: sizes in one unit convention, and named placeholders filled in translated text."""

from __future__ import annotations

import string

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


class _Fields(dict[str, object]):
    """Leaves a placeholder that has no value as it is, so a translation with a typo still shows."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORMATTER = string.Formatter()


def fill(template: str, **values: object) -> str:
    """Put values into `{name}` placeholders of a (translated) template.

    Unlike `str.format`, braces that are not a plain `{name}` placeholder (JSON, code in a
    message) and placeholders without a value are left as they are, and the values' own
    braces are never read as placeholders.
    """
    fields = _Fields(values)
    parts: list[str] = []
    for literal, name, spec, conversion in _parse(template):
        parts.append(literal)
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            parts.append(_raw(name, spec, conversion))
            continue
        value = fields[name]
        parts.append(value if isinstance(value, str) else str(value))
    return "".join(parts)


def _parse(template: str) -> list[tuple[str, str | None, str, str | None]]:
    try:
        return [(lit, name, spec or "", conv) for lit, name, spec, conv in _FORMATTER.parse(template)]
    except ValueError:  # an unmatched brace: nothing in it is a placeholder
        return [(template, None, "", None)]


def _raw(name: str, spec: str, conversion: str | None) -> str:
    inner = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
    return "{" + inner + "}"
