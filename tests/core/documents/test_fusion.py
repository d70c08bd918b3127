"""Reciprocal rank fusion of the keyword and vector rankings: exact orders on hand-made lists."""

from __future__ import annotations

import pytest

from app.core.documents.fusion import reciprocal_rank_fusion


def test_what_both_lists_rank_high_comes_first_then_each_lists_own() -> None:
    fused = reciprocal_rank_fusion({"keyword": ["a", "b", "c"], "vector": ["c", "a", "d"]})

    assert [f.key for f in fused] == ["a", "c", "b", "d"]
    assert fused[0].score == pytest.approx(1 / 61 + 1 / 62)
    assert fused[0].ranks == {"keyword": 1, "vector": 2}
    assert fused[2].ranks == {"keyword": 2}
    assert fused[3].ranks == {"vector": 3}


def test_a_tie_keeps_the_order_of_first_appearance() -> None:
    fused = reciprocal_rank_fusion({"keyword": ["x"], "vector": ["y"]})

    assert [f.key for f in fused] == ["x", "y"]


def test_a_key_listed_twice_in_one_list_counts_once() -> None:
    fused = reciprocal_rank_fusion({"keyword": ["a", "a", "b"]})

    assert [(f.key, f.ranks) for f in fused] == [("a", {"keyword": 1}), ("b", {"keyword": 3})]


def test_one_empty_list_leaves_the_other_as_it_was() -> None:
    fused = reciprocal_rank_fusion({"keyword": [], "vector": [3, 1, 2]})

    assert [f.key for f in fused] == [3, 1, 2]
