"""Bench section `hashing`: the library's SHA-256 verifier against plain `hashlib` over the model file.

Both read the same file from a warm page cache, one after the other in each round (who goes first alternates). The ratio
is the verifier's throughput over hashlib's (`hashlib.file_digest`, the standard library's
own file hasher) within each round, judged over the rounds: 1.0 means no overhead. The
throughputs shown are each side's best round.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path

from app.bench import BenchContext, BenchRow, judged, row
from app.core.models.hashing import sha256_file

SECTION = "hashing"
TARGET = ">= 0.9"
RATIO = "verifier / hashlib.sha256 throughput (per round)"


def _plain(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _verifier(path: Path) -> str:
    return sha256_file(path).hexdigest()


def _timed(function: Callable[[Path], str], path: Path, timings: list[float]) -> str:
    start = time.perf_counter()
    digest = function(path)
    timings.append(time.perf_counter() - start)
    return digest


def run(context: BenchContext) -> list[BenchRow]:
    path = context.model_path
    size = path.stat().st_size
    _plain(path)  # warm the page cache so both read from memory
    plain_times: list[float] = []
    verifier_times: list[float] = []
    loop = context.rounds(3 if context.quick else 7)
    loop.judge(TARGET, lambda: _ratios(plain_times, verifier_times))
    for index in loop:  # who goes first alternates, so drift within a round hits both alike
        if index % 2:
            actual = _timed(_verifier, path, verifier_times)
            expected = _timed(_plain, path, plain_times)
        else:
            expected = _timed(_plain, path, plain_times)
            actual = _timed(_verifier, path, verifier_times)
        if actual != expected:
            raise RuntimeError(f"the verifier's SHA-256 of {path} differs from hashlib's")
    plain, verifier = min(plain_times), min(verifier_times)
    context.details[SECTION] = {
        "file": str(path),
        "bytes": size,
        "plain_seconds": plain_times,
        "verifier_seconds": verifier_times,
    }
    return [
        judged(SECTION, RATIO, _ratios(plain_times, verifier_times), "x", TARGET),
        row(SECTION, "verifier throughput", size / verifier / 1e6, "MB/s"),
        row(SECTION, "hashlib.sha256 throughput", size / plain / 1e6, "MB/s"),
    ]


def _ratios(plain_times: list[float], verifier_times: list[float]) -> list[float]:
    """Each round's verifier throughput over hashlib's: hashlib's time over the verifier's."""
    return [plain / verifier for plain, verifier in zip(plain_times, verifier_times, strict=True)]
