"""Records in the cache folder: kept from one run to the next, the newest of them, and never an error."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

import app.core.inference.cache_records as cache_records
from app.core.inference.cache_records import CacheRecords
from app.core.paths import app_paths

RECORDS = CacheRecords("things.json", 4, "things")


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own: nothing another test kept."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("GLASSBOX_CACHE", str(cache))
    return cache


def test_an_entry_comes_back_as_it_was_kept_from_a_file_in_the_cache_folder(own_cache: Path) -> None:
    RECORDS.put("a", {"exact": True, "cost": {"2": 1.5}})
    assert RECORDS.get("a") == {"exact": True, "cost": {"2": 1.5}}
    assert RECORDS.get("b") is None
    assert app_paths().cache == own_cache and RECORDS.path() == own_cache / "things.json"
    assert [path.name for path in own_cache.iterdir()] == ["things.json"]


def test_a_damaged_file_is_no_error_and_is_written_anew(own_cache: Path) -> None:
    own_cache.mkdir(parents=True)
    RECORDS.path().write_text('{"a": 1, "b": [', encoding="utf-8")
    assert RECORDS.get("a") is None
    RECORDS.path().write_text('["not", "an", "object"]', encoding="utf-8")
    assert RECORDS.get("a") is None
    RECORDS.put("b", 2)
    assert RECORDS.get("b") == 2


def test_a_cache_that_cannot_be_written_forgets_quietly_and_leaves_no_half_written_file(
    tmp_path: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(_source: object, _target: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(cache_records.os, "replace", disk_full)
        RECORDS.put("a", 1)
    assert RECORDS.get("a") is None
    assert list(own_cache.iterdir()) == []
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("GLASSBOX_CACHE", str(blocked / "cache"))  # a cache folder that cannot be made
    RECORDS.put("a", 1)
    assert RECORDS.get("a") is None


def test_only_the_newest_entries_are_kept_and_one_kept_again_is_the_newest(own_cache: Path) -> None:
    for index in range(RECORDS.kept + 2):
        RECORDS.put(str(index), index)
    assert RECORDS.get("0") is None and RECORDS.get("1") is None
    assert [RECORDS.get(str(index)) for index in range(2, RECORDS.kept + 2)] == list(range(2, RECORDS.kept + 2))
    RECORDS.put("2", "again")
    RECORDS.put("new", 0)
    assert RECORDS.get("2") == "again" and RECORDS.get("3") is None
