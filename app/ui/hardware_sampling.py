"""The one hardware sampler of the window: one thread, one timer, one reading of the machine a tick.

Each tick the worker takes one `ResourceSample` (psutil for the app's processes and the
machine, NVML for the GPUs, read once) and `HardwareSampling.sampled` hands that same
sample to every subscriber in the GUI thread: the GPU offload panel (its `hardware`
snapshot), the Monitor panel and its alerts. A subscriber connects to `sampled`; the
signal is re-emitted from the GUI thread, so one that connects before the GUI's event
loop runs again gets every sample, the first included. NVML missing or failing mid-run
is in the sample itself (its GPU state and reason), so each subscriber shows it its own way.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from app.core.monitor.samples import ResourceSample
from app.ui.threads import WorkerThread

SAMPLE_INTERVAL_MS = 1000


class SamplingWorker(QObject):
    """Takes the samples, in the sampler's thread."""

    sampled = Signal(object)  # ResourceSample

    startRequested = Signal()
    sampleRequested = Signal()  # a sample now, besides the timer's

    def __init__(self, sampler: ResourceSampler, interval_ms: int) -> None:
        super().__init__()
        self._sampler = sampler
        self._interval_ms = interval_ms
        self._timer: QTimer | None = None
        self.startRequested.connect(self._start)
        self.sampleRequested.connect(self._sample)

    @Slot()
    def _start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(self._interval_ms)
        self._timer.timeout.connect(self._sample)
        self._timer.start()
        self._sample()

    @Slot()
    def _sample(self) -> None:
        self.sampled.emit(self._sampler.sample())

    def close(self) -> None:
        """Stop sampling and let go of NVML; runs in the sampler's thread once its event loop has ended."""
        if self._timer is not None:
            self._timer.stop()
        self._sampler.close()


class HardwareSampling(QObject):
    """The sampler worker in its own thread, and the signal its subscribers connect to; then `start()`."""

    sampled = Signal(object)  # ResourceSample, the same object for every subscriber

    def __init__(
        self,
        sampler: ResourceSampler | None = None,  # default: this machine, on a clock started now
        interval_ms: int = SAMPLE_INTERVAL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        sampler = sampler or ResourceSampler(SessionClock())
        self.clock: SessionClock = sampler.clock
        self._worker = SamplingWorker(sampler, interval_ms)
        self._thread = WorkerThread(self._worker, "hardware-sampler", on_end=self._worker.close)
        self._worker.sampled.connect(self._relay)

    def start(self) -> None:
        self._thread.start()
        self._worker.startRequested.emit()

    def sample_now(self) -> None:
        """Take a sample at once (the next comes at the usual interval as well)."""
        self._worker.sampleRequested.emit()

    def request_stop(self) -> None:
        """Never waits: a sample in progress finishes, then the thread ends and NVML is shut down."""
        self._thread.request_stop()

    def shutdown(self) -> None:
        self.request_stop()
        self._thread.wait()

    @Slot(object)
    def _relay(self, sample: ResourceSample) -> None:
        self.sampled.emit(sample)
