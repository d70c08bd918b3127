"""Each model's usual speed on this machine: the yardstick of the slow-reply alerts.

After every reply that wrote enough tokens to have a speed, its generation tokens/s, its
time to first token and the prompt tokens it evaluated are kept per model file and GPU
layer count (the same file on the CPU and on the GPU are two different speeds), the newest
few dozen of each, in a small JSON file in the data folder. The usual value is the median:
one odd reply does not move it.
"""

from __future__ import annotations

import json
import logging
import statistics
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from app.core.memory.calibration import model_key
from app.core.paths import app_paths
from app.core.support.atomic import atomic_write
from app.core.types.stats import ReplyStats

log = logging.getLogger(__name__)

SPEED_FILE = "reply_speeds.json"
SCHEMA_VERSION = 1
KEEP_RECORDS = 50  # per model run
MIN_RECORDS = 5  # fewer than this is no "usual" yet
MIN_TOKENS = 8  # a reply shorter than this has no meaningful speed
MIN_PROMPT_TOKENS = 16  # prompts shorter than this say nothing about the prompt speed


def run_key(model_path: Path, n_gpu_layers: int) -> str:
    """One model file at one GPU layer count."""
    return f"{model_key(model_path)}|gpu_layers={n_gpu_layers}"


@dataclass(frozen=True)
class SpeedRecord:
    tokens_per_s: float
    ttft_s: float
    evaluated_tokens: int


@dataclass(frozen=True)
class UsualSpeed:
    replies: int  # records the medians come from
    tokens_per_s: float | None  # None: fewer than MIN_RECORDS replies so far
    ttft_s: float | None
    prompt_tokens_per_s: float | None  # evaluated prompt tokens per second of TTFT

    def expected_ttft(self, evaluated_tokens: int) -> float | None:
        """The usual TTFT for a prompt of this many new tokens: the usual TTFT, or the time the
        usual prompt speed needs for them when that is longer (a long paste is not a slowdown)."""
        if self.ttft_s is None:
            return None
        if self.prompt_tokens_per_s:
            return max(self.ttft_s, evaluated_tokens / self.prompt_tokens_per_s)
        return self.ttft_s


def counts(stats: ReplyStats) -> bool:
    """Whether a reply says something about the model's speed."""
    return stats.completion_tokens >= MIN_TOKENS and stats.generation_tokens_per_s > 0 and not stats.error


class SpeedHistory:
    """Per model run, the newest replies' speeds; `path` None keeps them in memory only.

    With `autosave` each recorded reply is written at once; without it the owner calls
    `save()` where a write may take its time (the window does it on its sampler's thread,
    never on the GUI thread). Safe to use from several threads.
    """

    def __init__(self, path: Path | None = None, autosave: bool = True) -> None:
        self._path = path
        self._autosave = autosave
        self._lock = threading.Lock()
        self._records: dict[str, list[SpeedRecord]] = self._read() if path is not None else {}
        self._dirty = False
        self._save_failed = False

    @classmethod
    def default(cls, autosave: bool = True) -> SpeedHistory:
        return cls(app_paths().data / SPEED_FILE, autosave)

    def usual(self, key: str) -> UsualSpeed:
        with self._lock:
            records = list(self._records.get(key, ()))
        if len(records) < MIN_RECORDS:
            return UsualSpeed(len(records), None, None, None)
        prompt_rates = [
            r.evaluated_tokens / r.ttft_s for r in records if r.evaluated_tokens >= MIN_PROMPT_TOKENS and r.ttft_s > 0
        ]
        return UsualSpeed(
            replies=len(records),
            tokens_per_s=statistics.median(r.tokens_per_s for r in records),
            ttft_s=statistics.median(r.ttft_s for r in records),
            prompt_tokens_per_s=statistics.median(prompt_rates) if len(prompt_rates) >= MIN_RECORDS else None,
        )

    def record(self, key: str, stats: ReplyStats) -> bool:
        """Keep this reply's speed (if it has one); True when it was kept."""
        if not counts(stats):
            return False
        record = SpeedRecord(stats.generation_tokens_per_s, stats.time_to_first_token_s, stats.evaluated_prompt_tokens)
        with self._lock:
            records = self._records.setdefault(key, [])
            records.append(record)
            del records[:-KEEP_RECORDS]
            self._dirty = True
        if self._autosave:
            self.save()
        return True

    def save(self) -> None:
        """Write the speeds recorded since the last save (nothing when there are none, or no file)."""
        with self._lock:
            if not self._dirty or self._path is None:
                return
            records = {k: [asdict(r) for r in v] for k, v in self._records.items()}
            self._dirty = False
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self._path, json.dumps({"schema_version": SCHEMA_VERSION, "runs": records}))
        except OSError as error:
            if not self._save_failed:  # once: the speeds stay in use for this session
                log.warning("Could not save the reply speeds to %s: %s", self._path, error)
            self._save_failed = True

    def _read(self) -> dict[str, list[SpeedRecord]]:
        assert self._path is not None
        if not self._path.exists():
            return {}
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
            runs = data["runs"] if data.get("schema_version") == SCHEMA_VERSION else {}
            return {
                str(key): [
                    SpeedRecord(float(r["tokens_per_s"]), float(r["ttft_s"]), int(r["evaluated_tokens"]))
                    for r in records
                ][-KEEP_RECORDS:]
                for key, records in runs.items()
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as error:
            log.warning(
                "The reply speeds in %s could not be read (%s); the usual speeds start afresh.", self._path, error
            )
            return {}
