"""`glassbox serve`: the model as a local OpenAI-compatible server, no window.

Loads the model in the engine process, opens its parallel slots (`--parallel N`: N replies
written at once in one batch, the context split across them as llama-server splits it; by
default what the memory plan allows, at most 4; 1 writes one reply at a time), listens
(127.0.0.1 unless --host says otherwise, which then needs --api-key-file), prints the base
URL to paste into other programs and one line per request (with its slot and how long it
waited for one), and stops cleanly on Ctrl+C (or SIGTERM): replies in progress end at their
next token, the server's threads are joined and the engine process exits. When the engine
process dies, it is restarted and the model reloaded, with a back-off (`EngineKeeper`); the
log says so, /health shows it, and requests meanwhile get 503 with Retry-After.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from pathlib import Path

from app.cli.common import CommandError, fail, quiet_logging, resolve_model
from app.cli.flag_checks import bounded
from app.core.backends.local.backend import LocalBackend
from app.core.inference.sampling import FieldSpec
from app.core.inference.slots import MAX_SLOTS
from app.core.memory.slots_fit import planned_parallel
from app.core.models.library import projector_of
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.server.config import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_QUEUE_LIMIT,
    PORT_FIELD,
    QUEUE_LIMIT_FIELD,
    ServerConfig,
    ServerConfigError,
)
from app.core.server.engine_keeper import EngineHealth, EngineKeeper, EngineState
from app.core.server.model_queue import ModelQueue
from app.core.server.request_log import RequestRecord
from app.core.server.server import ApiServer, ServerStartError
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS, ModelSettings
from app.core.types.errors import EngineError, LoadCancelled
from app.core.types.load import LoadConfig

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
PARALLEL_FIELD = FieldSpec(
    "parallel", "Parallel replies", "int", 1, MAX_SLOTS, "How many replies the model writes at once, in one batch."
)
WAIT_SHOWN_S = 0.01  # a request line says how long it waited for a slot from this long
FLAGS = {
    "host": "--host",
    "port": "--port",
    "api_key": "--api-key-file",
    "cors_origins": "--cors-origin",
    "queue_limit": "--parallel-queue",
    "embedding_model": "--embedding-model",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument("--model", help="path to a .gguf file (default: the starter model)")
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}: this machine only)"
    )
    parser.add_argument("--port", type=bounded(PORT_FIELD), default=DEFAULT_PORT, help="0: any free port")
    parser.add_argument(
        "--api-key-file", type=Path, metavar="FILE", help="a file holding the API key clients must send (required "
        "for any address but 127.0.0.1)",
    )  # fmt: skip
    model = ModelSettings()  # the defaults, as the settings declare them
    parser.add_argument("--n-ctx", type=bounded(MODEL_FIELDS["n_ctx"]), default=model.n_ctx)
    parser.add_argument("--gpu-layers", type=bounded(GPU_LAYERS_FIELD), default=model.n_gpu_layers)
    parser.add_argument(
        "--parallel", type=bounded(PARALLEL_FIELD), metavar="N",
        help="replies written at once, in one batch; the context is split across them (default: what the memory "
        "plan allows, at most 4; 1: one at a time)",
    )  # fmt: skip
    parser.add_argument(
        "--parallel-queue", type=bounded(QUEUE_LIMIT_FIELD), default=DEFAULT_QUEUE_LIMIT, metavar="N",
        help="requests that may wait while one is answered; more get 503 with Retry-After",
    )  # fmt: skip
    parser.add_argument(
        "--cors-origin", action="append", default=[], metavar="ORIGIN",
        help="a web page allowed to call the server, e.g. http://localhost:3000 (repeatable; none by default)",
    )  # fmt: skip
    parser.add_argument(
        "--embedding-model", metavar="GGUF", type=Path,
        help="the model /v1/embeddings runs, in a context of its own (default: the served model's file)",
    )  # fmt: skip
    parser.add_argument(
        "--mmproj", metavar="FILE", type=Path,
        help="the model's projector (mmproj-*.gguf; default: the one beside the model that belongs to it): "
        "clients may then send images (image_url parts)",
    )  # fmt: skip
    parser.add_argument(
        "--allow-image-urls", action="store_true",
        help="fetch images that requests name by http(s) address (off: only data URLs are read)",
    )  # fmt: skip
    parser.add_argument("--verbose", action="store_true", help="show llama.cpp's and the server's log")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    try:
        config = ServerConfig(
            host=args.host,
            port=args.port,
            api_key=_read_key(args.api_key_file),
            cors_origins=tuple(args.cors_origin),
            queue_limit=args.parallel_queue,
            embedding_model=args.embedding_model,
            fetch_image_urls=args.allow_image_urls,
        ).check()
        model = resolve_model(args.model)
    except ServerConfigError as error:
        return fail(f"{FLAGS.get(error.field, error.field)}: {error.message}")
    except CommandError as error:
        return fail(str(error))
    stop = threading.Event()
    previous = {number: signal.signal(number, lambda *_: stop.set()) for number in STOP_SIGNALS}
    backend = LocalBackend()
    try:
        print(f"Loading {model.name}…", file=sys.stderr, flush=True)
        projector = args.mmproj or projector_of(app_paths().models, model)  # a vision model's, found beside it
        load = LoadConfig(model, n_ctx=args.n_ctx, n_gpu_layers=args.gpu_layers, mmproj=projector)
        backend.load(load, cancel=stop)
        parallel = args.parallel or planned_parallel(backend.config or load)
        backend.open_slots(parallel)
        return _serve(config, backend, EngineKeeper(load, on_change=_print_restart), stop)
    except LoadCancelled:
        return 130
    except (ModelFileError, EngineError, ServerStartError) as error:
        return fail(str(error))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        backend.close()


def _serve(config: ServerConfig, backend: LocalBackend, keeper: EngineKeeper, stop: threading.Event) -> int:
    queue = ModelQueue(backend, config.queue_limit, keeper=keeper, slots=backend.parallel)
    server = ApiServer(config, queue)
    server.request_log.add_listener(_print_record)
    try:
        server.start()
        where = "" if config.loopback else f" (listening on {config.host}; clients need the API key)"
        print(f"Glassbox serves {Path(backend.model or '').stem} at {server.base_url}{where}", flush=True)
        if backend.slot_ctx:
            print(
                f"{backend.parallel} replies at once, {backend.slot_ctx} tokens of context each.",
                file=sys.stderr,
                flush=True,
            )
        print("Paste that base URL into any OpenAI-compatible program. Ctrl+C stops.", file=sys.stderr, flush=True)
        while not stop.wait(0.5):  # a timeout, so the signal handler runs promptly on every platform
            pass
        print("Stopping…", file=sys.stderr, flush=True)
        return 0
    finally:
        server.stop()
        queue.close()


def _read_key(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        key = path.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise CommandError(f"cannot read the API key file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"the API key file {path} is not text") from None
    if not key:
        raise CommandError(f"the API key file {path} is empty")
    return key


def _print_restart(health: EngineHealth) -> None:
    """The engine's death and a crash loop reach the terminal as log lines; its return as this one."""
    if health.state is EngineState.RUNNING:
        print(
            f"The engine was restarted and the model reloaded (restart {health.restarts}).", file=sys.stderr, flush=True
        )


def _print_record(record: RequestRecord) -> None:
    """One line per request on stdout: metadata only, never the key or the text."""
    when = time.strftime("%H:%M:%S", time.localtime(record.started_at))
    tokens = f" {record.prompt_tokens}+{record.completion_tokens} tokens" if record.prompt_tokens else ""
    cached = f" ({record.cached_tokens} cached)" if record.cached_tokens else ""
    slot = f" slot {record.slot}" if record.slot is not None else ""
    waited = f" waited {record.queued_s:.2f} s" if record.queued_s >= WAIT_SHOWN_S else ""
    speed = f" {record.tokens_per_s:.1f} tok/s" if record.tokens_per_s is not None else ""
    error = f" — {record.error}" if record.error else ""
    line = f"{when} {record.client} {record.method} {record.endpoint} {record.status}"
    print(f"{line}{slot}{waited}{tokens}{cached}{speed}{error}", flush=True)
