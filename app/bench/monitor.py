"""The monitor must cost nothing you can see: engine tokens/s with the resource sampler running vs without.

The engine runs as in the window: in its child process (LocalBackend), the starter model,
greedy, the same long reply every round. The sampler runs as in the window too: the real
`ResourceSampler` (psutil for this process and the engine child, NVML for the GPUs) on a
thread of this process, one sample a second. Rounds alternate, off-on then on-off, so drift
on a shared machine falls on both alike; the ratio is the median of the pairs' ratios.
Also reported: what one sample costs (median wall time on the sampler's thread) and that
as a share of one core at one sample a second, which is free of the rounds' noise: on a
busy shared machine the tokens/s of single rounds swing far more than the sampler could
move them. And whether NVML took part (without an NVIDIA GPU its calls are not in the cost).
"""

from __future__ import annotations

import statistics
import threading
import time
from dataclasses import replace

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import default_threads
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.memory.hardware import GpuState
from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone

SECTION = "monitor"
PROMPT = "Write a long story about a lighthouse keeper and a storm, in at least five paragraphs."
N_CTX = 1024
SAMPLE_INTERVAL_S = 1.0  # the window's hardware sampler's
RATIO_TARGET = ">= 0.99"


class SamplingThread:
    """The sampler at the panel's pace on its own thread, timing each sample."""

    def __init__(self, sampler: ResourceSampler, interval_s: float = SAMPLE_INTERVAL_S) -> None:
        self._sampler = sampler
        self._interval_s = interval_s
        self._stop = threading.Event()
        self.costs_s: list[float] = []
        self.gpus_seen = 0
        self._thread: threading.Thread | None = None

    def __enter__(self) -> SamplingThread:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="bench-monitor-sampler")
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.perf_counter()
            sample = self._sampler.sample()
            self.costs_s.append(time.perf_counter() - started)
            if sample.gpu_state is GpuState.AVAILABLE:
                self.gpus_seen = max(self.gpus_seen, len(sample.gpus))
            self._stop.wait(self._interval_s)


def run(context: BenchContext) -> list[BenchRow]:
    pairs = context.rounds(4 if context.quick else 10)
    params = replace(GREEDY, max_tokens=32 if context.smoke else 64 if context.quick else 256)
    messages = [ChatMessage("user", PROMPT)]
    backend = LocalBackend()
    sampler = ResourceSampler(SessionClock())
    sampling = SamplingThread(sampler)
    off: list[float] = []
    on: list[float] = []
    pairs.judge(RATIO_TARGET, lambda: _ratios(on, off))
    try:
        backend.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=default_threads()))
        _speed(backend, messages, params)  # the first reply warms caches and the engine process up
        for pair in pairs:
            for sampled in (False, True) if pair % 2 == 0 else (True, False):
                if sampled:
                    with sampling:
                        on.append(_speed(backend, messages, params))
                else:
                    off.append(_speed(backend, messages, params))
    finally:
        backend.close()
        sampler.close()

    ratios = _ratios(on, off)
    context.details[SECTION] = {
        "without_tok_s": off,
        "with_tok_s": on,
        "pair_ratios": ratios,
        "sample_ms": [cost * 1000 for cost in sampling.costs_s],
        "gpus_sampled": sampling.gpus_seen,
        "max_tokens": params.max_tokens,
    }
    rows = [
        row(SECTION, "engine tokens/s, monitor off", statistics.median(off), "tok/s"),
        row(SECTION, "engine tokens/s, monitor sampling", statistics.median(on), "tok/s"),
        judged(SECTION, "tokens/s with the monitor sampling / without (per pair)", ratios, "ratio", RATIO_TARGET),
        row(SECTION, "one resource sample (median)", statistics.median(sampling.costs_s) * 1000, "ms"),
        # What a sample a second takes from the machine, free of the rounds' noise: the bound the ratio tends to.
        judged(
            SECTION,
            "sampler's share of one core at one sample a second (per sample)",
            [cost / SAMPLE_INTERVAL_S for cost in sampling.costs_s],
            "ratio",
            "< 0.01",
        ),
    ]
    if not sampling.gpus_seen:
        rows.append(not_measured(SECTION, "NVML's share of a sample", "no NVIDIA GPU answered on this machine", "ms"))
    return rows


def _ratios(on: list[float], off: list[float]) -> list[float]:
    """Each pair's speed with the monitor sampling over its speed without."""
    return [with_monitor / without for with_monitor, without in zip(on, off, strict=True)]


def _speed(backend: LocalBackend, messages: list[ChatMessage], params: SamplingParams) -> float:
    """Generation tokens/s of one reply through the engine process."""
    done = None
    for event in backend.stream_chat(messages, params, threading.Event()):
        if isinstance(event, ReplyDone):
            done = event
    if done is None or done.stats.error:
        raise RuntimeError(f"The bench reply failed: {done.stats.error if done else 'no end of reply'}")
    return done.stats.generation_tokens_per_s
