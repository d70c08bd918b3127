"""Sampling parameters: bounds, explanations, validation messages and presets."""

from __future__ import annotations

from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.inference.sampling import (
    GREEDY,
    PRESET_FIELDS,
    PRESETS,
    SAMPLING_FIELDS,
    InvalidSetting,
    SamplingParams,
    lenient_sampling,
)


def test_every_sampling_field_has_bounds_and_a_one_line_explanation() -> None:
    assert set(SAMPLING_FIELDS) == {f.name for f in fields(SamplingParams)}
    for spec in SAMPLING_FIELDS.values():
        assert spec.label and spec.explanation.endswith(".") and "\n" not in spec.explanation
        assert spec.minimum <= spec.maximum


def test_the_defaults_and_greedy_are_within_the_bounds() -> None:
    for params in (SamplingParams(), GREEDY):
        assert SamplingParams().with_values(params.to_dict()) == params


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("temperature", 2.5, "Temperature must be between 0 and 2, not 2.5."),
        ("top_p", -0.1, "Top-p must be between 0 and 1"),
        ("top_k", 1.5, "Top-k must be a whole number, not 1.5."),
        ("top_k", "many", "Top-k must be a number, not “many”."),
        ("max_tokens", 0, "Max tokens must be between 1 and 32768, not 0."),
        ("seed", -1, "Seed must be between 0 and"),
        ("repeat_penalty", float("nan"), "Repeat penalty must be a number"),
        ("temperature", True, "Temperature must be a number"),
        ("stop", "###", "Stop strings must be a list of texts."),
        ("stop", ["ok", ""], "every entry must be a non-empty text"),
        ("stop", ["x" * 101], "longer than 100 characters"),
        ("min_q", 1, "There is no sampling setting called “min_q”."),
    ],
)
def test_invalid_values_are_refused_with_a_message_naming_the_field_and_the_bounds(
    name: str, value: object, message: str
) -> None:
    with pytest.raises(InvalidSetting) as caught:
        SamplingParams().with_values({name: value})
    assert message in caught.value.message
    assert caught.value.name == name


def test_text_input_is_accepted_with_a_decimal_comma_and_seed_none_means_random() -> None:
    params = SamplingParams().with_values({"temperature": " 0,5 ", "top_k": "20", "seed": None, "stop": ["User:"]})
    assert (params.temperature, params.top_k, params.seed, params.stop) == (0.5, 20, None, ("User:",))


@given(st.dictionaries(st.sampled_from(sorted(SAMPLING_FIELDS)), st.one_of(st.floats(), st.integers(), st.none())))
def test_reading_a_file_never_fails_and_keeps_only_valid_values(data: dict[str, object]) -> None:
    params, problems = lenient_sampling(data)
    for name, value in data.items():
        try:
            expected = SAMPLING_FIELDS[name].check(value)
        except InvalidSetting:
            assert getattr(params, name) == getattr(SamplingParams(), name)
        else:
            assert getattr(params, name) == expected
    assert len(problems) == sum(1 for n, v in data.items() if _invalid(n, v))


def _invalid(name: str, value: object) -> bool:
    try:
        SAMPLING_FIELDS[name].check(value)
    except InvalidSetting:
        return True
    return False


def test_presets_differ_in_how_adventurous_they_are_and_leave_the_reply_length_alone() -> None:
    assert set(PRESETS) == {"Precise", "Balanced", "Creative"}
    temperatures = [SamplingParams().with_values(PRESETS[n]).temperature for n in ("Precise", "Balanced", "Creative")]
    assert temperatures == sorted(temperatures) and len(set(temperatures)) == 3
    mine = SamplingParams(max_tokens=99, seed=7, stop=("END",))
    for preset in PRESETS.values():
        applied = mine.with_values(preset)
        assert (applied.max_tokens, applied.seed, applied.stop) == (99, 7, ("END",))
        assert set(preset) == set(PRESET_FIELDS)


def test_differences_lists_only_the_changed_fields_ready_for_json() -> None:
    changed = SamplingParams(temperature=0.1, stop=("a",))
    assert changed.differences(SamplingParams()) == {"temperature": 0.1, "stop": ["a"]}
