"""The library: listing, GGUF metadata, verified hashes, import, delete, and safe names."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from pathlib import Path

import pytest

from app.core.models.hashing import Cancelled, VerifiedIndex, VerifyState, sha256_file
from app.core.models.importing import import_model
from app.core.models.library import (
    LibraryError,
    delete_model,
    describe,
    find_model,
    installed_models,
    library_entries,
    verify_model,
)
from app.core.models.names import UnsafeNameError, model_destination, safe_component
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from tests.fakes.fake_hub import make_gguf


@pytest.fixture
def models_dir() -> Path:
    return app_paths().ensure().models


def install(models_dir: Path, relative: str, seed: int = 0) -> Path:
    path = models_dir / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    return make_gguf(path, tensor_bytes=64 * 1024, seed=seed)


def touch_later(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))


def flip_byte(path: Path, offset: int = -100) -> None:
    with path.open("r+b") as handle:
        handle.seek(offset, os.SEEK_END)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 0xFF]))


def test_installed_models_lists_split_models_once_and_the_starter_last(models_dir: Path, starter_model: Path) -> None:
    install(models_dir, "acme/A/alpha.Q4_K_M.gguf")
    first = install(models_dir, "acme/B/beta-00001-of-00002.gguf", seed=1)
    second = install(models_dir, "acme/B/beta-00002-of-00002.gguf", seed=2)
    models = installed_models(models_dir)
    assert [m.name for m in models] == ["alpha.Q4_K_M", "beta", starter_model.stem]
    beta = models[1]
    assert beta.path == first and beta.files == (first, second)
    assert beta.size_bytes == first.stat().st_size + second.stat().st_size
    assert models[-1].is_starter


def test_library_rows_show_architecture_parameters_quantization_and_context(
    models_dir: Path, starter_model: Path
) -> None:
    install(models_dir, "acme/A/alpha.gguf")
    entries = {entry.model.name: entry for entry in library_entries(models_dir)}
    alpha = entries["alpha"].summary
    assert alpha is not None
    assert (alpha.architecture, alpha.quantization, alpha.context_length) == ("llama", "F32", 2048)
    assert alpha.parameter_count == 64 * 1024 // 4
    starter = entries[starter_model.stem].summary
    assert starter is not None
    assert (starter.architecture, starter.quantization, starter.context_length) == ("llama", "Q4_1", 8192)
    assert starter.parameter_count == 134_515_008
    assert entries["alpha"].state is VerifyState.UNKNOWN


def test_a_file_that_is_not_gguf_is_listed_with_the_reason(models_dir: Path) -> None:
    broken = models_dir / "junk" / "broken.gguf"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a model at all, just text" * 10)
    entry = describe(find_model(models_dir, "broken"), VerifiedIndex(models_dir))
    assert entry.summary is None and entry.problem is not None and "not a GGUF file" in entry.problem


@pytest.mark.expected_log("app.core.models.hashing", logging.WARNING, "Hash mismatch for .*: recorded")
def test_verify_records_a_hash_then_detects_a_changed_file(models_dir: Path) -> None:
    path = install(models_dir, "acme/A/alpha.gguf")
    index = VerifiedIndex(models_dir)
    index.record(path, hashlib.sha256(path.read_bytes()).hexdigest(), "hub")
    assert index.state(path) is VerifyState.VERIFIED
    flip_byte(path)
    touch_later(path)
    assert index.state(path) is VerifyState.CHANGED
    result = verify_model(find_model(models_dir, "alpha"), index)
    assert result.state is VerifyState.MISMATCH and "download it again" in result.message


def test_verify_of_an_intact_file_says_it_matches_the_hub(models_dir: Path) -> None:
    path = install(models_dir, "acme/A/alpha.gguf")
    index = VerifiedIndex(models_dir)
    index.record(path, hashlib.sha256(path.read_bytes()).hexdigest(), "hub")
    touch_later(path)
    result = verify_model(find_model(models_dir, "alpha"), index)
    assert result.state is VerifyState.VERIFIED and "Hub" in result.message
    assert index.state(path) is VerifyState.VERIFIED  # the new mtime is recorded


def test_import_copies_hashes_once_and_records_the_file(tmp_path: Path, models_dir: Path) -> None:
    source = make_gguf(tmp_path / "My Model.Q8_0.gguf", tensor_bytes=128 * 1024)
    seen: list[int] = []
    model = import_model(source, models_dir, progress=lambda done, total: seen.append(done))
    assert model.path == models_dir / "imported" / "My_Model.Q8_0.gguf"
    assert model.path.read_bytes() == source.read_bytes() and source.exists()
    record = VerifiedIndex(models_dir).lookup(model.path)
    assert record is not None and record.sha256 == hashlib.sha256(source.read_bytes()).hexdigest()
    assert record.reference == "import"
    assert seen[-1] == source.stat().st_size and seen == sorted(seen)  # one pass: progress only grows
    assert not list(models_dir.rglob("*.importing"))


def test_import_of_a_split_model_brings_every_part(tmp_path: Path, models_dir: Path) -> None:
    first = make_gguf(tmp_path / "big-00001-of-00002.gguf", seed=1)
    make_gguf(tmp_path / "big-00002-of-00002.gguf", seed=2)
    model = import_model(first, models_dir)
    assert [p.name for p in model.files] == ["big-00001-of-00002.gguf", "big-00002-of-00002.gguf"]


def test_import_refuses_a_file_that_is_not_a_model(tmp_path: Path, models_dir: Path) -> None:
    notes = tmp_path / "notes.gguf"
    notes.write_text("hello")
    with pytest.raises(ModelFileError):
        import_model(notes, models_dir)
    assert not (models_dir / "imported").exists()


def test_import_refuses_a_name_already_in_the_library(tmp_path: Path, models_dir: Path) -> None:
    source = make_gguf(tmp_path / "dup.gguf")
    import_model(source, models_dir)
    with pytest.raises(LibraryError) as caught:
        import_model(source, models_dir)
    assert "already in the library" in str(caught.value)


def test_a_cancelled_import_leaves_nothing_behind(tmp_path: Path, models_dir: Path) -> None:
    source = make_gguf(tmp_path / "slow.gguf")
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        import_model(source, models_dir, cancel=cancel)
    assert list((models_dir / "imported").iterdir()) == []


def test_a_file_already_in_the_models_folder_is_recorded_in_place(models_dir: Path) -> None:
    path = install(models_dir, "manual/placed.gguf")
    model = import_model(path, models_dir)
    assert model.path == path
    assert VerifiedIndex(models_dir).state(path) is VerifyState.VERIFIED


def test_delete_removes_every_part_its_records_and_empty_folders(models_dir: Path) -> None:
    first = install(models_dir, "acme/B/beta-00001-of-00002.gguf", seed=1)
    second = install(models_dir, "acme/B/beta-00002-of-00002.gguf", seed=2)
    index = VerifiedIndex(models_dir)
    for path in (first, second):
        index.record(path, sha256_file(path).hexdigest(), "hub")
    removed = delete_model(find_model(models_dir, "beta"), models_dir)
    assert removed == [first, second]
    assert not (models_dir / "acme").exists()
    assert index.lookup(first) is None and index.lookup(second) is None


def test_the_starter_model_cannot_be_deleted(models_dir: Path, starter_model: Path) -> None:
    starter = find_model(models_dir, starter_model.name)
    with pytest.raises(LibraryError) as caught:
        delete_model(starter, models_dir)
    assert "only deletes files it manages" in str(caught.value)
    assert starter_model.exists()


def test_find_model_asks_for_a_path_when_a_name_is_ambiguous(models_dir: Path) -> None:
    install(models_dir, "one/A/same.gguf")
    install(models_dir, "two/B/same.gguf")
    with pytest.raises(LibraryError) as caught:
        find_model(models_dir, "same")
    assert "one/A/same.gguf" in str(caught.value) and "two/B/same.gguf" in str(caught.value)
    assert find_model(models_dir, "two/B/same.gguf").path == models_dir / "two/B/same.gguf"


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("Llama-3.2-1B-Instruct-Q4_K_M.gguf", "Llama-3.2-1B-Instruct-Q4_K_M.gguf"),
        ('we<i>rd:na|me?"*.gguf', "we_i_rd_na_me___.gguf"),
        ("CON.gguf", "_CON.gguf"),
        (" .hidden.gguf. ", "hidden.gguf"),
        ("ünïcødé.gguf", "_n_c_d_.gguf"),
    ],
)
def test_odd_characters_become_underscores(name: str, safe: str) -> None:
    assert safe_component(name) == safe


@pytest.mark.parametrize("name", ["", ".", "..", "___", "a\x00b"])
def test_names_with_nothing_usable_are_refused(name: str) -> None:
    with pytest.raises(UnsafeNameError):
        safe_component(name)


@pytest.mark.parametrize(
    "filename",
    [
        "../escape.gguf",
        "a/../../escape.gguf",
        "/abs/escape.gguf",
        "C:\\x.gguf",
        "D:escape.gguf",
        "a\\..\\b.gguf",
        "tab\tname.gguf",
    ],
)
def test_repository_file_names_that_could_escape_are_refused(models_dir: Path, filename: str) -> None:
    with pytest.raises(UnsafeNameError):
        model_destination(models_dir, "owner/repo", filename)


def test_repository_sub_folders_are_flattened_into_the_repository_folder(models_dir: Path) -> None:
    assert model_destination(models_dir, "owner/repo", "Q4_K_M/model-Q4_K_M.gguf") == (
        models_dir / "owner" / "repo" / "model-Q4_K_M.gguf"
    )
