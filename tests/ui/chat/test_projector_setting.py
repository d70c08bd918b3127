"""The projector in the settings panel: chosen from the projector files beside the library's models (never a
model), saved with the load settings, and loaded with the model from then on; none chosen, the library pairs
the projector beside the model with it (tests/core/models/test_projector_pairing.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox
from pytestqt.qtbot import QtBot

from app.ui.chat.settings_panel import SettingsPanel
from app.ui.settings.store import SettingsStore


def test_a_projector_is_chosen_from_the_projectors_beside_the_models_and_saved(qtbot: QtBot, tmp_path: Path) -> None:
    vision, text = tmp_path / "gemma-3-4b", tmp_path / "smol"
    vision.mkdir()
    text.mkdir()
    model, projector = vision / "gemma-3-4b-it-Q4_K_M.gguf", vision / "mmproj-gemma-3-4b-it-f16.gguf"
    for path in (model, projector, text / "smol.gguf"):
        path.write_bytes(b"")
    panel = SettingsPanel(SettingsStore())
    qtbot.addWidget(panel)
    panel.model.set_library([("gemma · 2.5 GB", model), ("smol · 100 MB", text / "smol.gguf")])
    box = panel.model.rows["mmproj"].editor
    assert isinstance(box, QComboBox)
    assert [box.itemText(i) for i in range(box.count())] == ["Found beside the model", projector.name]
    box.setCurrentIndex(1)
    with qtbot.waitSignal(panel.store.saveRequested):
        box.activated.emit(1)
    assert panel.store.settings.model.load_config(model).mmproj == projector
