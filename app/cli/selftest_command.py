"""`glassbox selftest`: load the starter model, generate 16 tokens, exit 0 (the bundle's smoke test).

The model runs in the engine process, as in the window, so a llama.cpp that dies on this
machine (an "Illegal instruction" from a build for another CPU, an assert) is reported in
one line with what to do, instead of ending the command with a bare signal.
"""

from __future__ import annotations

import argparse
import threading
from dataclasses import replace

from app.cli.common import CommandError, fail, quiet_logging, resolve_model
from app.core.backends.local.backend import LocalBackend
from app.core.inference.sampling import GREEDY
from app.core.models.validation import ModelFileError
from app.core.types.errors import EngineError
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply

SELFTEST_TOKENS = 16


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument("--model", help="path to a .gguf file (default: the starter model)")
    parser.add_argument("--verbose", action="store_true")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    backend = LocalBackend()
    try:
        path = resolve_model(args.model)
        report = backend.load(LoadConfig(path, n_ctx=512)).report
        messages = [ChatMessage("user", "Say hello.")]
        params = replace(GREEDY, max_tokens=SELFTEST_TOKENS)
        done = final_reply(backend.stream_chat(messages, params, threading.Event()))
    except (CommandError, ModelFileError, EngineError) as error:
        return fail(str(error))
    finally:
        backend.close()
    if done.stats.error or done.stats.completion_tokens == 0:
        return fail(f"no reply was generated ({done.stats.error or done.stats.stop_reason.value})")
    print(f"selftest ok: {path.name} loaded in {report.total_seconds:.2f} s")
    print(f"reply ({done.stats.completion_tokens} tokens, {done.stats.generation_tokens_per_s:.1f} tok/s): {done.text}")
    return 0
