"""What the API server listens on and what it accepts, checked before anything binds.

Safe by default: it binds 127.0.0.1 (this machine only). Any other address makes the
models reachable from the network, so it needs an API key; without one the server refuses
to start and says why. Cross-origin requests (web pages in a browser) are refused unless
their origins are listed. The limits keep one client from taking the model or the memory
hostage: a bounded queue of waiting requests, a body size and a max_tokens ceiling.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from app.core.inference.sampling import SAMPLING_FIELDS, FieldSpec, InvalidSetting
from app.core.support.formatting import fill
from app.core.support.user_text import N_

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8010
DEFAULT_QUEUE_LIMIT = 8
MAX_QUEUE_LIMIT = 1000
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024  # a long conversation is well under 1 MiB of text
MIN_MAX_BODY_BYTES = 1024
MAX_TOKENS_CEILING = int(SAMPLING_FIELDS["max_tokens"].maximum)
MIN_API_KEY_LENGTH = 12
DEFAULT_LOG_SIZE = 500
LOOPBACK_NAMES = ("localhost",)

PORT_FIELD = FieldSpec("port", "Port", "int", 0, 65535, "The TCP port the server listens on (0: any free one).")
QUEUE_LIMIT_FIELD = FieldSpec(
    "queue_limit",
    "Waiting requests",
    "int",
    0,
    MAX_QUEUE_LIMIT,
    "How many requests may wait while the model writes another reply; one more is told to come back later (503).",
)


class ServerConfigError(ValueError):
    """A setting the server cannot start with; `field` names it, the message says what to do."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def is_loopback(host: str) -> bool:
    """True for addresses only this machine reaches (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any interface


@dataclass(frozen=True)
class ServerConfig:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT  # 0: any free port (the server says which once it listens)
    api_key: str | None = None  # clients send it as "Authorization: Bearer <key>"
    cors_origins: tuple[str, ...] = ()  # web pages allowed to call the server, e.g. "http://localhost:3000"
    queue_limit: int = DEFAULT_QUEUE_LIMIT  # requests that may wait behind the one generating
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_tokens_limit: int = MAX_TOKENS_CEILING  # the most tokens one reply may ask for
    log_text: bool = False  # keep prompts and replies in the request log (metadata only otherwise)
    log_size: int = DEFAULT_LOG_SIZE  # requests the log keeps, newest last
    embedding_model: Path | None = None  # the GGUF /v1/embeddings runs; None: the served model's own file
    fetch_image_urls: bool = False  # image_url parts may name http(s) addresses, which the server then fetches

    def __repr__(self) -> str:  # the key never reaches a log through a repr
        key = "set" if self.api_key else "none"
        return f"ServerConfig(host={self.host!r}, port={self.port}, api_key={key}, cors_origins={self.cors_origins!r})"

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def check(self) -> ServerConfig:
        """This config, or ServerConfigError naming the first setting that cannot be used."""
        if not self.host.strip():
            raise ServerConfigError(
                "host", fill(N_("The address to listen on is empty; use 127.0.0.1 for this machine only."))
            )
        for spec, value in ((PORT_FIELD, self.port), (QUEUE_LIMIT_FIELD, self.queue_limit)):
            try:
                spec.check(value)
            except InvalidSetting as error:
                raise ServerConfigError(spec.name, error.message) from None
        self._check_key()
        for origin in self.cors_origins:
            _check_origin(origin)
        if self.max_body_bytes < MIN_MAX_BODY_BYTES:
            raise ServerConfigError(
                "max_body_bytes", fill(N_("The body limit must be at least {bytes} bytes."), bytes=MIN_MAX_BODY_BYTES)
            )
        if not 1 <= self.max_tokens_limit <= MAX_TOKENS_CEILING:
            raise ServerConfigError(
                "max_tokens_limit",
                fill(N_("The max_tokens limit must be between 1 and {ceiling}."), ceiling=MAX_TOKENS_CEILING),
            )
        if self.log_size < 1:
            raise ServerConfigError("log_size", fill(N_("The request log must keep at least one request.")))
        if self.embedding_model is not None and not self.embedding_model.is_file():
            raise ServerConfigError(
                "embedding_model", fill(N_("The embedding model {path} is not a file."), path=self.embedding_model)
            )
        return self

    def _check_key(self) -> None:
        if self.api_key is None:
            if not self.loopback:
                raise ServerConfigError(
                    "api_key",
                    fill(
                        N_(
                            "Listening on {host} lets other machines use the model, so it needs an API key. "
                            "Set one, or listen on 127.0.0.1 to serve this machine only."
                        ),
                        host=self.host,
                    ),
                )
            return
        if len(self.api_key) < MIN_API_KEY_LENGTH or any(c.isspace() for c in self.api_key):
            raise ServerConfigError(
                "api_key",
                fill(
                    N_("The API key must be at least {length} characters, with no spaces."), length=MIN_API_KEY_LENGTH
                ),
            )


def _check_origin(origin: str) -> None:
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise ServerConfigError(
            "cors_origins",
            fill(
                N_(
                    "“{origin}” is not a web page's origin; write it as scheme://host[:port], e.g. http://localhost:3000."
                ),
                origin=origin,
            ),
        )
