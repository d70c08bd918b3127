"""`glassbox models ...` against the fake Hub: search, files, download (with Ctrl+C and resume), list, verify,
remove."""

from __future__ import annotations

import errno
import logging
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from app.cli import models_command
from app.core.hub.downloads.job import DownloadJob
from app.core.memory.fit import Machine
from app.core.models.hashing import VerifiedIndex
from app.core.paths import app_paths
from app.main import main
from tests.fakes.fake_hub import FakeHub, gguf_bytes

REPO = "acme/Tiny-GGUF"
Q4 = "tiny.Q4_K_M.gguf"


@pytest.fixture
def hub(fake_hub: FakeHub, tmp_path: Path) -> FakeHub:
    fake_hub.add_repo(
        REPO,
        {
            Q4: gguf_bytes(tmp_path, "a.gguf", tensor_bytes=512 * 1024),
            "tiny.Q8_0.gguf": gguf_bytes(tmp_path, "b.gguf", seed=3),
        },
        downloads=42,
        likes=7,
    )
    fake_hub.add_repo("meta/Gated-GGUF", {"g.Q4_0.gguf": gguf_bytes(tmp_path, "c.gguf")}, gated=True)
    return fake_hub


def installed() -> Path:
    return app_paths().models / "acme" / "Tiny-GGUF" / Q4


def test_search_prints_repositories_with_downloads_and_likes(hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "search", "tiny"]) == 0
    out = capsys.readouterr().out
    assert "acme/Tiny-GGUF" in out and "42" in out and "2025-01-15" in out


def test_files_lists_variants_with_fit_and_a_recommendation(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.cli.models_command.machine_now", lambda: Machine(None, 8 * 1024**3))
    assert main(["models", "files", REPO]) == 0
    out = capsys.readouterr().out
    assert "near-lossless" in out and "RAM only" in out
    assert "* tiny.Q4_K_M.gguf" in out and "  tiny.Q8_0.gguf" in out
    assert "recommended for this machine: tiny.Q4_K_M.gguf (runs from RAM only" in out
    assert "estimate" not in out  # both headers were read from the Hub
    assert all(request.range for request in hub.file_requests(Q4))


def test_files_labels_a_fit_guessed_from_the_file_size_when_the_header_cannot_be_read(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.cli.models_command.machine_now", lambda: Machine(None, 8 * 1024**3))
    hub.faults(REPO, Q4).ignore_range = True
    assert main(["models", "files", REPO]) == 0
    out = capsys.readouterr().out
    assert "RAM only (estimate)" in out and "estimated from the file size" in out


def test_download_by_quantization_name_installs_and_list_shows_it_verified(
    hub: FakeHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "download", REPO, "Q4_K_M"]) == 0
    captured = capsys.readouterr()
    assert f"Installed and verified: {installed()}" in captured.out
    assert "100%" in captured.err
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tiny.Q4_K_M"))
    assert "llama" in row and "F32" in row and "verified" in row


def test_ctrl_c_pauses_the_download_and_a_second_run_resumes_it(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    size = hub.file(REPO, Q4).size
    hold = hub.hold(REPO, Q4, size * 40 // 100)
    partials = app_paths().downloads
    paused = threading.Event()  # the command has taken the Ctrl-C (its handler runs when the main thread can)
    pause = DownloadJob.pause

    def pause_and_tell(job: DownloadJob) -> None:
        pause(job)
        paused.set()

    monkeypatch.setattr(DownloadJob, "pause", pause_and_tell)

    def press_ctrl_c() -> None:
        assert hold.reached.wait(20)
        deadline = time.monotonic() + 20
        while sum(p.stat().st_size for p in partials.glob("*.part")) < hold.offset and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(os.getpid(), signal.SIGINT)
        assert paused.wait(20)  # released before that, the rest could arrive first and the Ctrl-C stop nothing
        hold.release()

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        assert main(["models", "download", REPO, Q4]) == 130
    finally:
        presser.join()
    assert "Run the same command again to resume" in capsys.readouterr().err
    (part,) = partials.glob("*.part")
    kept = part.stat().st_size
    assert kept >= hold.offset

    assert main(["models", "download", REPO, Q4]) == 0
    assert installed().stat().st_size == size
    assert hub.file_requests(Q4)[-1].range == f"bytes={kept}-"


def test_a_ctrl_c_that_comes_after_the_last_byte_stops_nothing_and_the_model_is_said_installed(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = models_command._show_progress

    def then_ctrl_c(jobs: list[DownloadJob]) -> None:
        shown(jobs)  # every job done
        os.kill(os.getpid(), signal.SIGINT)  # handled here, on the main thread, at once

    monkeypatch.setattr(models_command, "_show_progress", then_ctrl_c)
    assert main(["models", "download", REPO, Q4]) == 0
    captured = capsys.readouterr()
    assert "Installed and verified" in captured.out and "Paused" not in captured.err
    assert installed().stat().st_size == hub.file(REPO, Q4).size


@pytest.mark.expected_log("app.core.models.hashing", logging.WARNING, "Hash mismatch for .*: recorded")
def test_verify_reports_an_intact_file_and_catches_a_damaged_one(
    hub: FakeHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "download", REPO, Q4]) == 0
    assert main(["models", "verify", "tiny.Q4_K_M"]) == 0
    assert "intact" in capsys.readouterr().out
    with installed().open("r+b") as handle:
        handle.seek(-10, os.SEEK_END)
        handle.write(b"XXXXXXXXXX")
    stat = installed().stat()
    os.utime(installed(), ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert main(["models", "verify", "tiny.Q4_K_M"]) == 2
    assert "damaged or was changed" in capsys.readouterr().out


def test_remove_asks_first_and_deletes_on_yes(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["models", "download", REPO, Q4]) == 0
    monkeypatch.setattr("builtins.input", lambda _prompt: "n")
    assert main(["models", "remove", "tiny.Q4_K_M"]) == 0
    assert installed().exists()
    monkeypatch.setattr("builtins.input", lambda _prompt: "y")
    assert main(["models", "remove", "tiny.Q4_K_M"]) == 0
    assert not installed().exists()
    assert VerifiedIndex(app_paths().models).lookup(installed()) is None


def test_import_copies_a_local_file_into_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.fakes.fake_hub import make_gguf

    source = make_gguf(tmp_path / "local.Q4_0.gguf")
    assert main(["models", "import", str(source)]) == 0
    assert (app_paths().models / "imported" / "local.Q4_0.gguf").exists()


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(gated\)")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* is gated")
def test_gated_download_without_token_fails_with_what_to_do(hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "download", "meta/Gated-GGUF", "g.Q4_0.gguf"]) == 1
    err = capsys.readouterr().err
    assert "gated" in err and "accept its licence" in err and "token" in err


def test_an_unknown_variant_lists_the_choices(hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "download", REPO, "Q3_K_S"]) == 1
    assert "tiny.Q8_0.gguf, tiny.Q4_K_M.gguf" in capsys.readouterr().err


def test_token_status_without_a_keyring_explains_why(
    no_keyring: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(["models", "token", "status"]) == 0
    assert "No system keyring" in capsys.readouterr().out


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "did not keep it")
@pytest.mark.usefixtures("null_keyring", "isolated_home")
def test_token_set_on_a_keyring_that_keeps_nothing_says_it_was_not_saved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("getpass.getpass", lambda _prompt: "hf_typed_token")
    assert main(["models", "token", "set"]) == 1
    out, err = capsys.readouterr()
    assert "saved" not in out
    assert "The token was not saved" in err and "keyring.backends.null.Keyring" in err and "HF_TOKEN" in err


@pytest.mark.expected_log("app.core.hub.downloads.install", logging.ERROR, "SHA-256 mismatch for tiny.Q4_K_M.gguf")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* arrived damaged")
def test_a_download_that_arrives_damaged_says_what_to_do_in_terminal_terms(
    hub: FakeHub, capsys: pytest.CaptureFixture[str]
) -> None:
    hub.faults(REPO, Q4).flip_byte_at = 1000
    assert main(["models", "download", REPO, Q4]) == 1
    err = capsys.readouterr().err
    assert "arrived damaged" in err and "Run the same command again to download it again." in err
    assert "Press" not in err and "press" not in err
    assert not installed().exists()


@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of .* failed: .* read-only")
def test_a_read_only_downloads_folder_is_said_in_clear_words(
    hub: FakeHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def read_only(path: Path, _data: object) -> None:  # tests run as root, which chmod does not stop
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr("app.core.hub.downloads.sidecar.atomic_write", read_only)
    assert main(["models", "download", REPO, Q4]) == 1
    err = capsys.readouterr().err
    assert f"cannot write to {app_paths().downloads}: the disk it is on is read-only" in err
    assert "Run the same command again to resume." in err
    assert "Unexpected error" not in err and "Errno" not in err and "Press" not in err
