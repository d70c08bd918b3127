"""Saved servers: a name, an address, a timeout and a CA file in the settings; the API key in the keyring.

What "Test connection" found (the kind of server, whether it tokenizes, whether it takes
llama.cpp's sampling fields) is kept with the entry, so chatting needs no probe first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from app.core.backends.base import ModelInfo
from app.core.backends.probe import ProbeResult
from app.core.backends.remote import RemoteConfig, TokenizeRoute
from app.core.support.formatting import fill
from app.core.support.secrets import NoKeyring, SecretNotKept, SecretStore, SecretStoreError
from app.core.support.user_text import N_

MAX_NAME = 40
MIN_TIMEOUT_S = 1.0
MAX_TIMEOUT_S = 3600.0
DEFAULT_TIMEOUT_S = 60.0


class ServerError(Exception):
    """A server entry that cannot be saved or used; the message says why and what to do."""


@dataclass(frozen=True)
class SavedServer:
    name: str
    url: str
    timeout_s: float = DEFAULT_TIMEOUT_S
    ca_file: str = ""  # a certificate authority to trust besides the system's ("" for none)
    kind: str = ""  # what the last connection test found (ServerKind's value)
    tokenize: TokenizeRoute = TokenizeRoute.NONE
    llama_server_fields: bool = False

    @property
    def key_name(self) -> str:
        """The entry's name in the keyring."""
        return f"server:{self.name}"

    def config(self, api_key: str | None) -> RemoteConfig:
        return RemoteConfig(
            self.url,
            api_key=api_key,
            timeout_s=self.timeout_s,
            ca_file=Path(self.ca_file) if self.ca_file else None,
            llama_server_fields=self.llama_server_fields,
            tokenize=self.tokenize,
        )

    def with_probe(self, found: ProbeResult) -> SavedServer:
        """This entry with what a connection test found."""
        return replace(
            self, kind=found.kind.value, tokenize=found.tokenize, llama_server_fields=found.llama_server_fields
        )

    def with_probe_of(self, other: SavedServer) -> SavedServer:
        """This entry with what the last test of `other` (the same server, saved before) found."""
        return replace(self, kind=other.kind, tokenize=other.tokenize, llama_server_fields=other.llama_server_fields)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "url": self.url,
            "timeout_s": self.timeout_s,
            "ca_file": self.ca_file,
            "kind": self.kind,
            "tokenize": self.tokenize.value,
            "llama_server_fields": self.llama_server_fields,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SavedServer:
        """Raises ServerError for an entry of a wrong shape."""
        try:
            timeout_s = float(data.get("timeout_s", DEFAULT_TIMEOUT_S))
            checked = new_server(str(data["name"]), str(data["url"]), timeout_s, str(data.get("ca_file", "")))
            tokenize = TokenizeRoute(data.get("tokenize", TokenizeRoute.NONE.value))
        except (KeyError, TypeError, ValueError) as error:
            raise ServerError(fill(N_("a saved server entry is damaged ({error})"), error=error)) from error
        fields = bool(data.get("llama_server_fields", False))
        return SavedServer(
            checked.name, checked.url, checked.timeout_s, checked.ca_file, str(data.get("kind", "")), tokenize, fields
        )


@dataclass(frozen=True)
class ServerModel:
    """One model on one saved server: what the model picker offers and the LLM worker selects."""

    server: SavedServer
    model: ModelInfo

    @property
    def label(self) -> str:
        return f"{self.model.id} — {self.server.name}"


def new_server(name: str, url: str, timeout_s: float = DEFAULT_TIMEOUT_S, ca_file: str = "") -> SavedServer:
    """A checked entry: a name, an http(s) address with a host, a timeout within bounds."""
    name = " ".join(name.split())
    if not name:
        raise ServerError(N_("A server needs a name."))
    if len(name) > MAX_NAME:
        raise ServerError(fill(N_("A server name can be at most {limit} characters."), limit=MAX_NAME))
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServerError(
            fill(N_("“{url}” is not a server address: write it as http://host:port or https://host."), url=url)
        )
    if parts.username or parts.password:
        raise ServerError(N_("Put the API key in its own field, not in the address."))
    if not (MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S) or math.isnan(timeout_s):
        raise ServerError(
            fill(
                N_("The timeout must be between {minimum} and {maximum} seconds."),
                minimum=f"{MIN_TIMEOUT_S:.0f}",
                maximum=f"{MAX_TIMEOUT_S:.0f}",
            )
        )
    if ca_file and not Path(ca_file).is_file():
        raise ServerError(fill(N_("The CA file {ca_file} does not exist."), ca_file=ca_file))
    return SavedServer(name, url.rstrip("/"), float(timeout_s), ca_file)


class ServerKeys:
    """The servers' API keys, in the system keyring only."""

    def __init__(self, secrets: SecretStore | None = None) -> None:
        self._secrets = secrets or SecretStore()

    def get(self, server: SavedServer) -> str | None:
        return self._secrets.get(server.key_name)

    def set(self, server: SavedServer, api_key: str) -> None:
        api_key = api_key.strip()
        if not api_key or any(ch.isspace() for ch in api_key):
            raise ServerError(N_("An API key is one word without spaces; paste it again."))
        try:
            self._secrets.set(server.key_name, api_key)
        except NoKeyring as error:
            raise ServerError(
                N_(
                    "No system keyring is available to keep the API key safely (Glassbox never writes "
                    "keys to a file). Start a keyring service, or give the key through an environment "
                    "variable (glassbox chat --api-key-env NAME)."
                )
            ) from error
        except SecretNotKept as error:
            raise ServerError(
                fill(
                    N_(
                        "The API key was not saved: the system keyring ({backend}) took it but keeps nothing, "
                        "so it is not in the keyring nor anywhere else (Glassbox never writes keys to a file). "
                        "Install or start a keyring service and try again, or give the key through an "
                        "environment variable (glassbox chat --api-key-env NAME)."
                    ),
                    backend=error.backend,
                )
            ) from error
        except SecretStoreError as error:
            raise ServerError(
                fill(N_("The system keyring refused to store the key ({error}); unlock it and try again."), error=error)
            ) from error

    def delete(self, server: SavedServer) -> None:
        try:
            self._secrets.delete(server.key_name)
        except SecretStoreError as error:
            raise ServerError(
                fill(
                    N_("The system keyring refused to remove the key ({error}); unlock it and try again."), error=error
                )
            ) from error
