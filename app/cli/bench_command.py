"""`glassbox bench [--list] [--section NAME ...] [--rounds N] [--json PATH]`: the performance table."""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from app.bench import NOISE, SECTIONS, BenchContext, format_noise, format_table, missed, write_json
from app.bench.rounds import EXTRA_SECONDS, ExtraTime
from app.bench.runner import run_sections
from app.cli.common import CommandError, fail, quiet_logging, resolve_model


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument("--list", action="store_true", help="name the sections and exit")
    parser.add_argument(
        "--section",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this section (repeat it, or give a comma list; --list names them)",
    )
    parser.add_argument("--rounds", type=_positive, help="base rounds of every loop, instead of each section's own")
    parser.add_argument(
        "--extra-seconds",
        type=_not_negative,
        default=EXTRA_SECONDS,
        help=f"time per section for extra rounds while a ratio is within noise (default {EXTRA_SECONDS:.0f})",
    )
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--model", help="path to a .gguf file (default: the starter model)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, for a fast look")
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"a whole number of rounds, at least 1, not {text!r}")
    return value


def _not_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"a number of seconds, 0 or more, not {text!r}")
    return value


def chosen_sections(asked: list[str]) -> list[str]:
    """The sections named by --section (each may be a comma list); CommandError for an unknown one."""
    names = [name.strip() for entry in asked for name in entry.split(",") if name.strip()]
    unknown = [name for name in names if name not in SECTIONS]
    if unknown:
        raise CommandError(f"no bench section {', '.join(unknown)}; the sections are {', '.join(SECTIONS)}")
    return names


def run(args: argparse.Namespace) -> int:
    if args.list:
        print("\n".join(SECTIONS))
        return 0
    quiet_logging(False)
    try:
        only = chosen_sections(args.section)
        context = BenchContext(
            model_path=resolve_model(args.model),
            quick=args.quick,
            base_rounds=args.rounds,
            extra_time=ExtraTime(args.extra_seconds),
        )
    except CommandError as error:
        return fail(str(error))
    rows = run_sections(context, only, prepare=partial(quiet_logging, False))
    print(format_table(rows))
    print()
    print("The machine's speed while each section ran (llama.cpp's decode rate at its calibration probes):")
    print(format_noise(context.details[NOISE]))
    if args.json:
        write_json(args.json, rows, context)
        print(f"written to {args.json}")
    return 3 if missed(rows) else 0
