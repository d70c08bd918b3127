"""`glassbox chat --image FILE`: pictures checked before anything loads, read with the model's projector.

The synthetic projector's weights are random (tests/helpers/vision.py): the reply is nonsense, only
that it comes, with the image's tokens counted, is checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.paths import app_paths


def _glassbox(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GLASSBOX_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=300, env=env)


def _photo(folder: Path) -> Path:
    path = folder / "photo.jpg"
    Image.new("RGB", (120, 90), (30, 90, 200)).save(path)
    return path


@pytest.mark.requires_model  # the child process loads the starter
def test_chat_reads_an_image_with_the_projector_beside_the_model(
    isolated_home: Path, starter_model: Path, projector_file: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "vision-model"
    folder.mkdir()
    (folder / "model.gguf").symlink_to(starter_model)
    (folder / "mmproj-model-f16.gguf").symlink_to(projector_file)
    result = _glassbox(
        "chat", "--model", str(folder / "model.gguf"), "--image", str(_photo(tmp_path)), "--prompt", "What is it?",
        "--temperature", "0", "--max-tokens", "4", "--n-ctx", "512", "--stats", home=isolated_home,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "(64 of images, encoded in" in result.stderr


def test_a_file_that_is_no_image_is_refused(isolated_home: Path, tmp_path: Path) -> None:
    fake = tmp_path / "cat.png"
    fake.write_text("meow")
    result = _glassbox("chat", "--image", str(fake), "--prompt", "What is it?", home=isolated_home)
    assert result.returncode != 0
    assert "cat.png is not an image Glassbox can read" in result.stderr


def test_an_image_for_a_model_without_a_projector_is_refused_before_it_loads(
    isolated_home: Path, tmp_path: Path
) -> None:
    result = _glassbox("chat", "--image", str(_photo(tmp_path)), "--prompt", "What is it?", home=isolated_home)
    assert result.returncode != 0
    assert "cannot see images" in result.stderr and "--mmproj FILE" in result.stderr


def test_an_image_for_a_text_model_names_the_library_s_models_that_can_see(
    isolated_home: Path, projector_file: Path, tmp_path: Path
) -> None:
    folder = app_paths().ensure().models / "synthetic" / "tiny-vision-GGUF"
    folder.mkdir(parents=True)
    model = write_synthetic_model(folder / "tiny-vision.gguf", SyntheticModel(n_layers=1, n_embd=576, n_vocab=300))
    (folder / "mmproj-tiny-vision-f16.gguf").symlink_to(projector_file)  # made for a model of 576 values
    result = _glassbox("chat", "--image", str(_photo(tmp_path)), "--prompt", "What is it?", home=isolated_home)
    assert result.returncode != 0
    assert f"these in the library can see (--model PATH): tiny-vision ({model})" in result.stderr
