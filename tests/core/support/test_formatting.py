"""One byte formatter with one unit convention, and placeholders filled without str.format's traps."""

from __future__ import annotations

import pytest

from app.core.support.formatting import GIB, KIB, MIB, fill, format_bytes


@pytest.mark.parametrize(
    ("count", "text"),
    [
        (0, "0 B"),
        (1023, "1023 B"),
        (KIB, "1.0 KiB"),
        (1536, "1.5 KiB"),
        (98 * MIB + MIB // 2, "98.5 MiB"),
        (457 * MIB, "457 MiB"),
        (GIB + GIB // 4, "1.25 GiB"),
        (3 * 1024 * GIB, "3.00 TiB"),
        (-200 * MIB, "-200 MiB"),
    ],
)
def test_sizes_are_in_binary_units(count: int, text: str) -> None:
    assert format_bytes(count) == text


def test_fill_puts_values_into_named_placeholders() -> None:
    assert fill("{name} loaded in {seconds} s", name="SmolLM2", seconds="1.20") == "SmolLM2 loaded in 1.20 s"


def test_fill_never_reads_a_value_as_a_template() -> None:
    assert fill("Error: {error}", error="bad key {path} in {0}") == "Error: bad key {path} in {0}"


def test_fill_leaves_other_braces_and_missing_values_alone() -> None:
    assert fill('JSON {"a": 1} for {who} {missing}', who="you") == 'JSON {"a": 1} for you {missing}'
    assert fill("unmatched { brace {x}", x=1) == "unmatched { brace {x}"
    assert fill("{n:>4} {n!r}", n=3) == "{n:>4} {n!r}"
