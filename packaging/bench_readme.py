"""The README's performance table, written from a committed `bench --json` run (never typed by hand).

    python -m app bench --json resources/bench/results.json
    python packaging/bench_readme.py      # README.md's table between its bench markers

Every row of the run is listed with its value as measured. A row with a target shows the
interval of its median over its rounds and its verdict (met, missed, within noise, not
enough rounds, too noisy to judge; app/bench/intervals.py), or "exact" for a deterministic
value; a row that measured nothing says why and is neither met nor missed; a row with a
target but no verdict says why (its note). Below the rows, the machine's speed while each
section ran, from the calibration probes.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from app.bench.intervals import Drift

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "resources" / "bench" / "results.json"
README = ROOT / "README.md"
START = "<!-- bench:start (packaging/bench_readme.py writes this table from resources/bench/results.json) -->"
END = "<!-- bench:end -->"
EXPLAINED = (
    "A value with a target is the median of its rounds (each round pairs what it compares); "
    "the interval is a 90 % percentile bootstrap interval of that median over the rounds. "
    "*met*: the whole interval clears the target; *missed*: none of it does; *within noise*: it straddles "
    "the target; *too noisy to judge*: llama.cpp's own decode rate, probed before each round, spread by more "
    "than 25 % (upper over lower quartile) while the section ran."
)


def _number(value: float) -> str:
    return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"


def _value(row: dict[str, Any]) -> str:
    if row["value"] is None:
        return f"not measured: {row['note']}"
    return f"{_number(float(row['value']))} {row['unit']}".strip()


def _interval(row: dict[str, Any]) -> str:
    interval = row["interval"]
    if interval is not None:
        return f"{_number(interval['low'])} – {_number(interval['high'])}"
    if row["verdict"] in ("met", "missed") and not row["rounds"]:
        return "exact"
    return ""


def _verdict(row: dict[str, Any]) -> str:
    if not row["target"] or row["value"] is None:
        return ""
    if row["verdict"] is None:
        return str(row["note"])
    return "**missed**" if row["verdict"] == "missed" else str(row["verdict"])


def _noise(noise: dict[str, dict[str, Any]]) -> list[str]:
    if not noise:
        return ["No calibration probes were recorded in this run."]
    lines = [
        "The machine's speed while each section ran (llama.cpp's decode rate at its calibration probes, tokens/s):",
        "",
        "| section | min | median | max | drift (upper ÷ lower quartile) | extra rounds | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, section in noise.items():
        if "drift" in section:
            speeds = " | ".join(f"{section[key]:.1f}" for key in ("min", "median", "max"))
            drift = f"{section['drift']:.3f}" + (" (too noisy to judge)" if section["too_noisy"] else "")
        else:
            speeds, drift = f"{section['note']} | | ", ""
        lines.append(f"| {name} | {speeds} | {drift} | {section['extra_rounds']} | {section['seconds']:.0f} |")
    rates = [rate for section in noise.values() for rate in section["decode_rates"]]
    if len(rates) >= 2:  # each section is judged on its own drift; this is how the run as a whole moved
        speeds = f"{min(rates):.1f} | {statistics.median(rates):.1f} | {max(rates):.1f}"
        extra = sum(section["extra_rounds"] for section in noise.values())
        seconds = sum(section["seconds"] for section in noise.values())
        lines.append(f"| whole run | {speeds} | {Drift(tuple(rates)).ratio:.3f} | {extra} | {seconds:.0f} |")
    return lines


def table(results: dict[str, Any]) -> str:
    lines = [
        f"Run of {results['when']} on {results['machine']['platform']}, Python {results['machine']['python']}.",
        EXPLAINED,
        "",
        "| section | metric | value | 90 % interval | rounds | target | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        metric = row["metric"].replace("|", "\\|")
        rounds = len(row["rounds"]) or ""
        lines.append(
            f"| {row['section']} | {metric} | {_value(row)} | {_interval(row)} | {rounds} | {row['target']} "
            f"| {_verdict(row)} |"
        )
    return "\n".join([*lines, "", *_noise(results["details"].get("noise", {}))])


def main() -> int:
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    readme = README.read_text(encoding="utf-8")
    if START not in readme or END not in readme:
        print(f"README.md has no bench markers ({START} … {END})", file=sys.stderr)
        return 1
    head, rest = readme.split(START, 1)
    _old, tail = rest.split(END, 1)
    README.write_text(f"{head}{START}\n{table(results)}\n{END}{tail}", encoding="utf-8")
    print(f"README.md: {len(results['rows'])} bench rows from {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
