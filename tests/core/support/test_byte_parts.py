"""Sizes and their parts written so that the parts shown add up exactly to the total shown."""

from __future__ import annotations

import pytest

from app.core.support.byte_parts import shown_sizes
from app.core.support.formatting import GIB, KIB, MIB, format_bytes


def test_parts_take_the_totals_unit_and_the_rounding_is_shared_so_they_add_up() -> None:
    # Rounded one by one these would read 0.33 + 0.33 + 0.33 = 0.99 of a total written 1.00 GiB.
    third = GIB // 3
    shown = shown_sizes([("a", third), ("b", third), ("c", GIB - 2 * third)], GIB, "other")
    assert shown.total_text == "1.00 GiB" == format_bytes(GIB)
    assert [part.text for part in shown.parts] == ["0.33 GiB", "0.33 GiB", "0.34 GiB"]
    assert sum(part.steps for part in shown.parts) == shown.total_steps


def test_what_the_parts_do_not_cover_is_shown_as_its_own_part() -> None:
    shown = shown_sizes([("weights", 90 * MIB), ("KV cache", 8 * MIB)], 100 * MIB, "other")
    assert [(part.name, part.text) for part in shown.parts] == [
        ("weights", "90 MiB"),
        ("KV cache", "8 MiB"),
        ("other", "2 MiB"),
    ]
    assert shown.total_text == "100 MiB"


@pytest.mark.parametrize("total", [700, 5 * KIB + 17, 37 * MIB + 12345, 612 * MIB + 99, 3 * GIB + 7 * MIB + 5])
def test_any_split_adds_up_as_written(total: int) -> None:
    parts = [("a", total // 7), ("b", total // 5), ("c", total // 3)]
    shown = shown_sizes(parts, total, "other")
    assert sum(part.steps for part in shown.parts) == shown.total_steps
    assert shown.total_text == format_bytes(total)
    written = sum(float(part.text.split()[0]) for part in shown.parts)
    assert written == pytest.approx(float(shown.total_text.split()[0]), abs=1e-9)


def test_parts_larger_than_the_total_are_refused() -> None:
    with pytest.raises(ValueError, match="exceed the total"):
        shown_sizes([("a", 2 * MIB)], MIB, "other")
    with pytest.raises(ValueError, match="negative"):
        shown_sizes([("a", -1)], MIB, "other")
