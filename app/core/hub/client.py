"""Hugging Face Hub: search GGUF repositories, list a repository's GGUF variants, resolve file URLs.

Metadata, URLs and authentication come from `huggingface_hub` (HfApi, hf_hub_url,
get_hf_file_metadata); `downloads/transfer.py` moves the bytes itself on the same HTTP session.
Every failure becomes a `HubError` whose message says what happened and what to do.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from urllib.parse import urlparse

from app.core.support.formatting import fill
from app.core.support.user_text import N_

# Glassbox moves file bytes itself over plain HTTP (see downloads/transfer.py); keep huggingface_hub off
# its Xet transfer path too. Read by huggingface_hub when it is first imported.
os.environ.setdefault("HF_HUB_DISABLE_XET", "1")

import httpx2
from huggingface_hub import HfApi, ModelInfo, get_hf_file_metadata, hf_hub_url
from huggingface_hub.errors import (
    EntryNotFoundError,
    GatedRepoError,
    HfHubHTTPError,
    OfflineModeIsEnabled,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)
from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status

from app.core.hub.mirror import KNOWN_MIRROR, chosen_mirror, hub_endpoint
from app.core.models.library import SPLIT_PATTERN
from app.core.models.quant import parse_quant, quality_note, quality_rank

log = logging.getLogger(__name__)

METADATA_TIMEOUT_S = 20.0
_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.\-]{0,95}/[A-Za-z0-9][\w.\-]{0,95}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_SEARCH_FIELDS = ["downloads", "likes", "lastModified", "gated", "private"]


class HubErrorKind(Enum):
    OFFLINE = "offline"
    NOT_FOUND = "not found"
    GATED = "gated"
    UNAUTHORIZED = "token refused"
    FORBIDDEN = "forbidden"
    RATE_LIMITED = "rate limited"
    SERVER = "server error"
    BAD_INPUT = "bad input"
    PROTOCOL = "unexpected answer"


# Failures a token (or a different one) can fix: the window opens its token section for them.
TOKEN_KINDS = frozenset({HubErrorKind.GATED, HubErrorKind.UNAUTHORIZED, HubErrorKind.FORBIDDEN})


class HubError(Exception):
    """A Hub request that failed; `message` is for the user, `kind` for code that decides what next."""

    def __init__(self, kind: HubErrorKind, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status

    @property
    def retryable(self) -> bool:
        return self.kind in (HubErrorKind.OFFLINE, HubErrorKind.SERVER, HubErrorKind.RATE_LIMITED)


@dataclass(frozen=True)
class RepoSummary:
    repo_id: str
    downloads: int
    likes: int
    last_modified: datetime | None
    gated: bool
    private: bool


@dataclass(frozen=True)
class RepoFile:
    filename: str
    size: int | None
    sha256: str | None  # the LFS SHA-256 the Hub stores for the file


@dataclass(frozen=True)
class Variant:
    """One choice in a repository: a single GGUF file, or every shard of a split model."""

    key: str  # the file name, or the split model's base name
    quant: str | None
    files: tuple[RepoFile, ...]

    @property
    def size(self) -> int:
        return sum(file.size or 0 for file in self.files)

    @property
    def is_split(self) -> bool:
        return len(self.files) > 1

    @property
    def note(self) -> str:
        return quality_note(self.quant)


@dataclass(frozen=True)
class RepoListing:
    repo_id: str
    commit: str | None  # the revision the listing was taken at; downloads pin to it
    gated: bool
    private: bool
    variants: tuple[Variant, ...]
    projectors: tuple[RepoFile, ...] = field(default=())  # mmproj files for vision models

    def variant(self, key: str) -> Variant:
        for variant in self.variants:
            if variant.key == key:
                return variant
        raise KeyError(key)


@dataclass(frozen=True)
class FileMetadata:
    url: str  # pinned to the commit when the Hub names one
    commit: str | None
    size: int | None
    etag: str | None
    sha256: str | None  # from the linked ETag when it is an LFS SHA-256


def normalize_repo_id(text: str) -> str:
    """`owner/name`, also accepted as a Hub web address; raises HubError(BAD_INPUT) otherwise."""
    value = text.strip()
    if "://" in value:
        parts = [part for part in urlparse(value).path.split("/") if part]
        if parts[:1] == ["models"]:
            parts = parts[1:]
        value = "/".join(parts[:2])
    if not _REPO_ID.match(value) or ".." in value:
        raise HubError(
            HubErrorKind.BAD_INPUT,
            fill(
                N_(
                    "{text} is not a repository name: use the form owner/name, for example "
                    "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF."
                ),
                text=f"{text!r}",
            ),
        )
    return value


class HubClient:
    """A Hub connection with one endpoint and an optional token (from the keyring)."""

    def __init__(self, endpoint: str | None = None, token: str | None = None) -> None:
        self.endpoint = (endpoint or hub_endpoint()).rstrip("/")
        self.token = token or None
        # token=False: never fall back to a token file huggingface_hub may find on disk.
        self.api = HfApi(endpoint=self.endpoint, token=self.token or False)

    @property
    def host(self) -> str:
        return urlparse(self.endpoint).netloc or self.endpoint

    def search(self, text: str, limit: int = 40) -> list[RepoSummary]:
        """GGUF repositories whose name contains `text`, most downloaded first.

        The same request as `HfApi.list_models(filter="gguf", search=text, sort="downloads",
        limit=limit, expand=...)`, on huggingface_hub's session with its headers, error
        mapping and `ModelInfo` parsing, but sent once: list_models' pagination helper retries
        a refused connection for about 23 seconds, which would leave an offline user staring
        at "Searching…" for half a minute.
        """
        params: dict[str, str | int | list[str]] = {
            "filter": "gguf",
            "sort": "downloads",
            "limit": limit,
            "expand": _SEARCH_FIELDS,
        }
        if text.strip():
            params["search"] = text.strip()
        try:
            response = get_session().get(
                f"{self.endpoint}/api/models",
                params=params,
                headers=build_hf_headers(token=self.token or False),
                timeout=METADATA_TIMEOUT_S,
            )
            hf_raise_for_status(response)
            models = [ModelInfo(**item) for item in response.json()[:limit]]
        except Exception as error:  # every failure becomes a message, see translate_error
            raise self.translate_error(error, what=N_("search Hugging Face")) from error
        return [
            RepoSummary(
                repo_id=model.id,
                downloads=model.downloads or 0,
                likes=model.likes or 0,
                last_modified=model.last_modified,
                gated=bool(model.gated),
                private=bool(model.private),
            )
            for model in models
        ]

    def listing(self, repo_id: str, revision: str | None = None) -> RepoListing:
        """The repository's GGUF files grouped into variants, with sizes and LFS SHA-256."""
        repo_id = normalize_repo_id(repo_id)
        try:
            info = self.api.model_info(repo_id, revision=revision, files_metadata=True, timeout=METADATA_TIMEOUT_S)
        except Exception as error:
            raise self.translate_error(error, repo_id=repo_id, what=fill(N_("open {repo}"), repo=repo_id)) from error
        files = [
            RepoFile(
                filename=sibling.rfilename,
                size=(sibling.lfs.size if sibling.lfs else sibling.size),
                sha256=(sibling.lfs.sha256.lower() if sibling.lfs and sibling.lfs.sha256 else None),
            )
            for sibling in info.siblings or []
            if sibling.rfilename.lower().endswith(".gguf")
        ]
        projectors = tuple(f for f in files if _is_projector(f.filename))
        variants = group_variants([f for f in files if not _is_projector(f.filename)])
        return RepoListing(
            repo_id=repo_id,
            commit=info.sha,
            gated=bool(info.gated),
            private=bool(info.private),
            variants=tuple(variants),
            projectors=projectors,
        )

    def file_url(self, repo_id: str, filename: str, revision: str | None = None) -> str:
        return hf_hub_url(repo_id, filename, revision=revision or "main", endpoint=self.endpoint)

    def file_metadata(self, repo_id: str, filename: str, revision: str | None = None) -> FileMetadata:
        """HEAD the file: commit, size and ETag; the URL is pinned to that commit."""
        url = self.file_url(repo_id, filename, revision)
        try:
            meta = get_hf_file_metadata(
                url, token=self.token or False, timeout=METADATA_TIMEOUT_S, endpoint=self.endpoint
            )
        except Exception as error:
            raise self.translate_error(
                error, repo_id=repo_id, filename=filename, what=fill(N_("reach {file}"), file=filename)
            ) from error
        pinned = self.file_url(repo_id, filename, meta.commit_hash) if meta.commit_hash else url
        etag = (meta.etag or "").lower() or None
        return FileMetadata(
            url=pinned,
            commit=meta.commit_hash,
            size=meta.size,
            etag=etag,
            sha256=etag if etag and _SHA256.match(etag) else None,
        )

    def translate_error(
        self,
        error: BaseException,
        repo_id: str | None = None,
        filename: str | None = None,
        what: str = N_("reach the Hub"),
    ) -> HubError:
        """Any failure of a Hub request as a HubError with a message for the user (and a log line)."""
        hub_error = self._translate(error, repo_id, filename, what)
        # The technical detail ("[Errno -2] Name or service not known") is for the log, not the message.
        log.warning(
            "Hub request failed (%s): %s [%s: %s]",
            hub_error.kind.value,
            hub_error.message,
            type(error).__name__,
            _short(error),
        )
        return hub_error

    def _endpoint_note(self) -> str:
        """Where the address came from when the user chose it (then it may be the thing to check); else, as the
        Hub could not be reached, that a mirror can stand in for it."""
        if chosen_mirror():
            return fill(
                N_(" Glassbox is using the Hub mirror {endpoint} set in the Models window."), endpoint=self.endpoint
            )
        if os.environ.get("HF_ENDPOINT"):
            return fill(N_(" Glassbox is using {endpoint}, set by HF_ENDPOINT."), endpoint=self.endpoint)
        return fill(
            N_(
                " Where {host} is blocked, set a Hub mirror (for example {mirror}) under Hub mirror in the "
                "Models window."
            ),
            host=self.host,
            mirror=KNOWN_MIRROR,
        )

    def _translate(self, error: BaseException, repo_id: str | None, filename: str | None, what: str) -> HubError:
        repo = repo_id or N_("the repository")
        page = f"{self.endpoint}/{repo_id}" if repo_id else self.endpoint
        if isinstance(error, HubError):
            return error
        if isinstance(error, GatedRepoError):
            if self.token:
                text = fill(
                    N_(
                        "{repo} is gated and your token has no access to it yet. Open {page}, sign in with the "
                        "account the token belongs to and accept the licence; some repositories approve requests "
                        "by hand."
                    ),
                    repo=repo,
                    page=page,
                )
            else:
                text = fill(
                    N_(
                        "{repo} is gated: open {page}, sign in and accept its licence, then add a Hugging Face "
                        "access token in Glassbox (a read token is enough; create one at {endpoint}/settings/tokens)."
                    ),
                    repo=repo,
                    page=page,
                    endpoint=self.endpoint,
                )
            return HubError(HubErrorKind.GATED, text, _status(error))
        if isinstance(error, RepositoryNotFoundError):
            if self.token:
                missing = fill(N_("{repo} was not found on {host}. Check the name."), repo=repo, host=self.host)
            else:
                missing = fill(
                    N_(
                        "{repo} was not found on {host}. Check the name. If it is private, add a Hugging Face "
                        "token that can read it."
                    ),
                    repo=repo,
                    host=self.host,
                )
            return HubError(HubErrorKind.NOT_FOUND, missing, 404)
        if isinstance(error, RevisionNotFoundError):
            return HubError(HubErrorKind.NOT_FOUND, fill(N_("That revision of {repo} does not exist."), repo=repo), 404)
        if isinstance(error, EntryNotFoundError):
            return HubError(
                HubErrorKind.NOT_FOUND,
                fill(
                    N_("{file} is not in {repo} (any more). Refresh the file list and choose again."),
                    file=filename or N_("The file"),
                    repo=repo,
                ),
                404,
            )
        if isinstance(error, OfflineModeIsEnabled):
            return HubError(HubErrorKind.OFFLINE, N_("Offline mode is on (HF_HUB_OFFLINE): unset it to use the Hub."))
        if isinstance(error, HfHubHTTPError):
            return _http_status_error(_status(error) or 0, self.endpoint, bool(self.token), what)
        if isinstance(error, httpx2.TimeoutException):
            return HubError(
                HubErrorKind.OFFLINE,
                fill(
                    N_(
                        "{host} did not answer in time while trying to {what}. "
                        "Check your internet connection and try again.{note}"
                    ),
                    host=self.host,
                    what=what,
                    note=self._endpoint_note(),
                ),
            )
        if isinstance(error, (httpx2.TransportError, ConnectionError, OSError)):
            return HubError(
                HubErrorKind.OFFLINE,
                fill(
                    N_(
                        "Cannot {what}: {host} is unreachable. Check your internet connection (and proxy, if you "
                        "use one), then try again.{note}"
                    ),
                    what=what,
                    host=self.host,
                    note=self._endpoint_note(),
                ),
            )
        if isinstance(error, (ValueError, KeyError, TypeError)):
            return HubError(
                HubErrorKind.PROTOCOL,
                fill(
                    N_("Cannot {what}: {host} sent an answer Glassbox does not understand. Try again later."),
                    what=what,
                    host=self.host,
                ),
            )
        return HubError(
            HubErrorKind.PROTOCOL,
            fill(N_("Cannot {what}: something unexpected went wrong. Try again in a moment."), what=what),
        )


def _http_status_error(status: int, endpoint: str, has_token: bool, what: str) -> HubError:
    if status == 401:
        if has_token:
            return HubError(
                HubErrorKind.UNAUTHORIZED,
                fill(
                    N_(
                        "The Hugging Face token was refused (401): it may be expired or revoked. Create a new one at "
                        "{endpoint}/settings/tokens and save it in Glassbox."
                    ),
                    endpoint=endpoint,
                ),
                status,
            )
        return HubError(
            HubErrorKind.UNAUTHORIZED,
            fill(N_("Cannot {what}: the Hub asks for a token (401). Add one in Glassbox."), what=what),
            status,
        )
    if status == 403:
        return HubError(
            HubErrorKind.FORBIDDEN,
            fill(
                N_("Cannot {what}: access denied (403). Your token may lack read permission for this repository."),
                what=what,
            ),
            status,
        )
    if status == 404:
        return HubError(HubErrorKind.NOT_FOUND, fill(N_("Cannot {what}: not found (404)."), what=what), status)
    if status == 429:
        return HubError(
            HubErrorKind.RATE_LIMITED,
            N_("Hugging Face is limiting requests (429). Wait a minute and try again."),
            status,
        )
    if status >= 500:
        return HubError(
            HubErrorKind.SERVER,
            fill(
                N_(
                    "Hugging Face answered with a server error ({status}) while trying to {what}. "
                    "This is usually temporary: try again in a few minutes."
                ),
                status=status,
                what=what,
            ),
            status,
        )
    return HubError(
        HubErrorKind.PROTOCOL,
        fill(N_("Cannot {what}: the Hub answered with status {status}."), what=what, status=status),
        status,
    )


def status_error(status: int, endpoint: str, has_token: bool, what: str) -> HubError:
    """A HubError for a bare HTTP status (used by downloads for responses they read themselves)."""
    return _http_status_error(status, endpoint, has_token, what)


def group_variants(files: list[RepoFile]) -> list[Variant]:
    """Single files become one variant each; the shards of a split model become one variant.

    Ordered best quality first, then by size.
    """
    singles: list[Variant] = []
    splits: dict[str, list[RepoFile]] = {}
    for file in files:
        match = SPLIT_PATTERN.match(file.filename)
        if match:
            splits.setdefault(match["base"], []).append(file)
        else:
            singles.append(Variant(file.filename, parse_quant(file.filename), (file,)))
    for base, shards in splits.items():
        shards.sort(key=lambda f: f.filename)
        singles.append(Variant(base, parse_quant(base + ".gguf"), tuple(shards)))
    return sorted(singles, key=lambda v: (-quality_rank(v.quant), v.size, v.key))


def incomplete_split(variant: Variant) -> str | None:
    """Why a split variant cannot be used (parts missing from the repository), or None."""
    if not variant.is_split:
        return None
    match = SPLIT_PATTERN.match(variant.files[0].filename)
    expected = int(match["count"]) if match else len(variant.files)
    if len(variant.files) != expected:
        return f"only {len(variant.files)} of {expected} parts are in the repository"
    return None


def _is_projector(filename: str) -> bool:
    return "mmproj" in filename.rsplit("/", 1)[-1].lower()


def _status(error: BaseException) -> int | None:
    response = getattr(error, "response", None)
    return getattr(response, "status_code", None)


def _short(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:200]
