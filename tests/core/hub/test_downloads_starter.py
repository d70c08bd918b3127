"""End to end with the real starter model: search, download, verify, install, then llama.cpp loads it."""

from __future__ import annotations

from pathlib import Path

from app.core.hub.client import HubClient
from app.core.hub.downloads.job import DownloadRequest, JobState
from app.core.hub.downloads.manager import DownloadManager
from app.core.hub.remote_header import read_variant_headers
from app.core.inference.engine import Engine
from app.core.memory.fit import Candidate, Machine, recommend
from app.core.memory.planner import ContextSettings
from app.core.models.hashing import VerifiedIndex, VerifyState
from app.core.models.library import installed_models
from app.core.paths import app_paths
from app.core.types.load import LoadConfig
from tests.fakes.fake_hub import FakeHub

REPO = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"


def test_starter_model_downloads_verifies_installs_and_loads_in_llama_cpp(
    fake_hub: FakeHub, starter_model: Path
) -> None:
    fake_hub.add_repo(REPO, {starter_model.name: starter_model}, downloads=1000)
    client = HubClient()
    assert [r.repo_id for r in client.search("smollm2")] == [REPO]
    listing = client.listing(REPO)
    headers = read_variant_headers(client, listing)
    candidates = [Candidate(v.key, v.quant, v.size, headers[v.key]) for v in listing.variants]  # type: ignore[arg-type]
    key = recommend(candidates, Machine(None, 8 * 1024**3), ContextSettings.for_load(4096))
    (file,) = listing.variant(key or "").files
    assert file.size == starter_model.stat().st_size

    header_bytes = fake_hub.served(REPO, file.filename)  # the header, read with a Range request
    assert 0 < header_bytes < file.size

    manager = DownloadManager(app_paths())
    job = manager.enqueue(DownloadRequest(REPO, file.filename, expected_sha256=file.sha256, expected_size=file.size))
    assert job.wait(120)
    assert manager.shutdown()
    snapshot = job.snapshot()
    assert snapshot.state is JobState.DONE, snapshot.message
    assert fake_hub.served(REPO, file.filename) == header_bytes + file.size

    installed = app_paths().models / "HuggingFaceTB" / "SmolLM2-135M-Instruct-GGUF" / starter_model.name
    assert snapshot.destination == installed
    assert any(m.path == installed and not m.is_starter for m in installed_models(app_paths().models))
    assert VerifiedIndex(app_paths().models).state(installed) is VerifyState.VERIFIED

    engine = Engine()
    try:
        report = engine.load(LoadConfig(installed, n_ctx=256))
        assert report.stages
        assert engine.tokenize("Hello")
    finally:
        engine.close()
