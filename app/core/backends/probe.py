""" "Test connection": what an OpenAI-compatible server is, which models it has, and what it can do.

`/v1/models` must answer (it is what makes a server usable). The rest is asked where it
exists and tells the kinds apart: llama-server answers `/health` and `/props` (with
`n_ctx`, and `/tokenize`); vLLM's model entries carry `max_model_len` and `owned_by:
"vllm"`; Ollama answers `/api/version` and `/api/show` (its context length is in
`model_info`); LM Studio's entries are `owned_by: "organization_owner"` and it has
`/api/v0/models` with `max_context_length`; another Glassbox says so in `/health`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import httpx2

from app.core.backends.base import ModelInfo
from app.core.backends.bounded_body import read_json
from app.core.backends.remote import RemoteBackend, RemoteConfig, TokenizeRoute
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 5.0


class ServerKind(str, Enum):
    LLAMA_SERVER = "llama-server"
    VLLM = "vLLM"
    OLLAMA = "Ollama"
    LM_STUDIO = "LM Studio"
    GLASSBOX = "Glassbox"
    LLAMA_CPP_PYTHON = "llama-cpp-python"
    OTHER = "other"


@dataclass(frozen=True)
class ProbeResult:
    kind: ServerKind
    models: tuple[ModelInfo, ...]
    version: str = ""
    tokenize: TokenizeRoute = TokenizeRoute.NONE  # how it counts tokens with the model's own tokenizer
    llama_server_fields: bool = False  # top_k, min_p and repeat_penalty are honoured

    def configured(self, config: RemoteConfig) -> RemoteConfig:
        """`config` with what this server was found to offer."""
        return replace(config, tokenize=self.tokenize, llama_server_fields=self.llama_server_fields)

    def describe(self) -> str:
        """One line for the user: the kind, its version, the models and their context lengths."""
        kind = self.kind.value + (f" {self.version}" if self.version else "")
        if not self.models:
            return fill(N_("{kind}, no models loaded"), kind=kind)
        listed = ", ".join(
            fill(
                N_("{id} ({context_length} tokens of context)"), id=model.id, context_length=f"{model.context_length:,}"
            )
            if model.context_length
            else model.id
            for model in self.models
        )
        return f"{kind}: {listed}"


def probe_server(config: RemoteConfig) -> ProbeResult:
    """Raises RemoteError (with the kind: unreachable, TLS, the key …) when /v1/models does not answer."""
    probe_config = replace(config, timeout_s=min(config.timeout_s, PROBE_TIMEOUT_S))
    backend = RemoteBackend(probe_config)
    try:
        models = backend.list_models()
        raw = backend.raw_models()
    finally:
        backend.close()
    client = _client(probe_config)
    try:
        return _identify(client, tuple(models), raw)
    finally:
        client.close()


def _client(config: RemoteConfig) -> httpx2.Client:
    headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    return httpx2.Client(base_url=config.root, headers=headers, verify=config.verify(), timeout=config.timeout_s)


def _get(client: httpx2.Client, path: str) -> Mapping[str, Any] | None:
    """The JSON object at `path`, or None when the server has no such endpoint (or says nothing usable)."""
    return _answer(client, "GET", path)


def _post(client: httpx2.Client, path: str, body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    return _answer(client, "POST", path, body)


def _answer(
    client: httpx2.Client, method: str, path: str, body: Mapping[str, Any] | None = None
) -> Mapping[str, Any] | None:
    """The JSON object a 200 answer holds; None for anything else (not JSON, too deep, too long)."""
    try:
        with client.stream(method, path, json=body) as response:
            if response.status_code != 200:
                return None
            data = read_json(response)
    except (httpx2.HTTPError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _identify(client: httpx2.Client, models: tuple[ModelInfo, ...], raw: list[Mapping[str, Any]]) -> ProbeResult:
    health = _get(client, "/health") or {}
    if health.get("server") == "glassbox":
        return ProbeResult(ServerKind.GLASSBOX, models, str(health.get("version", "")))
    owners = {str(entry.get("owned_by", "")) for entry in raw}
    if "vllm" in owners:
        return ProbeResult(ServerKind.VLLM, models, tokenize=TokenizeRoute.VLLM)
    ollama = _get(client, "/api/version")
    if ollama is not None and "version" in ollama:
        return ProbeResult(ServerKind.OLLAMA, _with_ollama_contexts(client, models), str(ollama["version"]))
    props = _get(client, "/props")
    if props is not None and ("default_generation_settings" in props or "n_ctx" in props):
        tokenizes = _post(client, "/tokenize", {"content": "hi"}) is not None
        return ProbeResult(
            ServerKind.LLAMA_SERVER,
            _with_context(models, _props_n_ctx(props)),
            str(props.get("build_info", "")),
            tokenize=TokenizeRoute.LLAMA_SERVER if tokenizes else TokenizeRoute.NONE,
            llama_server_fields=True,
        )
    if _post(client, "/extras/tokenize", {"input": "hi"}) is not None:  # llama-cpp-python's own server
        return ProbeResult(
            ServerKind.LLAMA_CPP_PYTHON, models, tokenize=TokenizeRoute.LLAMA_CPP_PYTHON, llama_server_fields=True
        )
    lm_studio = _get(client, "/api/v0/models")
    if lm_studio is not None or "organization_owner" in owners:
        return ProbeResult(ServerKind.LM_STUDIO, _with_lm_studio_contexts(models, lm_studio or {}))
    return ProbeResult(ServerKind.OTHER, models)


def _props_n_ctx(props: Mapping[str, Any]) -> int | None:
    settings = props.get("default_generation_settings")
    value = props.get("n_ctx") or (settings.get("n_ctx") if isinstance(settings, dict) else None)
    return int(value) if isinstance(value, int) and value > 0 else None


def _with_context(models: tuple[ModelInfo, ...], n_ctx: int | None) -> tuple[ModelInfo, ...]:
    if n_ctx is None:
        return models
    return tuple(ModelInfo(model.id, n_ctx) for model in models)


def _with_ollama_contexts(client: httpx2.Client, models: tuple[ModelInfo, ...]) -> tuple[ModelInfo, ...]:
    found = []
    for model in models:
        shown = _post(client, "/api/show", {"model": model.id}) or {}
        info = shown.get("model_info")
        lengths = [v for k, v in info.items() if k.endswith(".context_length")] if isinstance(info, dict) else []
        found.append(ModelInfo(model.id, int(lengths[0]) if lengths and isinstance(lengths[0], int) else None))
    return tuple(found)


def _with_lm_studio_contexts(models: tuple[ModelInfo, ...], listing: Mapping[str, Any]) -> tuple[ModelInfo, ...]:
    entries = listing.get("data") if isinstance(listing.get("data"), list) else []
    lengths: dict[str, int] = {
        str(entry.get("id")): entry["max_context_length"]
        for entry in entries or []
        if isinstance(entry, dict) and isinstance(entry.get("max_context_length"), int)
    }
    return tuple(ModelInfo(m.id, lengths.get(m.id, m.context_length)) for m in models)
