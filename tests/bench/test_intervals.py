"""A bench verdict comes from the interval of a ratio's rounds, never from the luck of one number."""

from __future__ import annotations

import pytest

from app.bench import BenchRow, exact, judge_noise, judged, missed, not_measured, row
from app.bench.intervals import (
    MAX_DRIFT,
    Drift,
    Interval,
    Target,
    Verdict,
    bootstrap_interval,
    exact_verdict,
    verdict,
)

CLEAR_PASS = [1.01, 0.99, 1.00, 1.02, 0.995, 1.005, 1.01]
CLEAR_MISS = [0.91, 0.93, 0.92, 0.90, 0.925, 0.915, 0.93]
STRADDLE = [0.95, 0.99, 0.96, 0.98, 0.94, 1.00, 0.97]


def test_the_interval_holds_the_median_and_lies_within_the_rounds() -> None:
    interval = bootstrap_interval(STRADDLE)
    assert interval is not None
    assert min(STRADDLE) <= interval.low <= 0.97 <= interval.high <= max(STRADDLE)


def test_the_same_rounds_always_give_the_same_interval() -> None:
    assert bootstrap_interval(STRADDLE) == bootstrap_interval(list(STRADDLE))


def test_rounds_that_agree_give_a_point_interval() -> None:
    assert bootstrap_interval([1.0, 1.0, 1.0]) == Interval(1.0, 1.0)


def test_fewer_than_three_rounds_give_no_interval_and_no_verdict() -> None:
    assert bootstrap_interval([0.5, 1.5]) is None
    assert verdict(None, Target.parse(">= 0.97")) is Verdict.NOT_ENOUGH_ROUNDS
    one_round = judged("s", "ratio", [0.5], "ratio", ">= 0.97")
    assert one_round.verdict is Verdict.NOT_ENOUGH_ROUNDS and one_round.interval is None


@pytest.mark.parametrize(
    ("rounds", "expected"),
    [(CLEAR_PASS, Verdict.MET), (CLEAR_MISS, Verdict.MISSED), (STRADDLE, Verdict.WITHIN_NOISE)],
)
def test_a_higher_is_better_target_is_met_missed_or_within_noise_by_the_whole_interval(
    rounds: list[float], expected: Verdict
) -> None:
    bench_row = judged("streaming", "c/a", rounds, "ratio", ">= 0.97")
    assert bench_row.verdict is expected
    assert bench_row.rounds == tuple(rounds) and bench_row.value == pytest.approx(sorted(rounds)[3])


@pytest.mark.parametrize(
    ("interval", "target", "expected"),
    [
        (Interval(1.2, 1.4), "<= 1.5", Verdict.MET),
        (Interval(1.6, 1.9), "<= 1.5", Verdict.MISSED),
        (Interval(1.4, 1.6), "<= 1.5", Verdict.WITHIN_NOISE),
        (Interval(40.0, 50.0), "< 50", Verdict.WITHIN_NOISE),  # 50 does not clear "< 50"
        (Interval(50.0, 60.0), "< 50", Verdict.MISSED),
        (Interval(0.97, 1.0), ">= 0.97", Verdict.MET),  # the bound itself clears ">="
        (Interval(0.97, 1.0), "> 0.97", Verdict.WITHIN_NOISE),
    ],
)
def test_the_verdict_respects_the_target_s_direction(interval: Interval, target: str, expected: Verdict) -> None:
    assert verdict(interval, Target.parse(target)) is expected


def test_a_target_compares_with_one_of_four_operators() -> None:
    with pytest.raises(ValueError, match="not '=='"):
        Target.parse("== 1")


def test_a_deterministic_number_is_met_or_missed_by_itself_and_shows_no_interval() -> None:
    assert exact_verdict(4.9, Target.parse("<= 5")) is Verdict.MET
    bench_row = exact("memory_plan", "weights error", 6.0, "%", "<= 5")
    assert bench_row.verdict is Verdict.MISSED and bench_row.rounds == () and bench_row.interval is None


def test_a_judged_row_needs_a_measured_value_for_every_round() -> None:
    with pytest.raises(ValueError, match="every round"):
        judged("server", "speed", [1.0, float("nan"), 1.0], "ratio", ">= 0.95")
    with pytest.raises(ValueError, match="every round"):
        judged("server", "speed", [], "ratio", ">= 0.95")


def test_a_few_probes_drift_by_their_max_over_min() -> None:
    steady = Drift((100.0, 104.0, 98.0))
    assert steady.ratio == pytest.approx(104 / 98) and not steady.too_noisy
    assert steady.summary() == {"min": 98.0, "median": 100.0, "max": 104.0, "drift": pytest.approx(104 / 98)}
    assert not Drift((100.0,)).measured and not Drift(()).too_noisy  # one probe shows no drift


def test_many_probes_drift_by_their_upper_over_lower_quartile() -> None:
    rates = (100.0, 110.0, 120.0, 130.0, 140.0)
    assert Drift(rates).ratio == pytest.approx(130 / 110)


def test_one_slow_probe_among_steady_ones_is_jitter_not_drift() -> None:
    # A section of the committed run: one probe at 62 tokens/s between neighbours at 121 and 110.
    blip = Drift((121.0, 62.0, 110.0, 86.0, 115.0, 126.0, 96.0, 107.0, 99.0))
    assert max(blip.rates) / min(blip.rates) > 2 and not blip.too_noisy


def test_a_machine_that_slowed_for_a_quarter_of_the_section_is_too_noisy() -> None:
    shifted = Drift((140.0, 141.0, 139.0, 140.0, 142.0, 100.0, 99.0, 101.0, 100.0))
    assert shifted.ratio > MAX_DRIFT and shifted.too_noisy


def test_a_drifting_run_s_verdicts_say_too_noisy_to_judge_and_count_as_nothing() -> None:
    drifting = Drift((143.0, 113.0, 120.0, 80.0))
    assert drifting.ratio > MAX_DRIFT and drifting.too_noisy
    rows = [
        judged("remote", "met", CLEAR_PASS, "ratio", ">= 0.97"),
        judged("remote", "missed", CLEAR_MISS, "ratio", ">= 0.97"),
        judged("remote", "short", [0.5], "ratio", ">= 0.97"),
        exact("memory_plan", "exact", 6.0, "%", "<= 5"),  # no timing in it: the machine's speed cannot move it
        row("remote", "plain", 90.0, "tok/s"),
        not_measured("remote", "none", "no server", "ratio", ">= 0.97"),
    ]
    verdicts = [r.verdict for r in judge_noise(rows, drifting)]
    assert verdicts == [Verdict.TOO_NOISY, Verdict.TOO_NOISY, Verdict.NOT_ENOUGH_ROUNDS, Verdict.MISSED, None, None]
    assert judge_noise(rows, Drift((100.0, 101.0))) == rows


def test_the_run_fails_only_for_rows_that_missed() -> None:
    def with_verdict(judgement: Verdict | None) -> BenchRow:
        return BenchRow("s", str(judgement), 1.0, "ratio", ">= 1", judgement)

    settled = [with_verdict(v) for v in (Verdict.MET, Verdict.WITHIN_NOISE, Verdict.TOO_NOISY, None)]
    assert missed([*settled, with_verdict(Verdict.NOT_ENOUGH_ROUNDS)]) == 0
    assert missed([*settled, with_verdict(Verdict.MISSED)]) == 1
