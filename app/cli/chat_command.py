"""`glassbox chat --prompt TEXT [--image FILE]… [--server URL|NAME]`: stream one reply to the terminal, no window.

Without --server the model runs on this machine (llama.cpp in the engine process, as in the
window); with it, an OpenAI-compatible server generates the reply through the remote backend.

Ctrl-C stops the reply (or the load) at once and exits 130, as a shell reports a command it
interrupted, with a word on stderr; a second Ctrl-C stops waiting for anything still under way.
The model's text is printed as it comes, except that on a terminal its control characters are
made inert (terminal_text.py); piped to a file it is kept exactly. A thinking model's reasoning
is printed apart from its answer, dimmed on a terminal and marked when piped, or left out with
--hide-thinking (reply_printer.py).

`--image FILE` (repeatable) shows the model pictures, checked before anything loads; a local
model reads them with its projector: `--mmproj FILE`, or the `mmproj-*.gguf` beside the model.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

from app.cli.common import CommandError, fail, quiet_logging, resolve_model, stopped
from app.cli.flag_checks import bounded
from app.cli.reply_printer import ReplyPrinter
from app.cli.servers_command import resolve_server
from app.cli.terminal_text import terminal_safe
from app.core.backends.base import Backend
from app.core.backends.local.backend import LocalBackend
from app.core.backends.remote import RemoteBackend, RemoteError, RemoteReplyDone
from app.core.chat.images import ImageRefused, prepare_image_file
from app.core.inference.sampling import SAMPLING_FIELDS, SamplingParams
from app.core.models.library import installed_models, projector_of
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS, ModelSettings
from app.core.support.stop_flag import StopFlag
from app.core.types.errors import EngineError, LoadCancelled
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument("--prompt", required=True, help="what to say to the model")
    parser.add_argument(
        "--model", help="path to a .gguf file (default: the starter model); with --server, the server's model id"
    )
    parser.add_argument(
        "--server", metavar="URL|NAME", help="an OpenAI-compatible server (an address, or a saved server's name)"
    )
    parser.add_argument(
        "--api-key-env", metavar="NAME", help="with --server: the environment variable that holds its API key"
    )
    parser.add_argument("--system", default="", help="system prompt")
    parser.add_argument(
        "--image", action="append", default=[], metavar="FILE", help="show the model a picture (repeatable)"
    )
    parser.add_argument(
        "--mmproj", metavar="FILE", help="the model's projector, for --image (default: the mmproj-*.gguf beside it)"
    )
    sampling, model = SamplingParams(), ModelSettings()  # the defaults, as the settings declare them
    parser.add_argument("--max-tokens", type=bounded(SAMPLING_FIELDS["max_tokens"]), default=sampling.max_tokens)
    parser.add_argument("--temperature", type=bounded(SAMPLING_FIELDS["temperature"]), default=sampling.temperature)
    parser.add_argument("--seed", type=bounded(SAMPLING_FIELDS["seed"]), default=sampling.seed)
    parser.add_argument("--n-ctx", type=bounded(MODEL_FIELDS["n_ctx"]), default=model.n_ctx)
    parser.add_argument("--gpu-layers", type=bounded(GPU_LAYERS_FIELD), default=model.n_gpu_layers)
    parser.add_argument("--stats", action="store_true", help="print the reply's stats to stderr")
    parser.add_argument(
        "--hide-thinking", action="store_true", help="leave a thinking model's reasoning out, print the answer only"
    )
    parser.add_argument("--verbose", action="store_true", help="show llama.cpp's log")
    add_tool_flags(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    if not args.prompt.strip():
        return fail("the prompt is empty")
    try:
        images = tuple(prepare_image_file(Path(name)).path for name in args.image)
        projector = None if args.server else _projector(args, images)
        backend: Backend = _remote_backend(args) if args.server else LocalBackend()
    except ImageRefused as error:
        return fail(str(error))
    except CommandError as error:
        return fail(str(error))
    stop = StopFlag()
    previous = signal.signal(signal.SIGINT, _on_interrupt(stop))
    try:
        if isinstance(backend, LocalBackend):
            config = LoadConfig(
                resolve_model(args.model), n_ctx=args.n_ctx, n_gpu_layers=args.gpu_layers, mmproj=projector
            )
            backend.load(config, cancel=stop)
        elif args.model:
            backend.select_model(args.model)
        params = _params(args)
        unsent = backend.unsent_params(params)
        if unsent and args.stats:
            print(f"[not sent to the server: {', '.join(unsent)}]", file=sys.stderr)
        messages = _messages(args, images)
        if args.tools and isinstance(backend, LocalBackend | RemoteBackend):
            status = _tool_turn(args, backend, messages, params, stop)
        else:
            status = _print_reply(backend.stream_chat(messages, params, stop), args.stats, args.hide_thinking)
        return stopped() if stop.is_set() else status
    except LoadCancelled:
        return stopped()
    except (CommandError, ModelFileError, EngineError) as error:
        return fail(str(error))
    except RemoteError as error:
        return fail(error.message)
    finally:
        signal.signal(signal.SIGINT, previous)
        backend.close()


def _on_interrupt(stop: threading.Event) -> Callable[[int, FrameType | None], None]:
    """The first Ctrl-C sets the stop flag (the reply ends, the connection closes); a second one
    interrupts whatever is still waiting (main() says Stopped. for it)."""

    def on_interrupt(_signum: int, _frame: FrameType | None) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    return on_interrupt


def _remote_backend(args: argparse.Namespace) -> RemoteBackend:
    api_key = None
    if args.api_key_env:
        api_key = os.environ.get(args.api_key_env)
        if not api_key:
            raise CommandError(f"the environment variable {args.api_key_env} is not set (it should hold the API key)")
    return RemoteBackend(resolve_server(args.server, api_key))


def _tool_turn(
    args: argparse.Namespace,
    backend: LocalBackend | RemoteBackend,
    messages: list[ChatMessage],
    params: SamplingParams,
    stop: StopFlag,
) -> int:
    from app.cli.chat_tools import run_tool_turn  # the MCP SDK takes a second to import: only with --tools
    from app.core.tools.config import McpConfig
    from app.core.tools.errors import McpError
    from app.core.tools.manager import McpManager

    try:
        servers = McpConfig().load()
    except McpError as error:
        raise CommandError(str(error)) from None
    manager = McpManager(servers)
    try:
        done, failure = run_tool_turn(args, backend, manager, messages, params, stop)
    finally:
        manager.close()
    if failure:
        return fail(failure)
    if done is not None:
        if args.stats:
            _print_stats(done)
        if done.stats.error:
            return fail(done.stats.error)
    return 0


def add_tool_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tools", metavar="SERVER[,SERVER]", help="offer the tools of these MCP servers (mcp.json)")
    parser.add_argument(
        "--tool-choice", choices=("auto", "required", "none"), default="auto", help="with --tools (default: auto)"
    )
    parser.add_argument(
        "--approve",
        choices=("ask", "always"),
        default="ask",
        help="with --tools: ask before each call, or run them all",
    )


def _projector(args: argparse.Namespace, images: tuple[Path, ...]) -> Path | None:
    """The projector a local model loads with: --mmproj, else the one the library pairs with the model (beside
    it, or Ollama's) when there are images."""
    if args.mmproj:
        return Path(args.mmproj)
    if not images:
        return None
    model = resolve_model(args.model)
    found = projector_of(app_paths().models, model)
    if found is None:
        seeing = [f"{m.name} ({m.path})" for m in installed_models(app_paths().models) if m.sees_images]
        offer = f"; these in the library can see (--model PATH): {', '.join(seeing)}" if seeing else ""
        raise CommandError(
            f"{model.name} cannot see images: no projector (mmproj-*.gguf) that belongs to it lies beside it; "
            f"give the projector made for it with --mmproj FILE, or pick a vision model{offer}"
        )
    return found


def _messages(args: argparse.Namespace, images: tuple[Path, ...]) -> list[ChatMessage]:
    messages = [ChatMessage("system", args.system)] if args.system else []
    messages.append(ChatMessage("user", args.prompt, images=images))
    return messages


def _params(args: argparse.Namespace) -> SamplingParams:
    return SamplingParams(temperature=args.temperature, seed=args.seed, max_tokens=args.max_tokens)


def _print_reply(events: Iterator[ReplyEvent], stats: bool, hide_thinking: bool) -> int:
    """Stream the pieces to stdout; the exit status is 1 when the reply ended in an error."""
    printer = ReplyPrinter(sys.stdout, terminal=sys.stdout.isatty(), show_thinking=not hide_thinking)
    try:
        for event in events:
            if isinstance(event, ReplyDone):
                printer.end()
                if stats:
                    _print_stats(event)
                if isinstance(event, RemoteReplyDone) and event.notice:
                    print(terminal_safe(event.notice), file=sys.stderr)
                if event.stats.error:
                    return fail(event.stats.error)
            else:
                printer.piece(event)
    finally:
        printer.close()  # a second Ctrl-C in the middle of the reasoning leaves the terminal plain too
    return 0


def _print_stats(done: ReplyDone) -> None:
    s = done.stats
    thinking = f" ({s.reasoning_tokens} thinking for {s.reasoning_s:.1f} s)" if done.reasoning else ""
    encodings = ", ".join(f"{seconds * 1000:.0f} ms" for seconds in s.image_encode_s)
    images = f" ({s.image_tokens} of images, encoded in {encodings})" if encodings else ""
    images = images or (f" ({s.image_tokens} of images)" if s.image_tokens else "")
    print(
        f"[{s.prompt_tokens} prompt tokens{images}, {s.completion_tokens} generated{thinking}, "
        f"first token after {s.time_to_first_token_s * 1000:.0f} ms, "
        f"{s.prompt_eval_tokens_per_s:.1f} prompt tok/s, {s.generation_tokens_per_s:.1f} tok/s, "
        f"stop: {s.stop_reason.value}]",
        file=sys.stderr,
    )
