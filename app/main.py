"""Command line and GUI entry point: `glassbox [gui|chat|selftest|bench|models ...]`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from app import __version__
from app.cli import bench_command, chat_command, gui_command, models_command, selftest_command

# Each module adds one subcommand: `register(subparsers)` sets `handler` on its parser.
COMMANDS = [gui_command, chat_command, selftest_command, bench_command, models_command]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="glassbox", description="Chat with language models on your own machine, and see inside."
    )
    parser.add_argument("--version", action="version", version=f"Glassbox {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        args = build_parser().parse_args(["gui", *(argv or sys.argv[1:])])
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
