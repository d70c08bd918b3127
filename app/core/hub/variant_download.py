"""What downloading a variant fetches: its files and, for a vision model, the projector that lets it read images.

A vision model's repository keeps its projector (`mmproj-*.gguf`) beside the quantizations, often in
several precisions (`mmproj-F16`, `-BF16`, `-F32`) and now and then one per model size. Downloading a
variant takes one projector with it, in one action: the one in the variant's folder named most like
the variant, in F16 when there is a choice (what llama.cpp's and LM Studio's users take: half of F32's
size, no loss that shows; BF16 is slower on CPUs without it). Each file is a download of its own,
checked against the Hub's SHA-256 like every other, and the projector lands beside the model, where
the library pairs them (app/core/models/projector_pairing.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from app.core.hub.client import HubError, HubErrorKind, RepoFile, RepoListing, Variant
from app.core.hub.downloads.job import DownloadRequest
from app.core.models.projector_pairing import name_likeness
from app.core.support.formatting import fill
from app.core.support.user_text import N_

# The projector precisions, most wanted first; any other comes after them.
_PRECISIONS = ("f16", "bf16", "q8_0", "f32")
_PRECISION = re.compile(r"(?<![a-z0-9])(" + "|".join(_PRECISIONS) + r")(?![a-z0-9])")


def projector_for(listing: RepoListing, variant: Variant) -> RepoFile | None:
    """The projector that comes with `variant`, or None for a text model's repository."""
    if not listing.projectors or not variant.files:
        return None
    model = PurePosixPath(variant.files[0].filename)

    def preference(projector: RepoFile) -> tuple[bool, int, int]:
        path = PurePosixPath(projector.filename)
        return (path.parent == model.parent, name_likeness(path, model.stem), -_precision_rank(path.name))

    return max(listing.projectors, key=preference)


def download_files(listing: RepoListing, variant: Variant) -> tuple[RepoFile, ...]:
    """Every file downloading `variant` fetches: its own, then its projector if it has one."""
    projector = projector_for(listing, variant)
    return variant.files + ((projector,) if projector is not None else ())


def download_size(listing: RepoListing, variant: Variant) -> int:
    return sum(file.size or 0 for file in download_files(listing, variant))


def download_requests(listing: RepoListing, variant: Variant, revision: str | None = None) -> list[DownloadRequest]:
    """One download per file (the variant's, then its projector's), pinned to the listing's commit, each
    checked against the SHA-256 and size the listing holds."""
    return [
        DownloadRequest(listing.repo_id, file.filename, listing.commit or revision, file.sha256, file.size)
        for file in download_files(listing, variant)
    ]


@dataclass(frozen=True)
class FileDownload:
    """What downloading one file a repository is known to hold (a recommended model's) fetches."""

    requests: list[DownloadRequest]  # the model's, then its projector's: pinned and checked as a variant's are
    projector: RepoFile | None  # None: the repository publishes no projector, so the model reads text only


def file_download(listing: RepoListing, filename: str) -> FileDownload:
    """The download of the variant holding `filename`, with its projector, from a listing taken now.

    Raises HubError when the repository no longer holds the file: nothing is to be downloaded then."""
    variant = next((v for v in listing.variants if any(f.filename == filename for f in v.files)), None)
    if variant is None:
        missing = fill(
            N_("{file} is not in {repo} any more, so it cannot be downloaded."), file=filename, repo=listing.repo_id
        )
        raise HubError(HubErrorKind.NOT_FOUND, missing)
    return FileDownload(download_requests(listing, variant), projector_for(listing, variant))


def _precision_rank(name: str) -> int:
    found = _PRECISION.search(name.lower())
    return _PRECISIONS.index(found.group(1)) if found else len(_PRECISIONS)
