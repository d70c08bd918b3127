"""Remote speed: Glassbox's remote backend vs the official `openai` client, on one real server.

Both read the same server's stream (`llama_cpp.server` on the bench model, on loopback) for
the same greedy request, in alternating rounds. Speed is content chunks per second from the
first to the last; time to first token is from the request to the first content chunk. The
server's own work is the same for both, so the ratio and the difference are what Glassbox's
client adds. Both are judged round by round: the speed ratio and the difference in time to
first token of the two reads in the same round.
"""

from __future__ import annotations

import importlib
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.bench.llama_server import ServerUnavailable, server_missing, start_llama_server
from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import TokenPiece

SECTION = "remote"
PROMPT = "Write a long story about a lighthouse keeper and a storm, in at least five paragraphs."
SPEED = "streamed tok/s: Glassbox remote backend ÷ official openai client (per round)"
EXTRA_TTFT = "time to first token Glassbox adds (per round)"
SPEED_TARGET = ">= 0.97"
TTFT_TARGET = "<= 5"
Measured = dict[str, list[tuple[float, float]]]  # per reader: (tokens/s, seconds to first chunk) per round


def run(context: BenchContext) -> list[BenchRow]:
    missing = server_missing() or _openai_missing()
    if missing:
        return _not_measured(missing)
    loop = context.rounds(3 if context.quick else 7)
    params = replace(GREEDY, max_tokens=24 if context.smoke else 64 if context.quick else 200)
    with tempfile.TemporaryDirectory(prefix="glassbox-bench-") as logs:
        try:
            server = start_llama_server(context.model_path, Path(logs))
        except ServerUnavailable as error:
            return _not_measured(str(error)[:200])
        try:
            ours = RemoteBackend(RemoteConfig(server.url))
            theirs = _OpenAiReader(server.url)
            measured: Measured = {"glassbox": [], "openai": []}
            loop.judge(SPEED_TARGET, lambda: _speed_ratios(measured))
            loop.judge(TTFT_TARGET, lambda: _extra_ttft_ms(measured))
            _glassbox_round(ours, params)  # warm up: the server's first request loads its caches
            for index in loop:  # alternating who goes first, so drift hits both alike
                for name in ("openai", "glassbox") if index % 2 == 0 else ("glassbox", "openai"):
                    reader = theirs.round if name == "openai" else lambda p: _glassbox_round(ours, p)
                    measured[name].append(reader(params))
            ours.close()
        finally:
            server.stop()
    speed = {name: statistics.median(s for s, _ in runs) for name, runs in measured.items()}
    ttft = {name: statistics.median(t for _, t in runs) for name, runs in measured.items()}
    context.details[SECTION] = {"rounds": measured, "max_tokens": params.max_tokens}
    return [
        row(SECTION, "(r1) official openai client", speed["openai"], "tok/s"),
        row(SECTION, "(r2) app.core.backends.remote", speed["glassbox"], "tok/s"),
        judged(SECTION, SPEED, _speed_ratios(measured), "ratio", SPEED_TARGET),
        row(SECTION, "time to first token: official openai client (median)", ttft["openai"] * 1000, "ms"),
        row(SECTION, "time to first token: app.core.backends.remote (median)", ttft["glassbox"] * 1000, "ms"),
        judged(SECTION, EXTRA_TTFT, _extra_ttft_ms(measured), "ms", TTFT_TARGET),
    ]


def _speed_ratios(measured: Measured) -> list[float]:
    return [ours[0] / theirs[0] for ours, theirs in zip(measured["glassbox"], measured["openai"], strict=True)]


def _extra_ttft_ms(measured: Measured) -> list[float]:
    return [(ours[1] - theirs[1]) * 1000 for ours, theirs in zip(measured["glassbox"], measured["openai"], strict=True)]


def _not_measured(reason: str) -> list[BenchRow]:
    return [
        not_measured(SECTION, SPEED, reason, "ratio", SPEED_TARGET),
        not_measured(SECTION, EXTRA_TTFT, reason, "ms", TTFT_TARGET),
    ]


def _openai() -> Any:
    """The yardstick client, present in a development install (the test extra); the bundle leaves
    it out (packaging/bundle_rules.py), so there this section says it was not measured."""
    return importlib.import_module("openai")


def _openai_missing() -> str:
    try:
        _openai()
    except ImportError:
        return "the openai package is not installed (pip install openai)"
    return ""


def _glassbox_round(backend: RemoteBackend, params: SamplingParams) -> tuple[float, float]:
    """(tokens/s first chunk to last, seconds to the first chunk)."""
    started = time.perf_counter()
    first = last = 0.0
    count = 0
    for event in backend.stream_chat([ChatMessage("user", PROMPT)], params, threading.Event()):
        if isinstance(event, TokenPiece) and event.text:
            last = time.perf_counter()
            first = first or last
            count += 1
    return (count - 1) / (last - first), first - started


class _OpenAiReader:
    """The yardstick: the official client reading the same stream."""

    def __init__(self, url: str) -> None:
        self._client = _openai().OpenAI(base_url=f"{url}/v1", api_key="not-needed")
        self._model = self._client.models.list().data[0].id

    def round(self, params: SamplingParams) -> tuple[float, float]:
        started = time.perf_counter()
        first = last = 0.0
        count = 0
        stream = self._client.chat.completions.create(
            model=self._model,
            messages=[{"role": "user", "content": PROMPT}],
            stream=True,
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            seed=params.seed,
            presence_penalty=params.presence_penalty,
            frequency_penalty=params.frequency_penalty,
        )
        for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                last = time.perf_counter()
                first = first or last
                count += 1
        return (count - 1) / (last - first), first - started
