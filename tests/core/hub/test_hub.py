"""Hub search and repository listing through the real huggingface_hub client, against the fake Hub."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.core.hub.client import (
    HubClient,
    HubError,
    HubErrorKind,
    RepoFile,
    group_variants,
    hub_endpoint,
    incomplete_split,
    normalize_repo_id,
)
from tests.fakes.fake_hub import FakeHub, gguf_bytes


@pytest.fixture
def hub(fake_hub: FakeHub, tmp_path: Path) -> FakeHub:
    small = gguf_bytes(tmp_path, "a.gguf", tensor_bytes=64 * 1024)
    large = gguf_bytes(tmp_path, "b.gguf", tensor_bytes=128 * 1024)
    fake_hub.add_repo(
        "bartowski/Llama-3.2-1B-Instruct-GGUF",
        {
            "Llama-3.2-1B-Instruct-Q4_K_M.gguf": small,
            "Llama-3.2-1B-Instruct-Q8_0.gguf": large,
            "Llama-3.2-1B-Instruct-f16-00001-of-00002.gguf": large,
            "Llama-3.2-1B-Instruct-f16-00002-of-00002.gguf": small,
            "mmproj-Llama-3.2-1B-F16.gguf": small,
            "README.md": b"# card",
        },
        downloads=9000,
        likes=120,
    )
    fake_hub.add_repo("someone/llama-tiny-GGUF", {"tiny.Q2_K.gguf": small}, downloads=10, likes=1)
    fake_hub.add_repo("someone/llama-safetensors", {"model.safetensors": b"x" * 100}, downloads=50_000)
    fake_hub.add_repo("meta/Llama-Gated-GGUF", {"gated.Q4_0.gguf": small}, gated=True, downloads=5)
    fake_hub.add_repo("me/private-GGUF", {"secret.Q4_0.gguf": small}, private=True)
    return fake_hub


def test_search_finds_gguf_repositories_most_downloaded_first(hub: FakeHub) -> None:
    results = HubClient().search("llama")
    assert [r.repo_id for r in results] == [
        "bartowski/Llama-3.2-1B-Instruct-GGUF",
        "someone/llama-tiny-GGUF",
        "meta/Llama-Gated-GGUF",
    ]
    first = results[0]
    assert (first.downloads, first.likes) == (9000, 120)
    assert first.last_modified is not None and first.last_modified.year == 2025
    assert results[2].gated and not results[0].gated


def test_search_uses_hf_endpoint_read_at_call_time(hub: FakeHub) -> None:
    assert hub_endpoint() == hub.url
    assert HubClient().endpoint == hub.url
    HubClient().search("tiny")
    assert [r.path for r in hub.requests] == ["/api/models"]  # nothing went to huggingface.co


def test_listing_groups_gguf_files_into_variants_with_size_quant_and_sha(hub: FakeHub) -> None:
    listing = HubClient().listing("bartowski/Llama-3.2-1B-Instruct-GGUF")
    repo = hub.repos["bartowski/Llama-3.2-1B-Instruct-GGUF"]
    assert listing.commit == repo.commit
    assert [(v.key, v.quant) for v in listing.variants] == [
        ("Llama-3.2-1B-Instruct-f16", "F16"),
        ("Llama-3.2-1B-Instruct-Q8_0.gguf", "Q8_0"),
        ("Llama-3.2-1B-Instruct-Q4_K_M.gguf", "Q4_K_M"),
    ]
    split = listing.variant("Llama-3.2-1B-Instruct-f16")
    assert split.is_split and [f.filename for f in split.files] == [
        "Llama-3.2-1B-Instruct-f16-00001-of-00002.gguf",
        "Llama-3.2-1B-Instruct-f16-00002-of-00002.gguf",
    ]
    assert split.size == sum(repo.files[f.filename].size for f in split.files)
    q4 = listing.variant("Llama-3.2-1B-Instruct-Q4_K_M.gguf")
    assert q4.files[0].sha256 == repo.files["Llama-3.2-1B-Instruct-Q4_K_M.gguf"].sha256
    assert "balanced" in q4.note
    assert [p.filename for p in listing.projectors] == ["mmproj-Llama-3.2-1B-F16.gguf"]


def test_listing_marks_a_gated_repository(hub: FakeHub) -> None:
    assert HubClient().listing("meta/Llama-Gated-GGUF").gated


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(not found\)")
def test_a_missing_repository_is_a_clear_message(hub: FakeHub) -> None:
    with pytest.raises(HubError) as caught:
        HubClient().listing("nobody/nothing-GGUF")
    assert caught.value.kind is HubErrorKind.NOT_FOUND
    assert "nobody/nothing-GGUF was not found" in caught.value.message
    assert "token" in caught.value.message  # it may be private


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(not found\): me/private-GGUF")
def test_a_private_repository_opens_with_a_token_that_can_read_it(hub: FakeHub) -> None:
    with pytest.raises(HubError):
        HubClient().listing("me/private-GGUF")
    hub.add_token("hf_private", "me/private-GGUF")
    listing = HubClient(token="hf_private").listing("me/private-GGUF")
    assert [v.key for v in listing.variants] == ["secret.Q4_0.gguf"]


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(token refused\)")
def test_a_refused_token_says_to_create_a_new_one(hub: FakeHub) -> None:
    with pytest.raises(HubError) as caught:
        HubClient(token="hf_revoked").listing("someone/llama-tiny-GGUF")
    assert caught.value.kind is HubErrorKind.UNAUTHORIZED
    assert "settings/tokens" in caught.value.message


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(gated\)")
def test_gated_file_metadata_without_token_explains_the_licence_step(hub: FakeHub) -> None:
    with pytest.raises(HubError) as caught:
        HubClient().file_metadata("meta/Llama-Gated-GGUF", "gated.Q4_0.gguf")
    assert caught.value.kind is HubErrorKind.GATED
    assert f"{hub.url}/meta/Llama-Gated-GGUF" in caught.value.message and "accept" in caught.value.message


def test_file_metadata_pins_the_commit_and_reads_the_lfs_sha(hub: FakeHub) -> None:
    repo = hub.repos["someone/llama-tiny-GGUF"]
    meta = HubClient().file_metadata("someone/llama-tiny-GGUF", "tiny.Q2_K.gguf")
    assert meta.commit == repo.commit and f"/resolve/{repo.commit}/" in meta.url
    assert meta.sha256 == repo.files["tiny.Q2_K.gguf"].sha256
    assert meta.size == repo.files["tiny.Q2_K.gguf"].size


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
def test_an_unreachable_hub_is_reported_as_offline() -> None:
    with FakeHub() as stopped:
        url = stopped.url
    for request in (lambda: HubClient(url).listing("someone/llama-tiny-GGUF"), lambda: HubClient(url).search("llama")):
        with pytest.raises(HubError) as caught:
            request()
        assert caught.value.kind is HubErrorKind.OFFLINE and caught.value.retryable
        assert "unreachable" in caught.value.message and "internet connection" in caught.value.message


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(server error\)")
def test_a_server_error_says_it_is_temporary(hub: FakeHub) -> None:
    hub.api_statuses = [503, 502]
    for request in (lambda: HubClient().search("llama"), lambda: HubClient().listing("someone/llama-tiny-GGUF")):
        with pytest.raises(HubError) as caught:
            request()
        assert caught.value.kind is HubErrorKind.SERVER and caught.value.retryable
        assert "server error" in caught.value.message and "try again" in caught.value.message


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(token refused\)")
def test_token_never_appears_in_logs(hub: FakeHub, caplog: pytest.LogCaptureFixture) -> None:
    hub.add_token("hf_secretvalue", "meta/Llama-Gated-GGUF")
    caplog.set_level(logging.DEBUG)
    HubClient(token="hf_secretvalue").listing("meta/Llama-Gated-GGUF")
    with pytest.raises(HubError):
        HubClient(token="hf_wrongsecret").file_metadata("meta/Llama-Gated-GGUF", "gated.Q4_0.gguf")
    assert "hf_secretvalue" not in caplog.text and "hf_wrongsecret" not in caplog.text


@pytest.mark.parametrize(
    ("text", "repo_id"),
    [
        ("bartowski/Llama-3.2-1B-Instruct-GGUF", "bartowski/Llama-3.2-1B-Instruct-GGUF"),
        ("  TheBloke/Mistral-7B-GGUF ", "TheBloke/Mistral-7B-GGUF"),
        ("https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/tree/main", "Qwen/Qwen2.5-0.5B-Instruct-GGUF"),
    ],
)
def test_repository_names_are_accepted_as_ids_or_web_addresses(text: str, repo_id: str) -> None:
    assert normalize_repo_id(text) == repo_id


@pytest.mark.parametrize("text", ["", "justaname", "a/b/c", "../etc", "owner/..", "owner/name?x=1", "own er/name"])
def test_malformed_repository_names_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(HubError) as caught:
        normalize_repo_id(text)
    assert caught.value.kind is HubErrorKind.BAD_INPUT and "owner/name" in caught.value.message


def test_a_split_model_with_missing_parts_is_flagged() -> None:
    (variant,) = group_variants(
        [RepoFile("m-Q4_K_M-00001-of-00003.gguf", 10, None), RepoFile("m-Q4_K_M-00003-of-00003.gguf", 10, None)]
    )
    assert incomplete_split(variant) == "only 2 of 3 parts are in the repository"


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\).*Errno")
def test_an_unknown_host_is_worded_plainly_with_the_technical_detail_only_in_the_log(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    with pytest.raises(HubError) as caught:
        HubClient("http://glassbox-no-such-host.invalid").search("llama")
    message = caught.value.message
    assert message.startswith("Cannot search Hugging Face: glassbox-no-such-host.invalid is unreachable.")
    assert "internet connection" in message
    assert "Errno" not in message and "HF_ENDPOINT" not in message
    assert any("Errno" in record.getMessage() for record in caplog.records)  # the detail is kept for the log


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
def test_an_unreachable_hub_names_hf_endpoint_when_the_user_set_it(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeHub() as stopped:
        url = stopped.url
    monkeypatch.setenv("HF_ENDPOINT", url)
    with pytest.raises(HubError) as caught:
        HubClient().search("llama")
    assert f"Glassbox is using {url}, set by HF_ENDPOINT." in caught.value.message
