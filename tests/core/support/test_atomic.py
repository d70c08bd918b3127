"""atomic_write and atomic_move: a reader sees the old file or the new one, never a part of either."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from app.core.support import atomic
from app.core.support.atomic import atomic_move, atomic_write


def test_atomic_write_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("old")
    atomic_write(target, "新的 settings")
    assert target.read_text(encoding="utf-8") == "新的 settings"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_atomic_write_fsyncs_the_file_and_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        real_fsync(descriptor)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    atomic_write(tmp_path / "index.json", b"{}")
    assert synced[0].startswith(str(tmp_path / ".index.json."))  # the new bytes, before the rename
    assert synced[-1] == str(tmp_path)  # the rename itself


def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "chats.json"
    target.write_text("old")

    def full_disk(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space"):
        atomic_write(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chats.json"]


def test_atomic_move_copies_across_file_systems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, destination = tmp_path / "download.part", tmp_path / "model.gguf"
    source.write_bytes(b"GGUF" * 10)
    real_replace = os.replace

    def replace(a: str | Path, b: str | Path) -> None:
        if Path(a) == source:
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_replace(a, b)

    monkeypatch.setattr(atomic.os, "replace", replace)
    atomic_move(source, destination)
    assert destination.read_bytes() == b"GGUF" * 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.gguf"]
