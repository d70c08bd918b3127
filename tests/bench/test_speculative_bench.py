"""The `speculative` bench section measures every row it names and evaluates its targets."""

from __future__ import annotations

import math
from pathlib import Path

from app.bench.speculative import SECTION, run
from tests.bench.quick import quick_context


def test_the_section_measures_the_editing_gain_and_what_auto_costs_a_story(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in run(context)}
    assert all(r.measured and not math.isnan(r.value) and r.value >= 0 for r in rows.values())
    gain = rows["editing: prompt lookup / plain (per round)"]
    assert gain.target == ">= 1.5" and gain.verdict is not None and len(gain.rounds) >= 3
    story = rows["story: Auto / plain (per round)"]
    assert story.target == ">= 0.97" and story.verdict is not None and len(story.rounds) == len(gain.rounds)
    assert rows["editing: acceptance of drafted tokens"].value > 0.5  # the paragraph is in the prompt
    assert all(reply["drafted"] > 0 for reply in context.details[SECTION]["editing"])
