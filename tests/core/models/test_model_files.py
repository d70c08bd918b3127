"""Bad model files are refused with a message that names the file and the reason."""

from __future__ import annotations

import logging
import pathlib
from pathlib import Path

import numpy as np
import pytest

from app.core.models.validation import check_model_file
from tests.helpers.models import refusal_reason


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    assert "does not exist" in refusal_reason(tmp_path / "nowhere.gguf")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert "folder" in refusal_reason(tmp_path)


def test_an_unreadable_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.gguf"
    path.write_bytes(b"GGUF" + bytes(40))
    real_open = pathlib.Path.open

    def denied(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pathlib.Path, "open", denied)
    assert "cannot be read" in refusal_reason(path)


def test_a_file_that_is_not_gguf_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.gguf"
    path.write_text("<html>404 Not Found</html>" * 10)
    assert "not a GGUF file" in refusal_reason(path)


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.gguf"
    path.touch()
    assert "too small" in refusal_reason(path)


def test_a_truncated_download_is_refused(tmp_path: Path, starter_model: Path) -> None:
    path = tmp_path / "half.gguf"
    with starter_model.open("rb") as source:
        path.write_bytes(source.read(30_000_000))
    assert "truncated" in refusal_reason(path)


def test_a_file_cut_inside_its_header_is_refused(tmp_path: Path, starter_model: Path) -> None:
    path = tmp_path / "header.gguf"
    with starter_model.open("rb") as source:
        path.write_bytes(source.read(4096))
    assert "damaged or the file is truncated" in refusal_reason(path)


@pytest.mark.expected_log("llama.cpp", logging.ERROR, "unknown model architecture: 'alien-arch'")
@pytest.mark.expected_log("llama.cpp", logging.ERROR, "llama_model_load_from_file_impl: failed to load model")
def test_a_gguf_of_an_unknown_architecture_is_refused_by_llama_cpp(tmp_path: Path) -> None:
    import gguf

    path = tmp_path / "alien.gguf"
    writer = gguf.GGUFWriter(str(path), "alien-arch")
    writer.add_block_count(1)
    writer.add_tensor("token_embd.weight", np.zeros((8, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    check_model_file(path)  # structurally fine
    assert "llama.cpp could not load it" in refusal_reason(path)
