"""A command loads its own module and not the others': `glassbox chat` starts without the bench, the API
server or the Hub client, while `glassbox --help` still lists every command."""

from __future__ import annotations

import ast
import subprocess
import sys

from app.main import COMMANDS, build_parser, parse_arguments
from tests.repo import REPO_ROOT

# Parses a command line in a fresh interpreter and prints the command modules it imported.
LOADED = (
    "import sys\n"
    "from app.main import parse_arguments\n"
    "parse_arguments(sys.argv[1:])\n"
    "print(sorted(name for name in sys.modules if name.startswith('app.cli.') and name.endswith('_command')))\n"
)


def modules_loaded_by(*argv: str) -> set[str]:
    run = subprocess.run(
        [sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, check=True, cwd=REPO_ROOT, timeout=120
    )
    return set(ast.literal_eval(run.stdout))


def test_a_command_imports_its_own_module_and_what_it_uses_only() -> None:
    chat = modules_loaded_by("chat", "--prompt", "hello", "--max-tokens", "8")
    assert "app.cli.chat_command" in chat  # with the saved servers' module, for --server NAME
    assert not chat & {"app.cli.bench_command", "app.cli.serve_command", "app.cli.models_command"}
    assert modules_loaded_by("models", "list") == {"app.cli.models_command"}
    assert modules_loaded_by() == {"app.cli.gui_command"}  # `glassbox` alone: the window, as a double-click starts it


def test_the_help_lists_every_command_with_its_options() -> None:
    parser = build_parser()
    help_text = parser.format_help()
    assert all(name in help_text for name in COMMANDS)
    assert parser.parse_args(["chat", "--prompt", "hi"]).max_tokens > 0  # configured without being named first


def test_no_command_is_the_window() -> None:
    assert parse_arguments([]).command == "gui"
    assert parse_arguments(["chat", "--prompt", "hi"]).command == "chat"
