"""How a model that can see is marked wherever models are listed (the model picker, the library): an eye
and "vision" after its name, and which projector lets it read images in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.models.library import InstalledModel
from app.core.support.formatting import fill


def vision_mark(model: InstalledModel) -> str:
    """What follows the name of a model that reads images; "" for a text model."""
    return QCoreApplication.translate("VisionMark", " · 👁 vision") if model.sees_images else ""


def vision_tooltip(model: InstalledModel) -> str:
    """Which projector lets the model read images; "" for a text model."""
    if model.projector is None:
        return ""
    return fill(
        QCoreApplication.translate("VisionMark", "Reads images: its projector is {file}"), file=model.projector.name
    )
