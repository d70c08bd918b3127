"""A section whose interval straddles its target runs more rounds by itself, up to its bound, then settles."""

from __future__ import annotations

from pathlib import Path

from app.bench import BenchContext, BenchRow, judged
from app.bench.intervals import Verdict
from app.bench.rounds import MAX_EXTRA_FACTOR, ExtraTime, RoundLoop

TARGET = ">= 0.97"
STRADDLING = [0.95, 0.99]  # round after round: the interval never leaves the target
CLEAR = [1.00, 1.01, 0.99]


class ScriptedSection:
    """A bench section whose rounds are scripted: each round's ratio, and the seconds it takes on a
    clock of its own (nothing is timed for real)."""

    def __init__(self, ratios: list[float], round_s: float) -> None:
        self.ratios = ratios
        self.round_s = round_s
        self.now = 0.0
        self.rounds: list[float] = []

    def clock(self) -> float:
        return self.now

    def run(self, context: BenchContext) -> list[BenchRow]:
        loop = context.rounds(3)
        loop.judge(TARGET, lambda: self.rounds)
        for index in loop:
            self.now += self.round_s
            self.rounds.append(self.ratios[index % len(self.ratios)])
        return [judged("scripted", "ratio (per round)", self.rounds, "ratio", TARGET)]


def _context(section: ScriptedSection, extra_seconds: float) -> BenchContext:
    return BenchContext(Path("unused.gguf"), extra_time=ExtraTime(extra_seconds), clock=section.clock)


def test_a_straddling_section_runs_more_rounds_until_the_next_would_pass_its_bound() -> None:
    section = ScriptedSection(STRADDLING, round_s=10.0)
    context = _context(section, extra_seconds=35.0)
    (result,) = section.run(context)
    assert len(section.rounds) == 6  # 3 rounds, then 3 extra of 10 s each: a fourth would end at 40 s
    assert context.extra_time.rounds == 3 and context.extra_time.spent == 30.0
    assert result.verdict is Verdict.WITHIN_NOISE and len(result.rounds) == 6


def test_a_section_that_settles_runs_its_rounds_and_no_more() -> None:
    section = ScriptedSection(CLEAR, round_s=10.0)
    context = _context(section, extra_seconds=1000.0)
    (result,) = section.run(context)
    assert len(section.rounds) == 3 and context.extra_time.rounds == 0
    assert result.verdict is Verdict.MET


def test_without_extra_time_a_straddling_section_settles_on_its_own_rounds() -> None:
    section = ScriptedSection(STRADDLING, round_s=10.0)
    (result,) = section.run(_context(section, extra_seconds=0.0))
    assert len(section.rounds) == 3 and result.verdict is Verdict.WITHIN_NOISE


def test_extra_rounds_stop_at_a_multiple_of_the_base_rounds_however_quick() -> None:
    section = ScriptedSection(STRADDLING, round_s=0.001)
    section.run(_context(section, extra_seconds=1000.0))
    assert len(section.rounds) == 3 * (1 + MAX_EXTRA_FACTOR)


def test_a_section_already_too_noisy_to_judge_runs_no_extra_rounds() -> None:
    section = ScriptedSection(STRADDLING, round_s=10.0)
    context = _context(section, extra_seconds=1000.0)
    context.decode_rates.extend([140.0, 90.0])  # the machine's speed moved by more than MAX_DRIFT
    section.run(context)
    assert len(section.rounds) == 3 and context.extra_time.rounds == 0


def test_rounds_asked_for_replace_the_section_s_own_count() -> None:
    section = ScriptedSection(CLEAR, round_s=1.0)
    context = _context(section, extra_seconds=0.0)
    context.base_rounds = 5
    section.run(context)
    assert len(section.rounds) == 5


def test_every_round_starts_with_a_calibration_probe() -> None:
    probes: list[int] = []
    loop = RoundLoop(3, ExtraTime(0.0), calibrate=lambda: probes.append(len(probes)))
    seen = [(index, len(probes)) for index in loop]
    assert seen == [(0, 1), (1, 2), (2, 3)]
