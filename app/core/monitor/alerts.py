"""Alerts: what a person watching a long run on their own GPU would want to be told, once.

Each alert is an episode. It is raised when its reading crosses the threshold, stays up
(no repeat, no new log line) while the reading stays beyond the hysteresis line, and is
cleared only once the reading is back past that line; the next crossing is a new episode.
So a VRAM use wobbling around 90 % raises one alert, not one per poll.

| kind              | raised when                                            | cleared when                       |
|-------------------|--------------------------------------------------------|------------------------------------|
| VRAM high         | a GPU's used VRAM > threshold (90 %)                   | < threshold − 5 points             |
| RAM low           | available RAM < threshold (10 %)                       | > threshold + 5 points             |
| swap growing      | swap grew by the threshold (256 MiB) since the model   | growth < half of it, or no model   |
|                   | was loaded (from the lowest it has been since)          |                                    |
| context full      | the conversation fills > threshold (90 %) of n_ctx     | < threshold − 10 points            |
| slow tokens       | tokens/s < fraction (½) of this model's usual          | ≥ halfway back to the usual        |
| slow first token  | TTFT > factor (3×) its usual, and at least 1 s         | ≤ halfway back to the usual        |
| failed replies    | this many (3) replies failed in a row                  | a reply that did not fail          |
| idle model        | no use for N (30) minutes while it holds VRAM          | used, unloaded, or VRAM released   |

"Usual" is the median on this machine for this model file at this GPU layer count
(speed_history.py); the usual TTFT allows for a long prompt at the usual prompt speed. A
threshold of 0 turns its alert off. Raising logs a WARNING, clearing an INFO line. Each
alert carries a kind, its numbers (`fields`) and an English message; the window words
them itself from the kind and the fields.

Use an `AlertMonitor` from one thread (the window's GUI thread).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from app.core.inference.sampling import setting
from app.core.memory.hardware import GpuSnapshot
from app.core.monitor.clock import SessionClock
from app.core.monitor.samples import ResourceSample
from app.core.monitor.speed_history import SpeedHistory, counts, run_key
from app.core.support.formatting import MIB, format_bytes
from app.core.support.user_text import N_
from app.core.types.stats import ReplyStats, StopReason

log = logging.getLogger(__name__)

VRAM_HYSTERESIS = 5.0  # percentage points
RAM_HYSTERESIS = 5.0
CONTEXT_HYSTERESIS = 10.0
MIN_SLOW_TTFT_S = 1.0  # a first token within a second is never "slow", however fast it usually comes
HOT_GPU_C = 80  # from here a slow reply's message names the GPU's temperature as a likely cause


class AlertKind(str, enum.Enum):
    VRAM_HIGH = "vram_high"
    RAM_LOW = "ram_low"
    SWAP_GROWING = "swap_growing"
    CONTEXT_FULL = "context_full"
    SLOW_TOKENS = "slow_tokens"
    SLOW_FIRST_TOKEN = "slow_first_token"
    FAILED_REPLIES = "failed_replies"
    IDLE_MODEL = "idle_model"


_OFF = " 0 turns this alert off."


@dataclass(frozen=True)
class AlertThresholds:
    """Where each alert is raised; 0 turns that alert off. Each field is declared here once, with its bounds;
    the monitor settings (app.core.settings.MonitorSettings) extend these and hold the user's values."""

    vram_percent: float = setting(
        90.0,
        N_("VRAM alert (%)"),
        "float",
        0,
        100,
        "Say so when a GPU's memory is fuller than this, by Glassbox and other programs together." + _OFF,
    )
    ram_available_percent: float = setting(
        10.0,
        N_("Low RAM alert (%)"),
        "float",
        0,
        50,
        "Say so when less than this share of the RAM is available." + _OFF,
    )
    swap_growth_mib: int = setting(
        256,
        N_("Swap alert (MiB)"),
        "int",
        0,
        1_048_576,
        "Say so when swap use grows by this much while a model is loaded." + _OFF,
    )
    context_percent: float = setting(
        90.0,
        N_("Full context alert (%)"),
        "float",
        0,
        100,
        "Say so when the conversation fills more than this share of the context window." + _OFF,
    )
    slow_tokens_fraction: float = setting(
        0.5,
        N_("Slow reply alert (share of usual)"),
        "float",
        0,
        0.95,
        "Say so when a reply runs slower than this share of the model's usual tokens/s on this machine." + _OFF,
    )
    slow_first_token_factor: float = setting(
        3.0,
        N_("Slow first token alert (times usual)"),
        "float",
        0,
        100,
        "Say so when the first token takes more than this many times its usual time." + _OFF,
    )
    failed_replies: int = setting(
        3,
        N_("Failed replies alert"),
        "int",
        0,
        100,
        "Say so when this many replies in a row have failed." + _OFF,
    )
    idle_vram_minutes: int = setting(
        30,
        N_("Idle model alert (minutes)"),
        "int",
        0,
        10_080,
        "Offer to unload a model that has not been used for this long and still holds GPU memory." + _OFF,
    )


@dataclass(frozen=True)
class Alert:
    kind: AlertKind
    message: str  # English, for the log and the command line
    fields: Mapping[str, Any] = field(default_factory=dict)  # the numbers behind the message
    subject: str = ""  # what it is about when there can be several ("GPU 0")
    at: float = 0.0  # session seconds when it was raised
    offer_unload: bool = False  # the model can be unloaded to end it

    @property
    def key(self) -> tuple[AlertKind, str]:
        return self.kind, self.subject


@dataclass(frozen=True)
class AlertChange:
    alert: Alert
    raised: bool  # False: the episode ended


@dataclass(frozen=True)
class ModelRun:
    """The model on duty, as the alerts need it."""

    path: Path
    n_gpu_layers: int = 0

    @property
    def key(self) -> str:
        return run_key(self.path, self.n_gpu_layers)

    @property
    def name(self) -> str:
        return self.path.name


class AlertMonitor:
    """Turns samples and replies into alert episodes; every `observe_*` returns what changed."""

    def __init__(
        self,
        thresholds: AlertThresholds | None = None,
        history: SpeedHistory | None = None,
        clock: SessionClock | None = None,
    ) -> None:
        self.thresholds = thresholds or AlertThresholds()
        self.history = history if history is not None else SpeedHistory()
        self.clock = clock or SessionClock()
        self._active: dict[tuple[AlertKind, str], Alert] = {}
        self._model: ModelRun | None = None
        self._last_used = 0.0
        self._replying = False
        self._swap_floor: int | None = None
        self._failures = 0
        self._latest: ResourceSample | None = None

    # ---- what is going on ------------------------------------------------------------

    def active(self) -> list[Alert]:
        return list(self._active.values())

    def set_thresholds(self, thresholds: AlertThresholds) -> list[AlertChange]:
        """New thresholds; an alert whose threshold is now off ends at once (the others at the next reading)."""
        self.thresholds = thresholds
        off = {kind for kind in AlertKind if not self._enabled(kind)}
        return [self._clear(key) for key in list(self._active) if key[0] in off]

    def model_loaded(self, model: ModelRun) -> list[AlertChange]:
        self._model = model
        self._last_used = self.clock.now()
        self._swap_floor = None
        return self._clear_kinds(AlertKind.SWAP_GROWING, AlertKind.IDLE_MODEL, AlertKind.SLOW_TOKENS)

    def model_unloaded(self) -> list[AlertChange]:
        self._model = None
        self._replying = False
        self._swap_floor = None
        return self._clear_kinds(AlertKind.SWAP_GROWING, AlertKind.IDLE_MODEL)

    @property
    def model(self) -> ModelRun | None:
        return self._model

    # ---- readings ----------------------------------------------------------------------

    def observe_sample(self, sample: ResourceSample) -> list[AlertChange]:
        self._latest = sample
        changes: list[AlertChange | None] = [self._vram(gpu) for gpu in sample.gpus]
        changes.append(self._ram(sample))
        changes.append(self._swap(sample))
        changes.append(self._idle(sample))
        return [change for change in changes if change is not None]

    def observe_context(self, used: int, n_ctx: int) -> list[AlertChange]:
        """How full the context window is now (after a reply, or when another chat is shown)."""
        percent = used / n_ctx * 100 if n_ctx > 0 else 0.0
        limit = self.thresholds.context_percent
        change = self._episode(
            AlertKind.CONTEXT_FULL,
            "",
            raise_now=percent > limit,
            clear_now=percent < limit - CONTEXT_HYSTERESIS,
            build=lambda: Alert(
                AlertKind.CONTEXT_FULL,
                f"The conversation fills {percent:.0f} % of the context window ({used:,} of {n_ctx:,} tokens). "
                "The oldest messages will drop out of what the model sees; start a new chat or load the model "
                "with a longer context to keep them.",
                {"percent": percent, "used": used, "n_ctx": n_ctx},
            ),
        )
        return [change] if change is not None else []

    def reply_started(self) -> None:
        self._replying = True
        self._last_used = self.clock.now()

    def observe_reply(self, stats: ReplyStats, n_ctx: int = 0, context_used: int | None = None) -> list[AlertChange]:
        """A reply ended (finished, stopped, or with an error in its stats): speed, failures, context."""
        self._replying = False
        self._last_used = self.clock.now()
        if stats.stop_reason is StopReason.ERROR or stats.error:
            return self.observe_failure(stats.error or "the reply ended with an error")
        changes: list[AlertChange | None] = [self._failures_over()]
        if self._model is not None and counts(stats):
            usual = self.history.usual(self._model.key)
            changes.append(self._slow_tokens(stats, usual.tokens_per_s))
            expected = usual.expected_ttft(stats.evaluated_prompt_tokens)
            changes.append(self._slow_first_token(stats, expected))
            self.history.record(self._model.key, stats)
        result = [change for change in changes if change is not None]
        if n_ctx:
            used = context_used if context_used is not None else stats.prompt_tokens + stats.completion_tokens
            result += self.observe_context(used, n_ctx)
        return result

    def observe_failure(self, message: str) -> list[AlertChange]:
        """A reply failed (an engine error, a crash, a refused request)."""
        self._replying = False
        self._failures += 1
        count = self._failures
        limit = self.thresholds.failed_replies
        change = self._episode(
            AlertKind.FAILED_REPLIES,
            "",
            raise_now=count >= limit,
            clear_now=False,
            build=lambda: Alert(
                AlertKind.FAILED_REPLIES,
                f"The last {count} replies failed; the latest said: {message}",
                {"count": count, "last_error": message},
            ),
        )
        return [change] if change is not None else []

    # ---- the alerts one by one -------------------------------------------------------------

    def _vram(self, gpu: GpuSnapshot) -> AlertChange | None:
        limit = self.thresholds.vram_percent
        percent = gpu.used_percent
        return self._episode(
            AlertKind.VRAM_HIGH,
            f"GPU {gpu.index}",
            raise_now=percent > limit,
            clear_now=percent < limit - VRAM_HYSTERESIS,
            build=lambda: Alert(
                AlertKind.VRAM_HIGH,
                f"GPU {gpu.index} ({gpu.name}) VRAM is {percent:.0f} % full: {format_bytes(gpu.used)} "
                f"of {format_bytes(gpu.total)}, {_app_share(gpu.this_process)} other programs "
                f"{format_bytes(gpu.other_processes)}. A load or a longer context may run out of GPU memory.",
                {
                    "gpu": gpu.index,
                    "name": gpu.name,
                    "percent": percent,
                    "used": gpu.used,
                    "total": gpu.total,
                    "app": gpu.this_process,
                    "others": gpu.other_processes,
                },
            ),
        )

    def _ram(self, sample: ResourceSample) -> AlertChange | None:
        percent = sample.ram_available_percent
        if percent is None or sample.ram_available is None or sample.ram_total is None:
            return None
        available, total = sample.ram_available, sample.ram_total
        limit = self.thresholds.ram_available_percent
        return self._episode(
            AlertKind.RAM_LOW,
            "",
            raise_now=percent < limit,
            clear_now=percent > limit + RAM_HYSTERESIS,
            build=lambda: Alert(
                AlertKind.RAM_LOW,
                f"Only {percent:.0f} % of the RAM is available ({format_bytes(available)} of "
                f"{format_bytes(total)}). The system may start swapping and everything slows down; close other "
                "programs or use a smaller model.",
                {"percent": percent, "available": available, "total": total, "app": sample.ram_app},
            ),
        )

    def _swap(self, sample: ResourceSample) -> AlertChange | None:
        if sample.swap_used is None:
            return None
        if self._model is None:
            return self._clear_if_active((AlertKind.SWAP_GROWING, ""))
        floor = sample.swap_used if self._swap_floor is None else min(self._swap_floor, sample.swap_used)
        self._swap_floor = floor
        growth = sample.swap_used - floor
        limit = self.thresholds.swap_growth_mib * MIB
        swap_used, model = sample.swap_used, self._model
        return self._episode(
            AlertKind.SWAP_GROWING,
            "",
            raise_now=growth >= limit,
            clear_now=growth < limit / 2,
            build=lambda: Alert(
                AlertKind.SWAP_GROWING,
                f"Swap use grew by {format_bytes(growth)} while {model.name} is loaded (now "
                f"{format_bytes(swap_used)}): the machine is short of RAM and the model's memory may be paged "
                "out, which makes replies crawl. Close other programs or use a smaller model.",
                {"growth": growth, "swap_used": swap_used, "model": model.name},
            ),
        )

    def _idle(self, sample: ResourceSample) -> AlertChange | None:
        held = sample.vram_app or 0
        idle_s = sample.t - self._last_used
        minutes = self.thresholds.idle_vram_minutes
        model = self._model
        return self._episode(
            AlertKind.IDLE_MODEL,
            "",
            raise_now=model is not None and not self._replying and held > 0 and idle_s >= minutes * 60,
            clear_now=model is None or self._replying or held == 0 or idle_s < minutes * 60,
            build=lambda: Alert(
                AlertKind.IDLE_MODEL,
                f"{model.name if model else 'The model'} has not been used for {idle_s / 60:.0f} minutes and holds "
                f"{format_bytes(held)} of VRAM. Unload it to give the GPU to other programs; the next message "
                "loads it again.",
                {"minutes": idle_s / 60, "vram": held, "model": model.name if model else ""},
                offer_unload=True,
            ),
        )

    def _slow_tokens(self, stats: ReplyStats, usual: float | None) -> AlertChange | None:
        if usual is None:
            return None
        fraction = self.thresholds.slow_tokens_fraction
        speed = stats.generation_tokens_per_s
        hot = self._hottest_gpu()
        cause = (
            f" The GPU is at {hot} °C and may be throttling."
            if hot is not None and hot >= HOT_GPU_C
            else " Another program may be using the GPU or the CPU, or the machine is throttling."
        )
        return self._episode(
            AlertKind.SLOW_TOKENS,
            "",
            raise_now=speed < fraction * usual,
            clear_now=speed >= (1 + fraction) / 2 * usual,
            build=lambda: Alert(
                AlertKind.SLOW_TOKENS,
                f"This reply ran at {speed:.1f} tokens/s, {speed / usual:.0%} of this model's usual {usual:.1f} "
                f"tokens/s on this machine.{cause}",
                {"tokens_per_s": speed, "usual": usual, "temperature_c": hot},
            ),
        )

    def _slow_first_token(self, stats: ReplyStats, expected: float | None) -> AlertChange | None:
        if expected is None or expected <= 0:
            return None
        factor = self.thresholds.slow_first_token_factor
        ttft = stats.time_to_first_token_s
        evaluated = stats.evaluated_prompt_tokens
        return self._episode(
            AlertKind.SLOW_FIRST_TOKEN,
            "",
            raise_now=ttft > factor * expected and ttft >= MIN_SLOW_TTFT_S,
            clear_now=ttft <= (1 + factor) / 2 * expected or ttft < MIN_SLOW_TTFT_S,
            build=lambda: Alert(
                AlertKind.SLOW_FIRST_TOKEN,
                f"The first token took {ttft:.1f} s, {ttft / expected:.1f}× the usual {expected:.1f} s for a prompt "
                f"of {evaluated:,} new tokens. Another program may be using the GPU or the CPU.",
                {"ttft_s": ttft, "usual_s": expected, "evaluated_tokens": evaluated},
            ),
        )

    def _failures_over(self) -> AlertChange | None:
        self._failures = 0
        return self._clear_if_active((AlertKind.FAILED_REPLIES, ""))

    # ---- episodes -------------------------------------------------------------------------

    def _enabled(self, kind: AlertKind) -> bool:
        limits: dict[AlertKind, float] = {
            AlertKind.VRAM_HIGH: self.thresholds.vram_percent,
            AlertKind.RAM_LOW: self.thresholds.ram_available_percent,
            AlertKind.SWAP_GROWING: self.thresholds.swap_growth_mib,
            AlertKind.CONTEXT_FULL: self.thresholds.context_percent,
            AlertKind.SLOW_TOKENS: self.thresholds.slow_tokens_fraction,
            AlertKind.SLOW_FIRST_TOKEN: self.thresholds.slow_first_token_factor,
            AlertKind.FAILED_REPLIES: self.thresholds.failed_replies,
            AlertKind.IDLE_MODEL: self.thresholds.idle_vram_minutes,
        }
        return limits[kind] > 0

    def _episode(
        self, kind: AlertKind, subject: str, raise_now: bool, clear_now: bool, build: Callable[[], Alert]
    ) -> AlertChange | None:
        key = (kind, subject)
        if key in self._active:
            return self._clear(key) if clear_now or not self._enabled(kind) else None
        if not raise_now or not self._enabled(kind):
            return None
        alert = replace(build(), subject=subject, at=self.clock.now())
        self._active[key] = alert
        log.warning("Alert: %s", alert.message)
        return AlertChange(alert, True)

    def _clear(self, key: tuple[AlertKind, str]) -> AlertChange:
        alert = self._active.pop(key)
        log.info("Alert over: %s%s", alert.kind.value, f" ({alert.subject})" if alert.subject else "")
        return AlertChange(alert, False)

    def _clear_if_active(self, key: tuple[AlertKind, str]) -> AlertChange | None:
        return self._clear(key) if key in self._active else None

    def _clear_kinds(self, *kinds: AlertKind) -> list[AlertChange]:
        return [self._clear(key) for key in list(self._active) if key[0] in kinds]

    def _hottest_gpu(self) -> int | None:
        if self._latest is None:
            return None
        temperatures = [gpu.temperature_c for gpu in self._latest.gpus if gpu.temperature_c is not None]
        return max(temperatures) if temperatures else None


def _app_share(app: int | None) -> str:
    return f"Glassbox {format_bytes(app)}," if app is not None else "Glassbox's share unknown,"
