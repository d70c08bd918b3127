"""The GGUF header of a file on the Hub, read with HTTP Range requests before anything is downloaded.

The header (metadata and tensor list) sits at the start of the file: a few hundred KiB
for small models, several MiB for big vocabularies or thousands of tensors. It is read in
growing ranges until the parser has all of it, never past `MAX_HEADER_BYTES`, on
huggingface_hub's session with its headers (and the token, for gated repositories), like
the downloads. A split model's metadata is in its first shard; every shard lists its own
tensors, so all shard headers are read and their tensors planned together.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import httpx2
from huggingface_hub.errors import HfHubHTTPError
from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

from app.core.hub.client import (
    METADATA_TIMEOUT_S,
    HubClient,
    RepoFile,
    RepoListing,
    incomplete_split,
)
from app.core.models.gguf_info import (
    GgufHeaderIncomplete,
    GgufInfo,
    GgufInfoError,
    parse_gguf_prefix,
)
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

MIB = 1024 * 1024
FIRST_RANGE = 2 * MIB
# Later shards of a split model carry no vocabulary: their headers are tensor lists only.
SHARD_FIRST_RANGE = 256 * 1024
MAX_HEADER_BYTES = 64 * MIB
PARALLEL_READS = 4


class RemoteHeaderError(Exception):
    """The header could not be read over HTTP; `reason` says why, in one line."""

    def __init__(self, filename: str, reason: str) -> None:
        super().__init__(f"Cannot read the header of {filename}: {reason}")
        self.filename = filename
        self.reason = reason


def read_variant_headers(
    client: HubClient, listing: RepoListing, cancel: threading.Event | None = None
) -> dict[str, GgufInfo | RemoteHeaderError]:
    """Each complete variant's header, or why it could not be read, by variant key (a few at a time).

    `cancel` (set when Glassbox closes) ends the reads between chunks; what is left says "cancelled".
    """
    variants = [variant for variant in listing.variants if incomplete_split(variant) is None]

    def read(files: Sequence[RepoFile]) -> GgufInfo | RemoteHeaderError:
        try:
            return read_remote_header(client, listing.repo_id, files, listing.commit, cancel)
        except RemoteHeaderError as error:
            log.info("%s", error)
            return error

    with ThreadPoolExecutor(PARALLEL_READS, thread_name_prefix="gguf-header") as pool:
        results = list(pool.map(read, [variant.files for variant in variants]))
    return {variant.key: result for variant, result in zip(variants, results, strict=True)}


def read_remote_header(
    client: HubClient,
    repo_id: str,
    files: Sequence[RepoFile],
    revision: str | None = None,
    cancel: threading.Event | None = None,
) -> GgufInfo:
    """The header of a variant (one file, or the shards of a split model, first first).

    For a split model the result has the first shard's metadata, every shard's tensors and
    the total size. Raises RemoteHeaderError.
    """
    if not files:
        raise RemoteHeaderError(repo_id, N_("the variant has no files"))
    first = _read_file_header(client, repo_id, files[0], revision, FIRST_RANGE, cancel)
    if len(files) == 1:
        return first
    tensors = list(first.tensors)
    for file in files[1:]:
        tensors += _read_file_header(client, repo_id, file, revision, SHARD_FIRST_RANGE, cancel).tensors
    total = sum(file.size or 0 for file in files)
    return replace(first, file_size=total, tensors=tuple(tensors), _by_name={})


def _read_file_header(
    client: HubClient,
    repo_id: str,
    file: RepoFile,
    revision: str | None,
    first_range: int,
    cancel: threading.Event | None,
) -> GgufInfo:
    if not file.size:
        raise RemoteHeaderError(file.filename, N_("the Hub does not list the file's size"))
    url = client.file_url(repo_id, file.filename, revision)
    data = b""
    wanted = min(first_range, file.size)
    while True:
        data += _read_range(client, url, file.filename, len(data), wanted, cancel)
        try:
            return parse_gguf_prefix(data, file.filename, file.size)
        except GgufHeaderIncomplete as incomplete:
            if len(data) >= MAX_HEADER_BYTES:
                raise RemoteHeaderError(
                    file.filename, fill(N_("the header is larger than {value} MiB"), value=MAX_HEADER_BYTES // MIB)
                ) from incomplete
            wanted = min(max(incomplete.needed, 2 * len(data)), MAX_HEADER_BYTES, file.size)
        except GgufInfoError as error:
            raise RemoteHeaderError(file.filename, error.reason) from error


def _read_range(
    client: HubClient, url: str, filename: str, start: int, end: int, cancel: threading.Event | None
) -> bytes:
    """Bytes [start, end) of the file; refuses a server that answers without the range."""
    headers = build_hf_headers(
        token=client.token or False, headers={"Accept-Encoding": "identity", "Range": f"bytes={start}-{end - 1}"}
    )
    try:
        with get_session().stream(
            "GET", url, headers=headers, timeout=METADATA_TIMEOUT_S, follow_redirects=True
        ) as response:
            if response.status_code != 206:
                if response.status_code >= 400:
                    response.read()
                    hf_raise_for_status(response)
                raise RemoteHeaderError(
                    filename,
                    fill(
                        N_("the server does not serve byte ranges (status {status_code})"),
                        status_code=response.status_code,
                    ),
                )
            body = bytearray()
            for chunk in response.iter_bytes():
                if cancel is not None and cancel.is_set():
                    raise RemoteHeaderError(filename, "cancelled")
                body += chunk
                if len(body) > end - start:
                    break
    except RemoteHeaderError:
        raise
    except httpx2.TimeoutException as error:
        raise RemoteHeaderError(filename, fill(N_("{host} did not answer in time"), host=client.host)) from error
    except httpx2.TransportError as error:
        raise RemoteHeaderError(
            filename, fill(N_("{host} is unreachable ({short})"), host=client.host, short=_short(error))
        ) from error
    except HfHubHTTPError as error:  # gated, not found, server errors: the listing says more
        raise RemoteHeaderError(
            filename, fill(N_("the Hub answered {status_code}"), status_code=error.response.status_code)
        ) from error
    if len(body) < end - start:
        raise RemoteHeaderError(
            filename,
            fill(N_("the server sent {n_body} bytes for a range of {value}"), n_body=len(body), value=end - start),
        )
    return bytes(body[: end - start])


def _short(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__
