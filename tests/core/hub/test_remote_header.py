"""Reading a variant's GGUF header from the (fake) Hub with Range requests, through huggingface_hub's session."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import gguf
import numpy as np
import pytest

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.hub import remote_header
from app.core.hub.client import HubClient
from app.core.hub.remote_header import (
    RemoteHeaderError,
    read_remote_header,
    read_variant_headers,
)
from app.core.memory.fit import ESTIMATE_NOTE, Candidate, Machine, fit_hint
from app.core.memory.planner import GIB, ContextSettings
from app.core.models.gguf_info import GgufInfo, read_gguf_info
from tests.fakes.fake_hub import FakeHub

REPO = "acme/Synthetic-GGUF"
NAME = "synthetic.F16.gguf"


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    return write_synthetic_model(tmp_path / NAME, SyntheticModel(n_layers=5, n_vocab=4096))


def test_the_header_read_over_ranges_is_the_header_of_the_file(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file})
    client = HubClient()
    (variant,) = client.listing(REPO).variants
    info = read_remote_header(client, REPO, variant.files)
    local = read_gguf_info(model_file)
    assert info.tensors == local.tensors and info.metadata == local.metadata
    assert info.file_size == model_file.stat().st_size
    (request,) = fake_hub.file_requests(NAME)
    assert request.range == f"bytes=0-{remote_header.FIRST_RANGE - 1}"
    assert fake_hub.served(REPO, NAME) < model_file.stat().st_size  # the weights were not downloaded


def test_a_header_longer_than_the_first_range_is_read_in_growing_ranges(
    fake_hub: FakeHub, model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote_header, "FIRST_RANGE", 4096)
    fake_hub.add_repo(REPO, {NAME: model_file})
    client = HubClient()
    (variant,) = client.listing(REPO).variants
    info = read_remote_header(client, REPO, variant.files)
    assert info.tensors == read_gguf_info(model_file).tensors
    ranges = [request.range for request in fake_hub.file_requests(NAME)]
    assert len(ranges) > 1 and ranges[0] == "bytes=0-4095"
    starts = [int(text.removeprefix("bytes=").split("-")[0]) for text in ranges]  # type: ignore[union-attr]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)  # no byte is asked for twice


def test_a_read_cancelled_when_glassbox_closes_ends_without_the_header(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file})
    client = HubClient()
    cancel = threading.Event()
    cancel.set()
    (result,) = read_variant_headers(client, client.listing(REPO), cancel).values()
    assert isinstance(result, RemoteHeaderError) and "cancelled" in str(result)


def test_a_gated_repository_is_read_with_the_saved_token(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file}, gated=True)
    fake_hub.add_token("hf_reader", REPO)
    client = HubClient(token="hf_reader")
    (variant,) = client.listing(REPO).variants
    assert read_remote_header(client, REPO, variant.files).block_count == 5
    assert fake_hub.file_requests(NAME)[-1].authorization == "Bearer hf_reader"
    with pytest.raises(RemoteHeaderError, match="401"):
        read_remote_header(HubClient(), REPO, variant.files)


def test_a_split_model_is_planned_with_every_shard_s_tensors_and_the_total_size(
    fake_hub: FakeHub, model_file: Path, tmp_path: Path
) -> None:
    second = tmp_path / "second.gguf"
    writer = gguf.GGUFWriter(second, "llama")
    writer.add_tensor("blk.4.ffn_extra.weight", np.ones((64, 64), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    shards = {"big-F16-00001-of-00002.gguf": model_file, "big-F16-00002-of-00002.gguf": second}
    fake_hub.add_repo(REPO, shards)
    client = HubClient()
    (variant,) = client.listing(REPO).variants
    info = read_remote_header(client, REPO, variant.files)
    assert info.block_count == 5 and info.tensor("blk.4.ffn_extra.weight") is not None
    assert len(info.tensors) == len(read_gguf_info(model_file).tensors) + 1
    assert info.file_size == variant.size


def hint_for(client: HubClient, fake_hub: FakeHub) -> tuple[GgufInfo | RemoteHeaderError, str]:
    listing = client.listing(REPO)
    (variant,) = listing.variants
    header = read_variant_headers(client, listing)[variant.key]
    candidate = Candidate(variant.key, variant.quant, variant.size, header if isinstance(header, GgufInfo) else None)
    return header, fit_hint(candidate, Machine(None, 16 * GIB), ContextSettings.for_load(4096)).text


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        pytest.param(
            b"GGUF" + bytes([3, 0, 0, 0]) + (2**60).to_bytes(8, "little") * 2 + bytes(4096),
            "more than the file",
            id="hostile counts",
        ),
        pytest.param(b"not a gguf file at all" * 100, "wrong magic", id="not GGUF"),
    ],
)
def test_a_hostile_or_foreign_header_gives_the_labelled_estimate_never_a_crash(
    fake_hub: FakeHub, content: bytes, reason: str
) -> None:
    fake_hub.add_repo(REPO, {NAME: content})
    header, text = hint_for(HubClient(), fake_hub)
    assert isinstance(header, RemoteHeaderError) and reason in header.reason
    assert ESTIMATE_NOTE in text


def test_a_file_cut_short_inside_its_header_gives_the_labelled_estimate(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file.read_bytes()[:5000]})
    header, text = hint_for(HubClient(), fake_hub)
    assert isinstance(header, RemoteHeaderError) and "cut short" in header.reason
    assert ESTIMATE_NOTE in text


def test_a_header_past_the_size_cap_is_refused_after_reading_no_more_than_the_cap(
    fake_hub: FakeHub, model_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(remote_header, "FIRST_RANGE", 1024)
    monkeypatch.setattr(remote_header, "MAX_HEADER_BYTES", 8192)
    fake_hub.add_repo(REPO, {NAME: model_file})
    header, text = hint_for(HubClient(), fake_hub)
    assert isinstance(header, RemoteHeaderError) and "larger than" in header.reason
    assert fake_hub.served(REPO, NAME) == 8192
    assert ESTIMATE_NOTE in text


def test_a_server_without_byte_ranges_gives_the_labelled_estimate(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file})
    fake_hub.faults(REPO, NAME).ignore_range = True
    header, text = hint_for(HubClient(), fake_hub)
    assert isinstance(header, RemoteHeaderError) and "byte ranges" in header.reason
    assert ESTIMATE_NOTE in text
    assert fake_hub.served(REPO, NAME) < model_file.stat().st_size  # the whole file was not pulled


def test_an_unreachable_hub_gives_the_labelled_estimate(fake_hub: FakeHub, model_file: Path) -> None:
    fake_hub.add_repo(REPO, {NAME: model_file})
    listing = HubClient().listing(REPO)
    with socket.socket() as unused:  # a port nothing listens on once closed
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    offline = HubClient(endpoint=f"http://127.0.0.1:{port}")
    (variant,) = listing.variants
    header = read_variant_headers(offline, listing)[variant.key]
    assert isinstance(header, RemoteHeaderError) and "unreachable" in header.reason
