"""The `decoding` bench section: beam search per token against greedy, and a fork's first token against a fresh TTFT."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.decoding import FORK, run
from tests.bench.quick import quick_context


@pytest.mark.requires_model
def test_the_section_measures_beam_search_and_fork_against_their_targets(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in run(context)}

    beam = rows["beam width 4 ÷ greedy, per output token (per round)"]
    assert beam.target == "<= 2" and beam.measured and beam.value > 0 and beam.verdict is not None
    fork = rows[FORK]
    assert fork.target == "<= 0.2" and fork.measured and fork.value > 0 and fork.verdict is not None
    assert rows["beam width 1 ÷ greedy, per output token"].measured
    details = context.details["decoding"]
    assert len(details["beam4_token_s"]) == len(details["greedy_token_s"]) == len(beam.rounds) >= 3
    assert details["fork_ttft_s"][0] < details["fresh_ttft_s"][0]  # the fork's prefix came from the cache
