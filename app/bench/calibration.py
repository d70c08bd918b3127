"""The machine's own speed while a section runs: a short fixed decode, timed by llama.cpp itself.

Before each round of a section's loops, and at the section's start and end, the bench model
decodes the same 64 greedy tokens in an engine process of its own and llama.cpp's decode rate
for them (n_eval / t_eval_ms, counted in that process) is recorded. In a process of its own
because llama.cpp's OpenMP team of a thread that decoded lives as long as the thread: a probe
in the section's process, where some sections decode on the main thread, would meet that
team and measure the clash (streaming.in_own_thread), not the machine. Nothing of the
section's work is in that number, so how far it moves within a section (`intervals.Drift`)
is how far the machine moved: another program on the cores, a throttled CPU. A model
llama.cpp cannot load (the tests' tiny fake files) leaves the section without calibration,
and says why.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from app.bench.streaming import PLAIN, engine_process_reply
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import default_threads
from app.core.inference.sampling import GREEDY
from app.core.models.validation import ModelFileError
from app.core.types.errors import EngineError
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage

PROBE = [ChatMessage("user", "Count slowly from one to one hundred, one number a line.")]
PROBE_PARAMS = replace(GREEDY, max_tokens=65)  # 64 decodes after the first token
N_CTX = 512


class CalibrationUnavailable(RuntimeError):
    """The probe's engine could not load the model; the message says why."""


class Calibration:
    """An engine process of its own that times the probe decode; `close()` ends it."""

    def __init__(self, model_path: Path) -> None:
        self._backend = LocalBackend()
        config = LoadConfig(model_path, n_ctx=N_CTX, n_threads=default_threads(), speculative=PLAIN)
        try:
            self._backend.load(config)
        except (EngineError, ModelFileError) as error:
            self._backend.close()
            raise CalibrationUnavailable(str(error)) from error
        self.decode_rate()  # the first decode after a load is slower than every later one

    def decode_rate(self) -> float:
        """llama.cpp's own decode tokens/s for the probe, counted in the engine process."""
        return engine_process_reply(self._backend, PROBE, PROBE_PARAMS).llama.eval_tokens_per_s

    def close(self) -> None:
        self._backend.close()
