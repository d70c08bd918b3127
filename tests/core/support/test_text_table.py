"""The one table printer, as the CLI and the bench print it."""

from __future__ import annotations

import pytest

from app.core.support.text_table import text_table


def test_plain_columns_are_padded_to_the_widest_cell() -> None:
    assert text_table(("name", "size"), [("SmolLM2", "98 MiB"), ("a", "1 B")]) == (
        "name     size\nSmolLM2  98 MiB\na        1 B"
    )


def test_markdown_tables_have_a_rule_under_the_header() -> None:
    assert text_table(("metric", "value"), [("c/a", 0.97)], markdown=True).splitlines() == [
        "| metric | value |",
        "|--------|-------|",
        "| c/a    | 0.97  |",
    ]


def test_a_row_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="2 cells for 3 columns"):
        text_table(("a", "b", "c"), [("1", "2")])
