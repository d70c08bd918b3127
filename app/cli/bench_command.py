"""`glassbox bench [--json PATH] [--only SECTION ...]`: the performance table."""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path

from app.bench import SECTIONS, BenchContext, format_table, run_sections, write_json
from app.cli.common import CommandError, fail, quiet_logging, resolve_model


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bench", help="measure speed as ratios and print a table")
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=[], help="run only these sections")
    parser.add_argument("--model", help="path to a .gguf file (default: the starter model)")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, for a fast look")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    quiet_logging(False)
    try:
        context = BenchContext(model_path=resolve_model(args.model), quick=args.quick)
    except CommandError as error:
        return fail(str(error))
    rows = run_sections(context, args.only, prepare=partial(quiet_logging, False))
    print(format_table(rows))
    if args.json:
        write_json(args.json, rows, context)
        print(f"written to {args.json}")
    return 0 if all(r.passed is not False for r in rows) else 3
