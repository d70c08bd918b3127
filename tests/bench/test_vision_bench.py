"""The `vision` bench section: an image's encoding time and tokens, and TTFT with an image ÷ without."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.vision import ENCODE, TOKENS, TTFT, run
from tests.bench.quick import quick_context


@pytest.mark.requires_model
def test_the_section_reports_encoding_tokens_and_the_ttft_ratio(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in run(context)}
    assert rows[ENCODE].measured and rows[ENCODE].value > 0 and rows[ENCODE].unit == "ms"
    assert rows[TOKENS].value == 64
    assert rows[TTFT].measured and rows[TTFT].value > 0
    assert all(r.target == "" and r.verdict is None for r in rows.values())  # reported, no target
    details = context.details["vision"]
    assert len(details["image_encode_s"]) == len(details["ttft_with_image_s"]) == len(details["ttft_without_s"]) >= 3
