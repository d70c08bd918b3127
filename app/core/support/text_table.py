"""The one text-table printer: Markdown pipes (bench, gpu_check) or plain aligned columns (the CLI)."""

from __future__ import annotations

from collections.abc import Sequence


def text_table(header: Sequence[str], rows: Sequence[Sequence[object]], markdown: bool = False) -> str:
    """Columns padded to their widest cell."""
    cells = [[str(cell) for cell in row] for row in rows]
    for row in cells:
        if len(row) != len(header):
            raise ValueError(f"a row has {len(row)} cells for {len(header)} columns: {row}")
    widths = [max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(header)]
    if not markdown:
        lines = [list(header), *cells]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in lines)

    def line(values: Sequence[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(row) for row in cells)])
