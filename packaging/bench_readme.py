"""The README's performance table, written from a committed `bench --json` run (never typed by hand).

    python -m app bench --json resources/bench/results.json
    python packaging/bench_readme.py      # README.md's table between its bench markers

Every row of the run is listed with its value as measured; a row that measured nothing says
why and counts as neither met nor missed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "resources" / "bench" / "results.json"
README = ROOT / "README.md"
START = "<!-- bench:start (packaging/bench_readme.py writes this table from resources/bench/results.json) -->"
END = "<!-- bench:end -->"


def _value(row: dict[str, Any]) -> str:
    if row["value"] is None:
        return f"not measured: {row['note']}"
    value = float(row["value"])
    shown = f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{shown} {row['unit']}".strip()


def _met(row: dict[str, Any]) -> str:
    if not row["target"] or row["value"] is None:
        return ""
    return "yes" if row["passed"] else "**no**"


def table(results: dict[str, Any]) -> str:
    lines = [
        f"Run of {results['when']} on {results['machine']['platform']}, Python {results['machine']['python']}:",
        "",
        "| section | metric | value | target | met |",
        "|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        metric = row["metric"].replace("|", "\\|")
        lines.append(f"| {row['section']} | {metric} | {_value(row)} | {row['target']} | {_met(row)} |")
    return "\n".join(lines)


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
