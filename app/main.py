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
import importlib
from collections.abc import Sequence

from app import __version__
from app.cli.common import stopped

# Each command: the module that configures its parser (`configure(parser)` adds its options and sets
# `handler`), and what `glassbox --help` says of it. A command imports its own module only: `glassbox chat`
# does not load the bench, the server or the Hub client first.
COMMANDS: dict[str, tuple[str, str]] = {
    "gui": ("app.cli.gui_command", "open the chat window (the default)"),
    "chat": ("app.cli.chat_command", "stream one reply to the terminal"),
    "serve": ("app.cli.serve_command", "serve a model to other programs (OpenAI-compatible API)"),
    "servers": ("app.cli.servers_command", "add, list, remove and test OpenAI-compatible servers"),
    "mcp": ("app.cli.mcp_command", "list the MCP servers of mcp.json and their tools, or call one tool"),
    "selftest": ("app.cli.selftest_command", "load the starter model and generate 16 tokens"),
    "bench": ("app.cli.bench_command", "measure speed as ratios and print a table"),
    "models": ("app.cli.models_command", "find, download and manage GGUF models"),
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `argv`: every command is listed, and the one `argv` names is configured (every one when it
    names none, as for --help)."""
    parser = argparse.ArgumentParser(
        prog="glassbox", description="Chat with language models on your own machine, and see inside."
    )
    parser.add_argument("--version", action="version", version=f"Glassbox {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = next((arg for arg in argv or () if not arg.startswith("-")), None)
    for name, (module, help_text) in COMMANDS.items():
        command = subparsers.add_parser(name, help=help_text)
        if named not in COMMANDS or name == named:
            importlib.import_module(module).configure(command)
    return parser


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """`argv` parsed; none at all is the window (`glassbox` alone opens it, configuring no other command)."""
    given = list(argv) or ["gui"]
    return build_parser(given).parse_args(given)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C in a command that does not stop on its own terms: a word, not a traceback
        return stopped()


if __name__ == "__main__":
    sys.exit(main())
