"""Graceful degradation in the window: a model that does not fit gets a more heavily quantized copy.

Fewer GPU layers come first (the load's own fallback, which the window tells). Then, when a
load ran out of memory even on the CPU, or fell back to fewer GPU layers, or a loaded model
no longer fits as asked because another program took the VRAM (the Monitor's VRAM alert),
the memory planner looks for a smaller variant of the same model in the library, or names
the quantization to download with its planned fit (app.core.monitor.degradation). Reading
the library's headers and the machine's memory runs on a thread of its own, never on the GUI
thread.

With the setting on (`switch_to_smaller_variant`) an installed variant is loaded by itself
(`switchRequested`); otherwise, or when only a download would help, it is offered
(`offered`). Either way the user is told: the shell puts `describe()`'s text in the banner.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from app.core.memory.fallback import FallbackResult
from app.core.memory.fit import Machine, machine_now
from app.core.models.library import installed_models
from app.core.monitor.degradation import DegradationOffer, LoadTrouble, offer_after_load, switch_config
from app.core.paths import app_paths
from app.core.support.formatting import fill
from app.core.types.load import LoadConfig
from app.ui.llm.worker import LlmWorker
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VariantRequest:
    config: LoadConfig  # the load as asked for
    trouble: LoadTrouble
    loaded_layers: int = 0  # after a fallback: the GPU layers it ended with


class VariantPlanner(QObject):
    """Plans the offer on its own thread: the library's headers, the machine's free memory, the planner."""

    planRequested = Signal(object)  # VariantRequest
    planned = Signal(object, object)  # VariantRequest, DegradationOffer | None

    def __init__(self, machine: Callable[[], Machine], models_dir: Callable[[], Path]) -> None:
        super().__init__()
        self._machine = machine
        self._models_dir = models_dir
        self.planRequested.connect(self._plan)

    @Slot(object)
    def _plan(self, request: VariantRequest) -> None:
        models_dir = self._models_dir()
        try:
            offer = offer_after_load(
                request.config,
                request.trouble,
                installed_models(models_dir),
                self._machine(),
                models_dir,
                request.loaded_layers,
            )
        except Exception:  # a planning failure must not end the thread; the load's own message stands
            log.exception("Planning a smaller variant of %s failed", request.config.model_path.name)
            offer = None
        self.planned.emit(request, offer)


class SmallerVariants(QObject):
    """Follows the LLM worker's loads; offers (or, with the setting, loads) a smaller variant when one does not fit.

    The shell calls `vram_taken(config)` when the Monitor's VRAM alert is raised with a model loaded.
    """

    # The load of the installed variant (None: only a download would help), and the DegradationOffer:
    # tell the user, with a button for that load.
    offered = Signal(object, object)
    switchRequested = Signal(object, object)  # LoadConfig of the variant to load now, the DegradationOffer

    def __init__(
        self,
        llm_worker: LlmWorker,
        automatic: Callable[[], bool],
        machine: Callable[[], Machine] = machine_now,
        models_dir: Callable[[], Path] = lambda: app_paths().models,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._automatic = automatic
        self.planner = VariantPlanner(machine, models_dir)
        self.planner_thread = WorkerThread(self.planner, "smaller-variants")
        self.planner.planned.connect(self._on_planned)
        llm_worker.loadOutOfMemory.connect(self._on_out_of_memory)
        llm_worker.loadFellBack.connect(self._on_fell_back)
        self.planner_thread.start()

    def vram_taken(self, config: LoadConfig) -> None:
        """Another program took the VRAM while `config` is loaded: offer a variant if it no longer fits as asked."""
        self._request(VariantRequest(config, LoadTrouble.VRAM_TAKEN))

    def request_stop(self) -> None:
        self.planner_thread.request_stop()

    def shutdown(self) -> None:
        self.planner_thread.request_stop()
        self.planner_thread.wait()

    @Slot(object)
    def _on_out_of_memory(self, config: LoadConfig) -> None:
        self._request(VariantRequest(config, LoadTrouble.OUT_OF_MEMORY))

    @Slot(object)
    def _on_fell_back(self, result: FallbackResult) -> None:
        self._request(VariantRequest(result.requested, LoadTrouble.FELL_BACK, result.config.n_gpu_layers))

    def _request(self, request: VariantRequest) -> None:
        if self.planner_thread.is_running():
            self.planner.planRequested.emit(request)

    @Slot(object, object)
    def _on_planned(self, request: VariantRequest, offer: DegradationOffer | None) -> None:
        if offer is None:
            return
        switch = switch_config(request.config, offer)
        if switch is not None and self._automatic():
            log.info("Loading %s instead of %s, as the settings ask", switch.model_path.name, offer.model_path.name)
            self.switchRequested.emit(switch, offer)
        else:
            self.offered.emit(switch, offer)


def describe(offer: DegradationOffer, switching: bool = False) -> str:
    """What the user is told: what does not fit, the installed variant (loaded now, or on offer), the download."""

    parts = [
        fill(
            QCoreApplication.translate("SmallerVariants", "{model} does not fit in memory as asked ({why})."),
            model=offer.model_path.name,
            why=offer.current.text,
        )
    ]
    local = offer.local
    if local is not None:
        fits = (
            QCoreApplication.translate("SmallerVariants", "fits as asked")
            if offer.local_fits_as_asked
            else QCoreApplication.translate("SmallerVariants", "fits better")
        )
        text = (
            QCoreApplication.translate(
                "SmallerVariants", "Loading {variant} ({quant}) from the library instead: it {fits} ({plan})."
            )
            if switching
            else QCoreApplication.translate(
                "SmallerVariants", "{variant} ({quant}) is in the library and {fits} ({plan})."
            )
        )
        parts.append(
            fill(
                text,
                variant=local.model.path.name,
                quant=local.quant or QCoreApplication.translate("SmallerVariants", "another quantization"),
                fits=fits,
                plan=local.hint.text,
            )
        )
    download = offer.download
    if download is not None:
        text = (
            QCoreApplication.translate(
                "SmallerVariants", "A {quant} copy from {repo} would fit: {plan}. Find it in Tools → Models…."
            )
            if download.repo_id
            else QCoreApplication.translate(
                "SmallerVariants", "A {quant} copy would fit: {plan}. Find it in Tools → Models…."
            )
        )
        parts.append(fill(text, quant=download.quant, repo=download.repo_id or "", plan=download.hint.text))
    return " ".join(parts)
