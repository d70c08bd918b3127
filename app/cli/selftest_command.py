"""`glassbox selftest`: load the starter model, generate 16 tokens, exit 0 (the bundle's smoke test).

The work runs in a child process, so that a llama.cpp that dies on this machine (an
"Illegal instruction" from a build for another CPU, an assert) is reported in one line
with what to do, instead of ending the command with a bare signal.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import replace

from app.cli.common import CommandError, fail, quiet_logging, resolve_model
from app.core.inference.crash_report import describe_crash
from app.core.inference.engine import ChatMessage, Engine, EngineError, LoadConfig
from app.core.inference.sampling import GREEDY
from app.core.models.validation import ModelFileError

SELFTEST_TOKENS = 16


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("selftest", help="load the starter model and generate 16 tokens")
    parser.add_argument("--model", help="path to a .gguf file (default: the starter model)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)  # the child's side
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.in_process:
        return _selftest(args)
    options = [*(["--model", args.model] if args.model else []), *(["--verbose"] if args.verbose else [])]
    ended = subprocess.run([*_glassbox_command(), "selftest", "--in-process", *options], check=False)
    if ended.returncode < 0:
        return fail(describe_crash(-ended.returncode, "loading the model and writing a reply"))
    return ended.returncode


def _glassbox_command() -> list[str]:
    """How to start this Glassbox again: the bundle's own executable, or this Python with the app package."""
    return [sys.executable] if getattr(sys, "frozen", False) else [sys.executable, "-m", "app"]


def _selftest(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    engine = Engine()
    try:
        path = resolve_model(args.model)
        report = engine.load(LoadConfig(path, n_ctx=512))
        done = engine.complete_chat([ChatMessage("user", "Say hello.")], replace(GREEDY, max_tokens=SELFTEST_TOKENS))
    except (CommandError, ModelFileError, EngineError) as error:
        return fail(str(error))
    finally:
        engine.close()
    if done.stats.error or done.stats.completion_tokens == 0:
        return fail(f"no reply was generated ({done.stats.error or done.stats.stop_reason.value})")
    print(f"selftest ok: {path.name} loaded in {report.total_seconds:.2f} s")
    print(f"reply ({done.stats.completion_tokens} tokens, {done.stats.generation_tokens_per_s:.1f} tok/s): {done.text}")
    return 0
