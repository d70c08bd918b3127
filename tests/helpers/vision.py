"""The starter model with the synthetic projector (app/bench/synthetic_projector.py): a vision model to test with.

Its projector has random weights, so what it "sees" is noise and its replies to an image are nonsense;
every stage from the projector's load to the image's tokens in the KV cache runs for real.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.chat.images import prepare_image, prepare_image_file
from app.core.inference.engine import Engine
from app.core.types.load import LoadConfig

PROJECTOR = SyntheticProjector()  # 64 tokens an image


@pytest.fixture(scope="session")
def projector_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_projector(tmp_path_factory.mktemp("projector") / "mmproj-synthetic.gguf", PROJECTOR)


@pytest.fixture(scope="session")
def vision_engine(starter_model: Path, projector_file: Path) -> Iterator[Engine]:
    """The starter model loaded with the synthetic projector, shared by the tests that only generate."""
    engine = Engine()
    engine.load(LoadConfig(starter_model, n_ctx=1024, mmproj=projector_file))
    yield engine
    engine.close()


def prepared_picture(colour: str = "red") -> Path:
    """A tiny PNG prepared in the data folder, as an attachment is, without a file of its own first."""
    encoded = io.BytesIO()
    Image.new("RGB", (8, 6), colour).save(encoded, "PNG")
    return prepare_image(encoded.getvalue(), f"{colour}.png").path


def picture(folder: Path, name: str = "red.png", colour: tuple[int, int, int] = (200, 30, 30)) -> Path:
    """A small prepared picture (checked and written to the data folder as the window would)."""
    source = folder / name
    Image.new("RGB", (96, 72), colour).save(source)
    return prepare_image_file(source).path
