"""`glassbox models ...`: search the Hub, list a repository's variants, download, and manage the library.

Talks to the Hub mirror set in the settings (the Models window's Hub mirror), else HF_ENDPOINT, else
huggingface.co. `download` shows progress in the terminal; Ctrl+C pauses and keeps
the bytes, and running the same command again resumes from them.
"""

from __future__ import annotations

import argparse
import getpass
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from app.cli.common import fail, quiet_logging
from app.core.hub.client import HubClient, HubError, RepoListing, Variant, incomplete_split
from app.core.hub.downloads.errors import NextStep
from app.core.hub.downloads.job import DownloadJob, JobSnapshot, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.mirror import use_mirror
from app.core.hub.remote_header import read_variant_headers
from app.core.hub.token_store import TokenStore, TokenStoreError
from app.core.hub.variant_download import download_requests, projector_for
from app.core.memory.fit import ESTIMATE_NOTE, Candidate, assess, machine_now
from app.core.models.gguf_info import GgufInfo
from app.core.models.gguf_summary import format_parameters
from app.core.models.hashing import Cancelled, VerifiedIndex, VerifyState
from app.core.models.importing import import_model
from app.core.models.library import LibraryError, delete_model, find_model, library_entries, verify_model
from app.core.models.quant import parse_quant
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.settings import load_settings, saved_context
from app.core.support.formatting import format_bytes
from app.core.support.text_table import text_table

PROGRESS_INTERVAL_S = 0.25
EXIT_PAUSED = 130
EXIT_MISMATCH = 2


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's options and its handler, on the parser app.main made for it."""
    parser.add_argument("--verbose", action="store_true", help="show log messages")
    commands = parser.add_subparsers(dest="models_command", metavar="ACTION", required=True)

    search = commands.add_parser("search", help="search Hugging Face for GGUF repositories")
    search.add_argument("text", help="words in the repository name")
    search.add_argument("--limit", type=int, default=20)
    search.set_defaults(handler=run_search)

    files = commands.add_parser("files", help="list a repository's GGUF variants with sizes and fit hints")
    files.add_argument("repo", help="owner/name or a huggingface.co address")
    files.add_argument("--revision", help="branch, tag or commit (default: main)")
    files.set_defaults(handler=run_files)

    download = commands.add_parser("download", help="download, verify and install one variant")
    download.add_argument("repo", help="owner/name or a huggingface.co address")
    download.add_argument("file", help="a file name, a split model's name, or a quantization such as Q4_K_M")
    download.add_argument("--revision", help="branch, tag or commit (default: main)")
    download.set_defaults(handler=run_download)

    listing = commands.add_parser("list", help="list installed models")
    listing.set_defaults(handler=run_list)

    verify = commands.add_parser("verify", help="hash an installed model again and compare with its record")
    verify.add_argument("name", help="model name, file name, or path under the models folder")
    verify.set_defaults(handler=run_verify)

    remove = commands.add_parser("remove", help="delete an installed model")
    remove.add_argument("name", help="model name, file name, or path under the models folder")
    remove.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    remove.set_defaults(handler=run_remove)

    add = commands.add_parser("import", help="copy a .gguf file into the library (hashed once)")
    add.add_argument("path", type=Path)
    add.set_defaults(handler=run_import)

    token = commands.add_parser("token", help="save, clear or check the Hugging Face token (system keyring)")
    token.add_argument("action", choices=["set", "clear", "status"])
    token.set_defaults(handler=run_token)


def _client() -> HubClient:
    _use_saved_mirror()
    return HubClient(token=TokenStore().get())


def _use_saved_mirror() -> None:
    """The Hub mirror the settings name (the window's store puts it in effect there; here it is read once)."""
    use_mirror(load_settings(app_paths().settings_file).settings.hub.endpoint)


def run_search(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    try:
        results = _client().search(args.text, limit=args.limit)
    except HubError as error:
        return fail(error.message)
    if not results:
        print(f"No GGUF repositories match {args.text!r}.")
        return 0
    rows = [
        (
            r.repo_id + (" (gated)" if r.gated else ""),
            f"{r.downloads:,}",
            f"{r.likes:,}",
            r.last_modified.strftime("%Y-%m-%d") if r.last_modified else "",
        )
        for r in results
    ]
    _print_table(("repository", "downloads", "likes", "updated"), rows)
    return 0


def run_files(args: argparse.Namespace) -> int:
    """The variants with the memory planner's verdict, from each header read over HTTP ranges."""
    quiet_logging(args.verbose)
    client = _client()
    try:
        listing = client.listing(args.repo, args.revision)
    except HubError as error:
        return fail(error.message)
    if not listing.variants:
        print(f"{listing.repo_id} has no GGUF files.")
        return 0
    headers = read_variant_headers(client, listing)
    candidates = [
        Candidate(v.key, v.quant, v.size, header if isinstance(header := headers.get(v.key), GgufInfo) else None)
        for v in listing.variants
        if incomplete_split(v) is None
    ]
    assessment = assess(candidates, machine_now(), saved_context())
    best = assessment.recommended
    rows = []
    for variant in listing.variants:
        hint = assessment.hints.get(variant.key)
        parts = f" ({len(variant.files)} parts)" if variant.is_split else ""
        fit = "unusable" if hint is None else hint.fit.value + (" (estimate)" if hint.estimated else "")
        rows.append(
            (
                ("* " if variant.key == best else "  ") + variant.key + parts,
                variant.quant or "?",
                format_bytes(variant.size),
                fit,
                incomplete_split(variant) or variant.note,
            )
        )
    if listing.gated:
        print(
            f"{listing.repo_id} is gated: accept its licence on the Hub and save a token (`glassbox models token set`)."
        )
    _print_table(("variant", "quant", "size", "fit", "quality"), rows)
    projector = projector_for(listing, listing.variants[0])
    if projector is not None:
        print(
            f"\nA vision model: a download takes its projector with it ({projector.filename}, "
            f"{format_bytes(projector.size or 0)}), so it can read images."
        )
    if any(hint.estimated for hint in assessment.hints.values()):
        print(f"\n(estimate): {ESTIMATE_NOTE}; the file's header could not be read from the Hub.")
    if best:
        print(f"\n* recommended for this machine: {best} ({assessment.hints[best].text})")
    else:
        print("\nNo variant fits this machine's free memory.")
    return 0


def run_download(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    try:
        listing = _client().listing(args.repo, args.revision)
        variant = choose_variant(listing, args.file)
    except HubError as error:
        return fail(error.message)
    except LookupError as error:
        return fail(str(error))
    problem = incomplete_split(variant)
    if problem:
        return fail(f"{variant.key} cannot be downloaded: {problem}.")
    store = TokenStore()
    manager = DownloadManager(app_paths(), token_provider=store.get, max_parallel=1)
    jobs: list[DownloadJob] = []
    interrupted = threading.Event()

    def on_interrupt(_signum: int, _frame: object) -> None:
        interrupted.set()
        for job in jobs:
            job.pause()

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        for request in download_requests(listing, variant, args.revision):  # a vision model's projector too
            jobs.append(manager.enqueue(request))
            if interrupted.is_set():
                jobs[-1].pause()
        _show_progress(jobs)
    finally:
        manager.shutdown()
        signal.signal(signal.SIGINT, previous)
    snapshots = [job.snapshot() for job in jobs]
    print(file=sys.stderr)
    failed = [s for s in snapshots if s.state is JobState.FAILED]
    if failed:
        return fail(_failure(failed[0]))
    # A Ctrl-C that came as the last byte arrived stopped nothing: the model is installed, and said so.
    if any(s.state is not JobState.DONE for s in snapshots) and (
        interrupted.is_set() or any(s.state is JobState.PAUSED for s in snapshots)
    ):
        kept = sum(s.downloaded for s in snapshots if s.state is not JobState.DONE)
        print(f"Paused with {format_bytes(kept)} kept. Run the same command again to resume.", file=sys.stderr)
        return EXIT_PAUSED
    path = snapshots[0].destination
    print(f"Installed and verified: {path}")
    return 0


# What to do next, in terminal terms (the core's messages say it in the window's: "press Resume").
CLI_NEXT_STEP = {
    NextStep.RESUME: "Run the same command again to resume.",
    NextStep.RETRY: "Run the same command again to download it again.",
    NextStep.REFRESH: "Run the same command again to use the Hub's current files.",
}


def _failure(snapshot: JobSnapshot) -> str:
    error = snapshot.error
    if error is None:
        return snapshot.message
    return f"{error.problem} {CLI_NEXT_STEP[error.next_step]}" if error.next_step else error.problem


def _status(snapshot: JobSnapshot) -> str:
    """The job's state for the progress line; a stopped job's advice comes once, after the line."""
    if snapshot.state is JobState.PAUSED:
        return f"paused at {format_bytes(snapshot.downloaded)}"
    if snapshot.state is JobState.FAILED:
        return "failed"
    return snapshot.message


def choose_variant(listing: RepoListing, wanted: str) -> Variant:
    """The variant named by file name, split-model name, or quantization (Q4_K_M)."""
    for variant in listing.variants:
        if wanted in (variant.key, *(file.filename for file in variant.files)):
            return variant
    quant = parse_quant(wanted) or wanted.upper()
    matching = [variant for variant in listing.variants if variant.quant == quant]
    if len(matching) == 1:
        return matching[0]
    names = ", ".join(variant.key for variant in (matching or listing.variants))
    if matching:
        raise LookupError(f"Several variants are {quant}: {names}. Give the file name.")
    raise LookupError(f"{listing.repo_id} has no variant {wanted!r}. Choose one of: {names}")


def _show_progress(jobs: Sequence[DownloadJob]) -> None:
    """One terminal line, redrawn a few times a second, until every job has stopped."""
    stopped = (JobState.DONE, JobState.FAILED, JobState.CANCELLED, JobState.PAUSED)
    while True:
        snapshots = [job.snapshot() for job in jobs]
        sys.stderr.write("\r" + _progress_line(snapshots) + "\x1b[K")
        sys.stderr.flush()
        if all(s.state in stopped for s in snapshots) and all(job.wait(0) for job in jobs):
            return
        time.sleep(PROGRESS_INTERVAL_S)


def _progress_line(snapshots: Sequence[JobSnapshot]) -> str:
    current = next((s for s in snapshots if s.state in (JobState.RUNNING, JobState.VERIFYING)), snapshots[-1])
    done = sum(s.downloaded for s in snapshots)
    total = sum(s.total or 0 for s in snapshots)
    percent = f"{done / total:4.0%}" if total else "  ?%"
    speed = f"{format_bytes(current.speed_bps)}/s" if current.speed_bps else ""
    eta = f"ETA {_duration(current.eta_s)}" if current.eta_s is not None else ""
    part = f"[{snapshots.index(current) + 1}/{len(snapshots)}] " if len(snapshots) > 1 else ""
    fields = [percent, f"{format_bytes(done)} / {format_bytes(total)}", speed, eta, f"{part}{_status(current)}"]
    return "  ".join(field for field in fields if field)[:160]


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s"


def run_list(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    models_dir = app_paths().models
    rows = []
    for entry in library_entries(models_dir):
        summary = entry.summary
        rows.append(
            (
                entry.model.name + (" (starter)" if entry.model.is_starter else ""),
                (summary.architecture or "?") if summary else ("missing" if entry.model.missing else "unreadable"),
                format_parameters(summary.parameter_count) if summary else "",
                (summary.quantization or "?") if summary else "",
                format_bytes(entry.model.size_bytes),
                f"{summary.context_length:,}" if summary and summary.context_length else "",
                entry.state.value,
            )
        )
    _print_table(("name", "arch", "params", "quant", "size", "context", "hash"), rows)
    print(f"\nModels folder: {models_dir}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    models_dir = app_paths().models
    try:
        model = find_model(models_dir, args.name)
        result = verify_model(model, VerifiedIndex(models_dir), progress=_hash_progress)
    except (LibraryError, OSError) as error:
        return fail(str(error))
    except Cancelled:
        return fail("cancelled")
    print(file=sys.stderr)
    print(result.message)
    return 0 if result.state is VerifyState.VERIFIED else EXIT_MISMATCH


def run_remove(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    models_dir = app_paths().models
    try:
        model = find_model(models_dir, args.name)
        if not args.yes:
            answer = input(
                f"Delete {model.name} ({format_bytes(model.size_bytes)}, {len(model.files)} file(s))? [y/N] "
            )
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing deleted.")
                return 0
        removed = delete_model(model, models_dir)
    except LibraryError as error:
        return fail(str(error))
    if model.in_place:
        print(f"Removed {model.name} from the library; its file stays at {model.path}.")
        return 0
    print(f"Deleted {len(removed)} file(s) of {model.name}.")
    return 0


def run_import(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    try:
        model = import_model(args.path, app_paths().models, progress=_hash_progress)
    except (LibraryError, ModelFileError) as error:
        return fail(str(error))
    print(file=sys.stderr)
    print(f"Imported {model.name}: {model.path}")
    return 0


def run_token(args: argparse.Namespace) -> int:
    quiet_logging(args.verbose)
    store = TokenStore()
    try:
        if args.action == "set":
            store.set(getpass.getpass("Hugging Face token (input hidden): "))
            print("Token saved in the system keyring.")
        elif args.action == "clear":
            store.clear()
            print("Token removed from the system keyring.")
        elif store.saved_in_keyring():
            print("A token is saved in the system keyring.")
        elif store.get():
            print("No token in the keyring; HF_TOKEN from the environment is used.")
        else:
            print("No token saved. " + store.unavailable_reason())
    except TokenStoreError as error:
        return fail(str(error))
    return 0


def _hash_progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rhashing {done / total if total else 1:4.0%} of {format_bytes(total)}\x1b[K")
    sys.stderr.flush()


def _print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    print(text_table(header, rows))
