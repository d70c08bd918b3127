"""A loopback HTTP server that speaks enough of the Hugging Face Hub protocol for the real client.

Endpoints (as huggingface_hub 2.x calls them):
- `GET /api/models?search=&filter=gguf&sort=downloads&limit=&expand=` search
- `GET /api/models/{owner}/{name}[/revision/{rev}]?blobs=true` repository info, siblings with `lfs.sha256`
- `HEAD`/`GET /{owner}/{name}/resolve/{rev}/{path}` file bytes with `X-Repo-Commit`, `ETag`,
  `X-Linked-Etag`, `X-Linked-Size`, `Accept-Ranges`; `Range` -> 206 with `Content-Range`
- errors carry `X-Error-Code` (`GatedRepo`, `RepoNotFound`, `EntryNotFound`, `RevisionNotFound`)

Faults a test can arm per file: drop the connection at a byte offset, ignore Range, answer
with given statuses first, flip one byte, hold the body at an offset until released; and
for the API, `api_statuses` answers the next API requests with given statuses.
Every body byte sent is counted per file, so tests can assert what was transferred.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import numpy as np
import pytest

_SEND_CHUNK = 64 * 1024


@dataclass
class Hold:
    """Stops the body at `offset` until `release()`; `reached` is set when the server gets there."""

    offset: int
    reached: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        self.released.set()


@dataclass
class Faults:
    drop_at: int | None = None  # close the connection once the body reaches this offset (fires once)
    ignore_range: bool = False  # answer 200 with the whole file even when asked for a range
    statuses: list[int] = field(default_factory=list)  # answer these statuses first, one per GET
    flip_byte_at: int | None = None  # serve this byte with its bits inverted (every time)
    hold: Hold | None = None  # pause the body at an offset until the test releases it (fires once)


@dataclass
class FakeFile:
    data: bytes | None = None
    path: Path | None = None  # a large file served from disk (the starter model)
    lfs: bool = True
    faults: Faults = field(default_factory=Faults)
    served: int = 0  # body bytes sent, all requests together
    _sha256: str | None = None

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else self.path.stat().st_size  # type: ignore[union-attr]

    @property
    def sha256(self) -> str:
        if self._sha256 is None:
            self._sha256 = _sha256_of(self)
        return self._sha256

    @property
    def git_oid(self) -> str:
        return hashlib.sha1(self.sha256.encode()).hexdigest()

    def read(self, start: int, end: int) -> bytes:
        if self.data is not None:
            return self.data[start:end]
        with self.path.open("rb") as handle:  # type: ignore[union-attr]
            handle.seek(start)
            return handle.read(end - start)


_DISK_HASHES: dict[tuple[str, int, int], str] = {}


def _sha256_of(file: FakeFile) -> str:
    if file.data is not None:
        return hashlib.sha256(file.data).hexdigest()
    assert file.path is not None
    stat = file.path.stat()
    key = (str(file.path), stat.st_size, stat.st_mtime_ns)
    if key not in _DISK_HASHES:  # the starter model is hashed once per test session
        with file.path.open("rb") as handle:
            _DISK_HASHES[key] = hashlib.file_digest(handle, "sha256").hexdigest()
    return _DISK_HASHES[key]


@dataclass
class FakeRepo:
    repo_id: str
    files: dict[str, FakeFile]
    gated: bool = False
    private: bool = False
    downloads: int = 0
    likes: int = 0
    commit: str = ""
    last_modified: str = "2025-01-15T10:00:00.000Z"

    def __post_init__(self) -> None:
        if not self.commit:
            self.commit = hashlib.sha1(self.repo_id.encode()).hexdigest()


@dataclass(frozen=True)
class LoggedRequest:
    method: str
    path: str
    range: str | None
    authorization: str | None


class FakeHub:
    """Start with `with FakeHub() as hub:` or the `fake_hub` fixture; `hub.url` is the endpoint."""

    def __init__(self) -> None:
        self.repos: dict[str, FakeRepo] = {}
        self.tokens: dict[str, set[str]] = {}  # valid token -> gated/private repos it may read
        self.requests: list[LoggedRequest] = []
        self.api_statuses: list[int] = []  # answer the next /api/ requests with these statuses
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- setup ----------------------------------------------------------------------------

    def add_repo(
        self,
        repo_id: str,
        files: dict[str, bytes | Path],
        *,
        gated: bool = False,
        private: bool = False,
        downloads: int = 0,
        likes: int = 0,
    ) -> FakeRepo:
        repo = FakeRepo(
            repo_id,
            {
                name: FakeFile(path=content) if isinstance(content, Path) else FakeFile(data=content)
                for name, content in files.items()
            },
            gated=gated,
            private=private,
            downloads=downloads,
            likes=likes,
        )
        self.repos[repo_id] = repo
        return repo

    def add_token(self, token: str, *repo_ids: str) -> None:
        self.tokens.setdefault(token, set()).update(repo_ids)

    def file(self, repo_id: str, filename: str) -> FakeFile:
        return self.repos[repo_id].files[filename]

    def faults(self, repo_id: str, filename: str) -> Faults:
        return self.file(repo_id, filename).faults

    def served(self, repo_id: str, filename: str) -> int:
        return self.file(repo_id, filename).served

    def hold(self, repo_id: str, filename: str, offset: int) -> Hold:
        hold = Hold(offset)
        self.faults(repo_id, filename).hold = hold
        return hold

    def file_requests(self, filename: str, method: str = "GET") -> list[LoggedRequest]:
        with self._lock:
            return [
                r for r in self.requests if r.method == method and "/resolve/" in r.path and r.path.endswith(filename)
            ]

    # ---- lifecycle ------------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._server is not None, "the fake hub is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeHub:
        handler = type("Handler", (_Handler,), {"hub": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-hub", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        for repo in self.repos.values():
            for file in repo.files.values():
                if file.faults.hold is not None:
                    file.faults.hold.release()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def __enter__(self) -> FakeHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- access rules ----------------------------------------------------------------------

    def _token_from(self, authorization: str | None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip()
        return None

    def _may_read(self, repo: FakeRepo, token: str | None) -> bool:
        return token is not None and repo.repo_id in self.tokens.get(token, set())


class _Handler(BaseHTTPRequestHandler):
    hub: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        return

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def _dispatch(self, method: str) -> None:
        parsed = urlparse(self.path)
        path = unquote(parsed.path)
        query = parse_qs(parsed.query)
        authorization = self.headers.get("authorization")
        with self.hub._lock:
            self.hub.requests.append(LoggedRequest(method, path, self.headers.get("Range"), authorization))
        token = self.hub._token_from(authorization)
        if token is not None and token not in self.hub.tokens:
            self._error(401, None, "Invalid credentials in Authorization header")
            return
        if path.startswith("/api/") and self.hub.api_statuses:
            status = self.hub.api_statuses.pop(0)
            self._error(status, None, f"Injected status {status}")
            return
        if path == "/api/models":
            self._search(query, token)
            return
        match = re.match(r"^/api/models/([^/]+/[^/]+?)(?:/revision/([^/]+))?/?$", path)
        if match:
            self._model_info(match[1], match[2], query, token)
            return
        match = re.match(r"^/([^/]+/[^/]+)/resolve/([^/]+)/(.+)$", path)
        if match:
            self._resolve(method, match[1], match[2], match[3], token)
            return
        self._error(404, None, "Not found")

    # ---- API -------------------------------------------------------------------------------

    def _search(self, query: dict[str, list[str]], token: str | None) -> None:
        text = (query.get("search") or [""])[0].lower()
        filters = query.get("filter", [])
        limit = int((query.get("limit") or ["1000"])[0])
        found = []
        for repo in self.hub.repos.values():
            if repo.private and not self.hub._may_read(repo, token):
                continue
            if text and text not in repo.repo_id.lower():
                continue
            if "gguf" in filters and not any(name.endswith(".gguf") for name in repo.files):
                continue
            found.append(repo)
        found.sort(key=lambda r: -r.downloads)
        self._json([self._summary(repo) for repo in found[:limit]])

    def _summary(self, repo: FakeRepo) -> dict[str, object]:
        return {
            "_id": repo.commit[:24],
            "id": repo.repo_id,
            "modelId": repo.repo_id,
            "author": repo.repo_id.split("/")[0],
            "downloads": repo.downloads,
            "likes": repo.likes,
            "lastModified": repo.last_modified,
            "gated": "manual" if repo.gated else False,
            "private": repo.private,
            "tags": ["gguf"],
        }

    def _model_info(self, repo_id: str, revision: str | None, query: dict[str, list[str]], token: str | None) -> None:
        repo = self.hub.repos.get(repo_id)
        if repo is None or (repo.private and not self.hub._may_read(repo, token)):
            self._error(401 if token is None else 404, "RepoNotFound", "Repository not found")
            return
        if revision not in (None, "main", repo.commit):
            self._error(404, "RevisionNotFound", "Invalid rev id")
            return
        blobs = (query.get("blobs") or ["false"])[0].lower() == "true"
        siblings = []
        for name, file in repo.files.items():
            sibling: dict[str, object] = {"rfilename": name}
            if blobs:
                sibling["size"] = file.size
                sibling["blobId"] = file.git_oid
                if file.lfs:
                    sibling["lfs"] = {"size": file.size, "sha256": file.sha256, "pointerSize": 134}
            siblings.append(sibling)
        details = {"sha": repo.commit, "siblings": siblings, "createdAt": "2024-11-01T00:00:00.000Z"}
        payload = self._summary(repo) | details
        self._json(payload)

    # ---- files -----------------------------------------------------------------------------

    def _resolve(self, method: str, repo_id: str, revision: str, filename: str, token: str | None) -> None:
        repo = self.hub.repos.get(repo_id)
        if repo is None or (repo.private and not self.hub._may_read(repo, token)):
            self._error(404, "RepoNotFound", "Repository not found")
            return
        if revision not in ("main", repo.commit):
            self._error(404, "RevisionNotFound", "Invalid rev id")
            return
        if repo.gated and not self.hub._may_read(repo, token):
            message = (
                f"Access to model {repo_id} is restricted. "
                "You must have access to it and be authenticated to access it. Please log in."
            )
            self._error(401 if token is None else 403, "GatedRepo", message)
            return
        file = repo.files.get(filename)
        if file is None:
            self._error(404, "EntryNotFound", f'{filename} does not exist on "{revision}"')
            return
        faults = file.faults
        if method == "GET" and faults.statuses:
            status = faults.statuses.pop(0)
            self._error(status, None, f"Injected status {status}")
            return
        size = file.size
        start, end = 0, size
        status = 200
        range_header = self.headers.get("Range")
        if range_header and not faults.ignore_range:
            match = re.match(r"^bytes=(\d+)-(\d*)$", range_header.strip())
            if match:
                start = int(match[1])
                end = min(size, int(match[2]) + 1) if match[2] else size
                if start >= size:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = 206
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("X-Repo-Commit", repo.commit)
        etag = file.sha256 if file.lfs else file.git_oid
        self.send_header("ETag", f'"{etag}"')
        if file.lfs:
            self.send_header("X-Linked-Etag", f'"{file.sha256}"')
            self.send_header("X-Linked-Size", str(size))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
        self.end_headers()
        if method == "HEAD":
            return
        self._send_body(file, start, end)

    def _send_body(self, file: FakeFile, start: int, end: int) -> None:
        faults = file.faults
        position = start
        try:
            while position < end:
                stop = min(end, position + _SEND_CHUNK)
                if faults.drop_at is not None and position < faults.drop_at < stop:
                    stop = faults.drop_at
                hold = faults.hold
                if hold is not None and position < hold.offset < stop:
                    stop = hold.offset
                chunk = bytearray(file.read(position, stop))
                if faults.flip_byte_at is not None and position <= faults.flip_byte_at < stop:
                    chunk[faults.flip_byte_at - position] ^= 0xFF
                self.wfile.write(chunk)
                with self.hub._lock:
                    file.served += len(chunk)
                position = stop
                if faults.drop_at is not None and position == faults.drop_at:
                    faults.drop_at = None
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                if hold is not None and position == hold.offset:
                    faults.hold = None
                    self.wfile.flush()
                    hold.reached.set()
                    hold.released.wait(30)
        except (BrokenPipeError, ConnectionResetError, OSError):
            self.close_connection = True

    # ---- plumbing --------------------------------------------------------------------------

    def _json(self, payload: object) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _error(self, status: int, code: str | None, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if code:
            self.send_header("X-Error-Code", code)
        self.send_header("X-Error-Message", message)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


# ---- synthetic GGUF files -----------------------------------------------------------------------


def make_gguf(
    path: Path, *, tensor_bytes: int = 256 * 1024, name: str = "Tiny Test", seed: int = 0, context_length: int = 2048
) -> Path:
    """A small valid GGUF (llama architecture metadata, one random F32 tensor) written with `gguf`."""
    import gguf

    writer = gguf.GGUFWriter(path, "llama")
    writer.add_name(name)
    writer.add_context_length(context_length)
    writer.add_block_count(1)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    rng = np.random.default_rng(seed)
    writer.add_tensor("token_embd.weight", rng.random((tensor_bytes // 4 // 64, 64), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def gguf_bytes(tmp_path: Path, name: str = "tiny.gguf", **kwargs: object) -> bytes:
    return make_gguf(tmp_path / name, **kwargs).read_bytes()  # type: ignore[arg-type]


@pytest.fixture
def fake_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    """A running fake Hub; HF_ENDPOINT points at it and plain HTTP (no Xet) is forced."""
    hub = FakeHub().start()
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)
    try:
        yield hub
    finally:
        hub.stop()
