"""Idle unload: free the model after N minutes without use, so the GPU is free for other programs.

Off by default (0 minutes). "Use" is a reply starting or ending, or a model loading; while a
reply streams or a load runs nothing is unloaded. The policy only decides: the window
unloads, and loads the same model again, shown as any load, when the next message is sent.
One idle stretch gives one decision to unload, however often the policy is asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.monitor.clock import SessionClock


@dataclass(frozen=True)
class IdleDecision:
    unload: bool
    idle_s: float
    message: str = ""  # for the user when `unload`: what happens and why


class IdleUnloadPolicy:
    def __init__(self, minutes: float = 0.0, clock: SessionClock | None = None) -> None:
        self.minutes = minutes
        self.clock = clock or SessionClock()
        self._last_used = self.clock.now()
        self._decided = False  # this idle stretch already gave its decision to unload

    @property
    def enabled(self) -> bool:
        return self.minutes > 0

    def used(self) -> None:
        """A reply started or ended, or a model loaded: the idle time starts again."""
        self._last_used = self.clock.now()
        self._decided = False

    def idle_seconds(self) -> float:
        return self.clock.now() - self._last_used

    def decide(self, loaded: bool, busy: bool, model_name: str = "") -> IdleDecision:
        """Whether to unload now: enabled, a model loaded, nothing running, idle for the set minutes."""
        idle = self.idle_seconds()
        if not self.enabled or not loaded or busy or self._decided or idle < self.minutes * 60:
            return IdleDecision(False, idle)
        self._decided = True
        name = model_name or "The model"
        return IdleDecision(
            True,
            idle,
            f"{name} was unloaded after {idle / 60:.0f} minutes without use, to free its memory; "
            "the next message loads it again.",
        )
