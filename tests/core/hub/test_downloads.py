"""Downloads against the fake Hub: resume, retry, verify, install, and every way it can go wrong."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.hub.downloads.job import DownloadJob, DownloadRequest, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.downloads.transfer import RetryPolicy
from app.core.hub.token_store import TokenStore
from app.core.models.hashing import VerifiedIndex, VerifyState
from app.core.models.library import installed_models
from app.core.paths import app_paths
from tests.fakes.fake_hub import FakeHub, gguf_bytes

REPO = "acme/Tiny-GGUF"
FILE = "tiny.Q4_K_M.gguf"
FAST_RETRY = RetryPolicy(attempts=4, base_delay_s=0.01, max_delay_s=0.05)
STALLED_PAUSE_S = 5.0  # well under the read timeout (20 s) a stalled read would otherwise wait for


@pytest.fixture
def model_bytes(tmp_path: Path) -> bytes:
    return gguf_bytes(tmp_path, tensor_bytes=512 * 1024)


@pytest.fixture
def hub(fake_hub: FakeHub, model_bytes: bytes) -> FakeHub:
    fake_hub.add_repo(REPO, {FILE: model_bytes, "tiny.Q8_0.gguf": model_bytes[::-1]})
    return fake_hub


@pytest.fixture
def make_manager(hub: FakeHub) -> Iterator[Callable[..., DownloadManager]]:
    managers: list[DownloadManager] = []

    def make(**kwargs: object) -> DownloadManager:
        options: dict[str, object] = {"endpoint": hub.url, "retry": FAST_RETRY}
        options.update(kwargs)
        manager = DownloadManager(app_paths(), **options)  # type: ignore[arg-type]
        managers.append(manager)
        return manager

    yield make
    for manager in managers:
        assert manager.shutdown(10), "a download thread did not stop"


def request_for(hub: FakeHub, filename: str = FILE, repo: str = REPO) -> DownloadRequest:
    file = hub.file(repo, filename)
    return DownloadRequest(repo, filename, expected_sha256=file.sha256, expected_size=file.size)


def finish(job: DownloadJob) -> None:
    assert job.wait(30), "the download did not stop in time"
    # the manager may restart a resumed job on its own thread: wait for that one too
    while job.state in (JobState.QUEUED, JobState.RUNNING, JobState.VERIFYING):
        assert job.wait(30)
        time.sleep(0.01)


def wait_until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.005)


def installed_path() -> Path:
    return app_paths().models / "acme" / "Tiny-GGUF" / FILE


def partial_files() -> list[Path]:
    return sorted(app_paths().downloads.glob("*"))


def test_download_verifies_installs_and_records_the_hub_hash(hub: FakeHub, make_manager, model_bytes: bytes) -> None:
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.DONE, snapshot.message
    assert installed_path().read_bytes() == model_bytes
    record = VerifiedIndex(app_paths().models).lookup(installed_path())
    assert record is not None and record.sha256 == hashlib.sha256(model_bytes).hexdigest()
    assert record.reference == "hub" and record.source["repo_id"] == REPO
    assert partial_files() == []
    assert [m.path for m in installed_models(app_paths().models) if not m.is_starter] == [installed_path()]


def test_download_url_is_pinned_to_the_commit_the_hub_named(hub: FakeHub, make_manager) -> None:
    finish(make_manager().enqueue(request_for(hub)))
    (get,) = hub.file_requests(FILE)
    assert f"/resolve/{hub.repos[REPO].commit}/" in get.path


def test_connection_dropped_at_40_percent_resumes_and_transfers_only_the_rest(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    drop = size * 40 // 100
    hub.faults(REPO, FILE).drop_at = drop
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert hub.served(REPO, FILE) == size
    first, second = hub.file_requests(FILE)
    assert first.range is None and second.range == f"bytes={drop}-"
    assert job.rehashed_bytes == 0  # the hash of the first 40% was kept in memory


@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, "Download of .* failed: The connection dropped mid-file"
)
def test_download_resumes_after_a_restart_hashing_only_the_bytes_on_disk(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    drop = size * 40 // 100
    hub.faults(REPO, FILE).drop_at = drop
    first_run = make_manager(retry=RetryPolicy(attempts=1))  # gives up at the drop, like an app closed there
    job = first_run.enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.FAILED and job.snapshot().can_resume
    assert first_run.shutdown()

    second_run = make_manager()  # a new process: nothing in memory, only the files in downloads/
    (restored,) = second_run.restore()
    assert restored.snapshot().state is JobState.PAUSED
    assert restored.snapshot().downloaded == drop
    second_run.resume(restored.id)
    finish(restored)
    assert restored.snapshot().state is JobState.DONE, restored.snapshot().message
    assert restored.rehashed_bytes == drop
    assert hub.served(REPO, FILE) == size
    assert hub.file_requests(FILE)[-1].range == f"bytes={drop}-"


@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, "Download of .* failed: The connection dropped mid-file"
)
def test_the_same_download_started_again_resumes_from_its_partial_file(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    hub.faults(REPO, FILE).drop_at = size // 2
    job = make_manager(retry=RetryPolicy(attempts=1)).enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.FAILED
    again = make_manager().enqueue(request_for(hub))  # e.g. `glassbox models download` run a second time
    finish(again)
    assert again.snapshot().state is JobState.DONE
    assert hub.served(REPO, FILE) == size


def test_pause_keeps_the_bytes_and_resume_continues_without_rehashing(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    hold = hub.hold(REPO, FILE, size * 30 // 100)
    manager = make_manager()
    job = manager.enqueue(request_for(hub))
    assert hold.reached.wait(20)
    wait_until(lambda: job.snapshot().downloaded == hold.offset)
    job.pause()
    hold.release()
    assert job.wait(20)
    paused = job.snapshot()
    assert paused.state is JobState.PAUSED and paused.can_resume
    assert paused.downloaded >= hold.offset
    manager.resume(job.id)
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert job.rehashed_bytes == 0
    assert installed_path().stat().st_size == size


def test_pause_on_a_stalled_connection_pauses_at_once_not_at_the_read_timeout(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    hold = hub.hold(REPO, FILE, size * 30 // 100)  # the server sends nothing more until released
    manager = make_manager()
    job = manager.enqueue(request_for(hub))
    assert hold.reached.wait(20)
    wait_until(lambda: job.snapshot().downloaded == hold.offset)
    job.pause()
    try:
        paused_in_time = job.wait(STALLED_PAUSE_S)
    finally:
        hold.release()
    assert paused_in_time, f"still running {STALLED_PAUSE_S} s after Pause (the read timeout is 20 s)"
    paused = job.snapshot()
    assert paused.state is JobState.PAUSED and paused.downloaded == hold.offset
    manager.resume(job.id)
    finish(job)
    assert job.snapshot().state is JobState.DONE and installed_path().stat().st_size == size


def test_cancel_stops_the_download_and_deletes_the_partial_file(hub: FakeHub, make_manager) -> None:
    hold = hub.hold(REPO, FILE, 100_000)
    job = make_manager().enqueue(request_for(hub))
    assert hold.reached.wait(20)
    job.cancel()
    hold.release()
    finish(job)
    assert job.snapshot().state is JobState.CANCELLED
    assert partial_files() == []
    assert not installed_path().exists()


@pytest.mark.expected_log("app.core.hub.downloads", logging.ERROR, r"SHA-256 mismatch for tiny\.Q4_K_M\.gguf")
@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, r"Download of .* failed: tiny\.Q4_K_M\.gguf arrived damaged"
)
def test_a_flipped_byte_is_caught_by_sha256_and_nothing_is_installed(hub: FakeHub, make_manager) -> None:
    hub.faults(REPO, FILE).flip_byte_at = 12345
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "hash mismatch"
    assert "damaged" in snapshot.message and "deleted" in snapshot.message
    assert not installed_path().exists()
    assert partial_files() == []


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "The server ignored the Range request")
def test_a_server_that_ignores_range_restarts_from_zero_and_still_verifies(hub: FakeHub, make_manager) -> None:
    size = hub.file(REPO, FILE).size
    drop = size * 40 // 100
    hub.faults(REPO, FILE).drop_at = drop
    hub.faults(REPO, FILE).ignore_range = True
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert hub.served(REPO, FILE) == drop + size
    assert installed_path().stat().st_size == size


def test_server_errors_are_retried_with_backoff(hub: FakeHub, make_manager) -> None:
    hub.faults(REPO, FILE).statuses = [503, 502]
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert job.attempts == 3


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: The server answered 500")
def test_a_server_that_stays_down_fails_with_a_message_and_can_be_resumed(hub: FakeHub, make_manager) -> None:
    hub.faults(REPO, FILE).statuses = [500] * 20
    job = make_manager(retry=RetryPolicy(attempts=3, base_delay_s=0.01)).enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.can_resume
    assert "500" in snapshot.message and "Resume" in snapshot.message


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(gated\)")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* is gated")
def test_gated_repository_without_token_says_what_to_do(fake_hub: FakeHub, model_bytes: bytes, make_manager) -> None:
    fake_hub.add_repo("meta/Gated-GGUF", {FILE: model_bytes}, gated=True)
    job = make_manager().enqueue(request_for(fake_hub, repo="meta/Gated-GGUF"))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "gated"
    assert "accept" in snapshot.message and "token" in snapshot.message
    assert f"{fake_hub.url}/meta/Gated-GGUF" in snapshot.message


def test_gated_repository_downloads_with_the_token_from_the_keyring(
    fake_hub: FakeHub, model_bytes: bytes, make_manager, memory_keyring
) -> None:
    fake_hub.add_repo("meta/Gated-GGUF", {FILE: model_bytes}, gated=True)
    fake_hub.add_token("hf_goodtoken", "meta/Gated-GGUF")
    store = TokenStore()
    store.set("hf_goodtoken")
    job = make_manager(token_provider=store.get).enqueue(request_for(fake_hub, repo="meta/Gated-GGUF"))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert all(r.authorization == "Bearer hf_goodtoken" for r in fake_hub.file_requests(FILE))


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: Not enough disk space")
def test_not_enough_disk_space_is_refused_before_any_byte_moves(hub: FakeHub, make_manager) -> None:
    job = make_manager(free_space=lambda _path: 10_000).enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "disk full"
    assert "Free up space" in snapshot.message
    assert hub.file_requests(FILE) == []


@pytest.mark.expected_log(
    "app.core.hub.downloads",
    logging.WARNING,
    "Download of .* failed: .* cannot be used as a folder: a file with that name is in the way",
)
def test_a_models_folder_that_cannot_be_created_gives_a_clear_message(hub: FakeHub, make_manager) -> None:
    paths = app_paths()
    paths.data.mkdir(parents=True, exist_ok=True)
    paths.models.write_text("a file where the models folder should be")
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "not writable"
    assert str(paths.models) in snapshot.message
    assert hub.file_requests(FILE) == []


@pytest.mark.parametrize(
    "evil_name",
    ["../../escaped.gguf", "/etc/escaped.gguf", "sub/../../escaped.gguf", "..\\..\\escaped.gguf", "C:/escaped.gguf"],
)
@pytest.mark.expected_log(
    "app.core.hub.downloads",
    logging.WARNING,
    "Download of .* failed: Refused: the repository names a file (outside its own folder|with an absolute or Windows)",
)
def test_file_names_that_try_to_escape_the_models_folder_are_refused(
    fake_hub: FakeHub, model_bytes: bytes, make_manager, evil_name: str, tmp_path: Path
) -> None:
    fake_hub.add_repo("evil/Repo", {evil_name: model_bytes})
    job = make_manager().enqueue(request_for(fake_hub, evil_name, repo="evil/Repo"))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "unsafe name"
    assert fake_hub.requests == []  # refused before asking the server anything
    home = app_paths().data.parent
    assert not list(home.rglob("escaped.gguf"))


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, r"Download of .* failed: Cannot reach tiny\.Q4_K_M\.gguf"
)
def test_a_hub_that_cannot_be_reached_fails_with_an_offline_message(tmp_path: Path, model_bytes: bytes) -> None:
    with FakeHub() as hub:
        url = hub.url
    manager = DownloadManager(app_paths(), endpoint=url, retry=FAST_RETRY)
    job = manager.enqueue(DownloadRequest(REPO, FILE))
    finish(job)
    assert manager.shutdown()
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.can_resume
    assert "unreachable" in snapshot.message and "internet" in snapshot.message


@pytest.mark.expected_log(
    "app.core.hub.client", logging.WARNING, r"Hub request failed \(not found\): gone\.Q4_0\.gguf is not in"
)
@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, r"Download of .* failed: gone\.Q4_0\.gguf is not in"
)
def test_a_file_missing_from_the_repository_is_reported(hub: FakeHub, make_manager) -> None:
    job = make_manager().enqueue(DownloadRequest(REPO, "gone.Q4_0.gguf"))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and "gone.Q4_0.gguf is not in acme/Tiny-GGUF" in snapshot.message


def test_sha256_is_computed_while_receiving_without_reading_the_file_again(
    hub: FakeHub, make_manager, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_second_read(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the download read its file again to hash it")

    monkeypatch.setattr("app.core.hub.downloads.transfer.sha256_file", no_second_read)
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message


def test_an_installed_verified_file_is_not_downloaded_again(hub: FakeHub, make_manager) -> None:
    finish(make_manager().enqueue(request_for(hub)))
    served = hub.served(REPO, FILE)
    again = make_manager().enqueue(request_for(hub))
    finish(again)
    assert again.snapshot().state is JobState.DONE and "already installed" in again.snapshot().message
    assert hub.served(REPO, FILE) == served
    assert VerifiedIndex(app_paths().models).state(installed_path()) is VerifyState.VERIFIED


def test_split_model_shards_install_side_by_side_as_one_library_model(
    fake_hub: FakeHub, tmp_path: Path, make_manager
) -> None:
    first = gguf_bytes(tmp_path, "a.gguf", seed=1)
    second = gguf_bytes(tmp_path, "b.gguf", seed=2)
    names = ["big.Q4_K_M-00001-of-00002.gguf", "big.Q4_K_M-00002-of-00002.gguf"]
    fake_hub.add_repo("acme/Big-GGUF", dict(zip(names, [first, second], strict=True)))
    manager = make_manager()
    jobs = [manager.enqueue(request_for(fake_hub, name, repo="acme/Big-GGUF")) for name in names]
    for job in jobs:
        finish(job)
        assert job.snapshot().state is JobState.DONE
    (model,) = [m for m in installed_models(app_paths().models) if not m.is_starter]
    assert model.name == "big.Q4_K_M" and len(model.shards) == 2
    assert model.size_bytes == len(first) + len(second)


def test_progress_reports_bytes_total_and_a_speed_while_running(hub: FakeHub, make_manager) -> None:
    hold = hub.hold(REPO, FILE, 300_000)
    job = make_manager().enqueue(request_for(hub))
    assert hold.reached.wait(20)
    wait_until(lambda: job.snapshot().downloaded == hold.offset)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.RUNNING
    assert snapshot.total == hub.file(REPO, FILE).size
    assert 0 < snapshot.fraction < 1  # type: ignore[operator]
    hold.release()
    finish(job)


@pytest.mark.expected_log("app.core.hub.downloads", logging.ERROR, r"SHA-256 mismatch for tiny\.Q4_K_M\.gguf")
@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, r"Download of .* failed: tiny\.Q4_K_M\.gguf arrived damaged"
)
def test_retry_after_a_hash_mismatch_downloads_afresh_and_installs(hub: FakeHub, make_manager) -> None:
    hub.faults(REPO, FILE).flip_byte_at = 100
    manager = make_manager()
    job = manager.enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().error_kind == "hash mismatch"
    hub.faults(REPO, FILE).flip_byte_at = None
    manager.resume(job.id)
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert hub.served(REPO, FILE) == 2 * hub.file(REPO, FILE).size


@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, "Download of .* failed: The connection dropped mid-file"
)
def test_a_partial_download_of_an_older_version_of_the_file_is_discarded(
    hub: FakeHub, make_manager, tmp_path: Path
) -> None:
    size = hub.file(REPO, FILE).size
    hub.faults(REPO, FILE).drop_at = size // 2
    old = make_manager(retry=RetryPolicy(attempts=1)).enqueue(request_for(hub))
    finish(old)
    assert old.snapshot().state is JobState.FAILED and partial_files()
    newer = gguf_bytes(tmp_path, "newer.gguf", seed=9, tensor_bytes=512 * 1024)
    hub.add_repo(REPO, {FILE: newer})  # the repository was updated meanwhile
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert installed_path().read_bytes() == newer
    assert hub.file_requests(FILE)[-1].range is None  # the old bytes were not reused


@pytest.mark.expected_log(
    "app.core.hub.downloads", logging.WARNING, "Download of .* failed: The disk holding .* is full"
)
def test_a_disk_that_fills_up_mid_download_keeps_the_bytes_and_resumes_after_space_is_freed(
    hub: FakeHub, make_manager, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from app.core.hub.downloads import transfer

    real_write = transfer._write_all
    written = 0

    def filling_disk(handle: object, data: bytes) -> None:
        nonlocal written
        if written >= 100_000:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(handle, data)  # type: ignore[arg-type]
        written += len(data)

    monkeypatch.setattr(transfer, "_write_all", filling_disk)
    manager = make_manager()
    job = manager.enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "disk full" and snapshot.can_resume
    assert "is full" in snapshot.message and "kept" in snapshot.message
    (part,) = app_paths().downloads.glob("*.part")
    assert part.stat().st_size == written

    monkeypatch.setattr(transfer, "_write_all", real_write)
    manager.resume(job.id)
    finish(job)
    assert job.snapshot().state is JobState.DONE, job.snapshot().message
    assert hub.file_requests(FILE)[-1].range == f"bytes={written}-"


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* read-only")
def test_a_downloads_folder_on_a_read_only_disk_fails_in_the_words_of_the_other_disk_errors(
    hub: FakeHub, make_manager, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    downloads = app_paths().downloads
    real_unlink = Path.unlink

    # The first write a new download makes is clearing old partial files away. Tests run as root,
    # which chmod does not stop, so the read-only disk answers EROFS by hand.
    def read_only_unlink(path: Path, missing_ok: bool = False) -> None:
        if path.parent == downloads:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", read_only_unlink)
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.can_resume
    assert snapshot.message == (
        f"Glassbox cannot write to {downloads}: the disk it is on is read-only. "
        "Make the disk writable or pick another folder, then try again. Press Resume to go on from there."
    )
    assert snapshot.error is not None and snapshot.error.problem in snapshot.message


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* read-only")
def test_a_downloads_folder_on_a_read_only_disk_is_refused_before_any_byte_moves(
    hub: FakeHub, make_manager, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    from types import SimpleNamespace

    from app.core.hub.downloads import disk

    downloads = app_paths().downloads
    real_access, real_statvfs = os.access, os.statvfs
    # As root, access() says yes to a chmod-ed folder: the read-only mount is answered by hand.
    monkeypatch.setattr(disk.os, "access", lambda path, mode: Path(path) != downloads and real_access(path, mode))
    monkeypatch.setattr(
        disk.os,
        "statvfs",
        lambda path: SimpleNamespace(f_flag=os.ST_RDONLY) if Path(path) == downloads else real_statvfs(path),
    )
    job = make_manager().enqueue(request_for(hub))
    finish(job)
    snapshot = job.snapshot()
    assert snapshot.state is JobState.FAILED and snapshot.error_kind == "not writable"
    assert f"cannot write to {downloads}: the disk it is on is read-only" in snapshot.message
    assert hub.file_requests(FILE) == []
