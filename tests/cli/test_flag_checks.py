"""`glassbox chat`'s flags are checked with the settings' own bounds: a bad value stops before any model loads."""

from __future__ import annotations

import pytest

from app.cli.flag_checks import accepted, bounded
from app.core.inference.sampling import SAMPLING_FIELDS
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS
from app.main import main


@pytest.mark.parametrize(
    ("flag", "value", "reason"),
    [
        ("--temperature", "-5", "must be a number from 0 to 2, not -5"),
        ("--temperature", "nan", "must be a number from 0 to 2, not nan"),
        ("--temperature", "inf", "must be a number from 0 to 2, not inf"),
        ("--gpu-layers", "-5", "must be a whole number from 0 to 1024, not -5"),
        ("--gpu-layers", "9" * 5000, "must be a whole number from 0 to 1024, not " + "9" * 23 + "…"),
        ("--n-ctx", "1.5", "must be a whole number from 256 to 131072, not 1.5"),
        ("--max-tokens", "0", "must be a positive whole number up to 32768, not 0"),
        ("--seed", "-1", "must be a whole number from 0 to 2147483647, not -1"),
        ("--seed", "many", "must be a whole number from 0 to 2147483647, not many"),
    ],
)
def test_a_flag_out_of_its_settings_bounds_exits_2_with_one_line_naming_the_flag_and_its_range(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, reason: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["chat", "--prompt", "hi", flag, value])
    assert exited.value.code == 2
    last_line = capsys.readouterr().err.strip().splitlines()[-1]
    assert last_line == f"glassbox chat: error: argument {flag}: {reason}"


def test_values_within_bounds_are_converted_as_the_settings_convert_them() -> None:
    assert bounded(SAMPLING_FIELDS["temperature"])("0.25") == 0.25
    assert bounded(SAMPLING_FIELDS["seed"])("2147483647") == 2147483647
    assert bounded(GPU_LAYERS_FIELD)("1024") == 1024
    assert bounded(MODEL_FIELDS["n_ctx"])("4096.0") == 4096


def test_the_range_in_words_follows_the_field() -> None:
    assert accepted(SAMPLING_FIELDS["top_p"]) == "a number from 0 to 1"
    assert accepted(SAMPLING_FIELDS["max_tokens"]) == "a positive whole number up to 32768"
    assert accepted(MODEL_FIELDS["n_threads"]) == "a whole number from 0 to 256"
