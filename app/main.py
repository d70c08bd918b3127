"""Command line and GUI entry point: `glassbox [gui|chat|serve|selftest|bench|models ...]`."""

from __future__ import annotations

import sys

if sys.platform == "win32":
    # llama.cpp's DLLs must be loaded before Qt's on Windows, or loading a model can fail with
    # "access violation reading 0x0000000000000000" (abetlen/llama-cpp-python#1903, #2029).
    # First here, before any module that might import PySide6, for `python -m app` and the
    # `glassbox` entry point alike (packaging/launcher.py does the same for the bundle).
    import llama_cpp  # noqa: F401

import argparse
from collections.abc import Sequence

from app import __version__
from app.cli import (
    bench_command,
    chat_command,
    gui_command,
    mcp_command,
    models_command,
    selftest_command,
    serve_command,
    servers_command,
)
from app.cli.common import stopped

# Each module adds one subcommand: `register(subparsers)` sets `handler` on its parser.
COMMANDS = [
    gui_command,
    chat_command,
    serve_command,
    servers_command,
    mcp_command,
    selftest_command,
    bench_command,
    models_command,
]


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
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C in a command that does not stop on its own terms: a word, not a traceback
        return stopped()


if __name__ == "__main__":
    sys.exit(main())
