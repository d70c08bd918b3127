"""Downloading a vision model's variant takes its projector with it: one action, two downloads, each checked
against the Hub's SHA-256, the projector installed beside the model where the library pairs them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.hub.client import HubClient, HubError, HubErrorKind, RepoFile, RepoListing, Variant
from app.core.hub.downloads.job import DownloadJob, DownloadRequest, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.downloads.transfer import RetryPolicy
from app.core.hub.variant_download import download_requests, download_size, file_download, projector_for
from app.core.models.hashing import VerifiedIndex, VerifyState
from app.core.models.library import installed_models
from app.core.paths import app_paths
from tests.fakes.fake_hub import FakeHub

REPO = "acme/Tiny-Vision-GGUF"
MODEL = "tiny-vision-Q8_0.gguf"
PROJECTOR = "mmproj-tiny-vision-f16.gguf"


def _listing(*names: str) -> tuple[RepoListing, Variant]:
    files = [RepoFile(name, 100, None) for name in names]
    projectors = tuple(f for f in files if "mmproj" in f.filename)
    variant = Variant("model", "Q4_K_M", tuple(f for f in files if f not in projectors))
    return RepoListing("acme/Vision-GGUF", "c0ffee", False, False, (variant,), projectors), variant


def test_the_f16_projector_comes_with_a_variant_when_the_repository_has_several_precisions() -> None:
    listing, variant = _listing("gemma-3-4b-it-Q4_K_M.gguf", "mmproj-F32.gguf", "mmproj-BF16.gguf", "mmproj-F16.gguf")
    assert projector_for(listing, variant) == RepoFile("mmproj-F16.gguf", 100, None)


def test_the_projector_named_like_the_variant_comes_with_it_when_the_repository_has_one_per_model_size() -> None:
    listing, variant = _listing(
        "gemma-3-4b-it-Q4_K_M.gguf", "mmproj-gemma-3-27b-it-f16.gguf", "mmproj-gemma-3-4b-it-f32.gguf"
    )
    assert projector_for(listing, variant) == RepoFile("mmproj-gemma-3-4b-it-f32.gguf", 100, None)


def test_the_projector_in_the_variant_s_folder_comes_with_it() -> None:
    listing, variant = _listing(
        "Q4_K_M/model-Q4_K_M.gguf", "other/mmproj-model-f16.gguf", "Q4_K_M/mmproj-model-f32.gguf"
    )
    assert projector_for(listing, variant) == RepoFile("Q4_K_M/mmproj-model-f32.gguf", 100, None)


def test_a_text_model_s_variant_downloads_only_its_own_files() -> None:
    listing, variant = _listing("smol-Q4_K_M.gguf")
    assert projector_for(listing, variant) is None
    assert [request.filename for request in download_requests(listing, variant)] == ["smol-Q4_K_M.gguf"]
    assert download_size(listing, variant) == 100


@pytest.fixture
def hub(fake_hub: FakeHub, tmp_path: Path) -> FakeHub:
    model = write_synthetic_model(tmp_path / MODEL, SyntheticModel(n_layers=1, n_embd=64, n_ff=64, n_vocab=300))
    projector = write_synthetic_projector(tmp_path / PROJECTOR, SyntheticProjector(text_embd=64))
    fake_hub.add_repo(REPO, {MODEL: model, PROJECTOR: projector})
    return fake_hub


@pytest.fixture
def manager(hub: FakeHub) -> Iterator[DownloadManager]:
    downloads = DownloadManager(app_paths(), endpoint=hub.url, retry=RetryPolicy(attempts=2, base_delay_s=0.01))
    yield downloads
    assert downloads.shutdown(10), "a download thread did not stop"


def _download_variant(hub: FakeHub, manager: DownloadManager) -> list[DownloadJob]:
    listing = HubClient(hub.url).listing(REPO)
    jobs = [manager.enqueue(request) for request in download_requests(listing, listing.variants[0])]
    for job in jobs:
        while not job.state.finished:
            assert job.wait(30), "the download did not end in time"
    return jobs


def test_downloading_a_vision_model_installs_its_projector_beside_it_both_verified(
    hub: FakeHub, manager: DownloadManager
) -> None:
    jobs = _download_variant(hub, manager)
    assert [(job.request.filename, job.state) for job in jobs] == [(MODEL, JobState.DONE), (PROJECTOR, JobState.DONE)]
    folder = app_paths().models / "acme" / "Tiny-Vision-GGUF"
    index = VerifiedIndex(app_paths().models)
    for name in (MODEL, PROJECTOR):
        record = index.lookup(folder / name)
        assert record is not None and record.reference == "hub"
        assert record.sha256 == hub.file(REPO, name).sha256 and index.state(folder / name) is VerifyState.VERIFIED
    [model] = [m for m in installed_models(app_paths().models) if not m.is_starter]
    assert (model.path, model.projector) == (folder / MODEL, folder / PROJECTOR)


@pytest.mark.expected_log("app.core.hub.downloads", logging.ERROR, "SHA-256 mismatch for mmproj")
@pytest.mark.expected_log("app.core.hub.downloads", logging.WARNING, "Download of mmproj-tiny-vision-f16.gguf failed")
def test_a_damaged_projector_is_caught_by_its_sha256_and_the_model_stays_a_text_model(
    hub: FakeHub, manager: DownloadManager
) -> None:
    hub.faults(REPO, PROJECTOR).flip_byte_at = 1000
    model_job, projector_job = _download_variant(hub, manager)
    assert model_job.state is JobState.DONE
    assert projector_job.state is JobState.FAILED and projector_job.error_kind == "hash mismatch"
    folder = app_paths().models / "acme" / "Tiny-Vision-GGUF"
    assert not (folder / PROJECTOR).exists()
    [model] = [m for m in installed_models(app_paths().models) if not m.is_starter]
    assert model.projector is None


def test_a_named_file_downloads_with_the_projector_its_variant_would_take_pinned_and_checked() -> None:
    files = [RepoFile(name, 100, f"{i:064x}") for i, name in enumerate(("gemma-Q4_K_M.gguf", "gemma-Q8_0.gguf"))]
    projectors = (RepoFile("mmproj-gemma-f32.gguf", 200, "f" * 64), RepoFile("mmproj-gemma-f16.gguf", 100, "e" * 64))
    variants = tuple(Variant(f.filename, None, (f,)) for f in files)
    listing = RepoListing("acme/Gemma-GGUF", "c0ffee", False, False, variants, projectors)
    download = file_download(listing, "gemma-Q8_0.gguf")
    assert download.projector == projectors[1]
    assert download.requests == [
        DownloadRequest("acme/Gemma-GGUF", "gemma-Q8_0.gguf", "c0ffee", f"{1:064x}", 100),
        DownloadRequest("acme/Gemma-GGUF", "mmproj-gemma-f16.gguf", "c0ffee", "e" * 64, 100),
    ]


def test_a_named_file_of_a_repository_without_a_projector_downloads_alone() -> None:
    listing, _variant = _listing("smol-Q4_K_M.gguf")
    download = file_download(listing, "smol-Q4_K_M.gguf")
    assert download.projector is None and [r.filename for r in download.requests] == ["smol-Q4_K_M.gguf"]


def test_a_named_file_the_repository_no_longer_holds_is_refused_with_the_reason() -> None:
    listing, _variant = _listing("smol-Q4_K_M.gguf", "mmproj-smol-f16.gguf")
    with pytest.raises(HubError) as refused:
        file_download(listing, "smol-Q5_K_M.gguf")
    assert refused.value.kind is HubErrorKind.NOT_FOUND
    assert refused.value.message == "smol-Q5_K_M.gguf is not in acme/Vision-GGUF any more, so it cannot be downloaded."
