"""The checks every request passes before an endpoint sees it (an ASGI middleware).

In order:
1. Host. On a loopback bind, a Host header that is not a loopback name is refused (403): a
   web page whose domain an attacker pointed at 127.0.0.1 (DNS rebinding) sends its own
   domain there, and must not reach a server the browser thinks belongs to that page.
2. Origin. Browsers name the page that makes a request in its Origin header; one not in
   the configured CORS origins is refused (403), so a web page cannot use the model, not
   even with a "simple" request that skips the preflight. Listed origins get their
   preflight answered and Access-Control-Allow-Origin on every response.
3. API key, when one is set: "Authorization: Bearer <key>", compared in constant time
   (hmac.compare_digest) and never logged. /health answers without it.
Every refusal goes to the request log too.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.server.config import ServerConfig, is_loopback
from app.core.server.errors import AUTHENTICATION, PERMISSION, ApiError

OPEN_PATHS = ("/health",)
ALLOWED_METHODS = "GET, POST, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type"
PREFLIGHT_MAX_AGE_S = "600"

Refused = Callable[[Scope, ApiError], None]


class Guard:
    def __init__(self, app: ASGIApp, config: ServerConfig, refused: Refused) -> None:
        self._app = app
        self._check_host = config.loopback
        self._origins = frozenset(origin.lower() for origin in config.cors_origins)
        self._key = config.api_key.encode("utf-8") if config.api_key else None
        self._refused = refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        try:
            self._check(scope, headers, origin)
        except ApiError as error:
            self._refused(scope, error)
            await _send_error(send, error)
            return
        if origin is None:
            await self._app(scope, receive, send)
            return
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await _send_preflight(send, origin)
            return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_cors_headers(origin)]
            await send(message)

        await self._app(scope, receive, send_with_cors)

    def _check(self, scope: Scope, headers: Headers, origin: str | None) -> None:
        if self._check_host:
            host = _host_name(headers.get("host", ""))
            if not is_loopback(host):
                raise ApiError(
                    403,
                    f"This server answers only to local addresses (localhost, 127.0.0.1), not to “{host}”; "
                    "requests naming another host are refused to protect against DNS rebinding.",
                    kind=PERMISSION,
                    code="host_not_allowed",
                )
        if origin is not None and origin.lower() not in self._origins:
            raise ApiError(
                403,
                f"Requests from web pages at {origin} are not allowed; add that origin to the server's CORS origins.",
                kind=PERMISSION,
                code="origin_not_allowed",
            )
        preflight = scope["method"] == "OPTIONS" and "access-control-request-method" in headers
        if self._key is not None and not preflight and scope["path"] not in OPEN_PATHS:
            scheme, _, given = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode("utf-8"), self._key):
                raise ApiError(
                    401,
                    "This server needs an API key: send it as “Authorization: Bearer <key>”.",
                    kind=AUTHENTICATION,
                    code="invalid_api_key",
                    headers={"WWW-Authenticate": "Bearer"},
                )


def _host_name(host: str) -> str:
    """The name in a Host header, without the port ("[::1]:8010" is "::1")."""
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _cors_headers(origin: str) -> list[tuple[bytes, bytes]]:
    return [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin")]


async def _send_preflight(send: Send, origin: str) -> None:
    headers = [
        *_cors_headers(origin),
        (b"access-control-allow-methods", ALLOWED_METHODS.encode()),
        (b"access-control-allow-headers", ALLOWED_HEADERS.encode()),
        (b"access-control-max-age", PREFLIGHT_MAX_AGE_S.encode()),
        (b"content-length", b"0"),
    ]
    await send({"type": "http.response.start", "status": 204, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _send_error(send: Send, error: ApiError) -> None:
    body = json.dumps(error.body()).encode("utf-8")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.lower().encode(), value.encode()) for name, value in error.headers.items()),
    ]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
