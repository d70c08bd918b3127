"""Test connection: what a server is, its models and context lengths, and what it can do."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from app.bench.llama_server import LlamaServer, free_port
from app.core.backends.probe import ServerKind, probe_server
from app.core.backends.remote import RemoteBackend, RemoteConfig, RemoteError, RemoteErrorKind, TokenizeRoute
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone

Routes = Mapping[tuple[str, str], Any]  # (method, path) -> the JSON to answer with


class FakeKindOfServer:
    """Answers a few JSON routes the way one kind of server does; 404 for everything else."""

    def __init__(self, routes: Routes) -> None:
        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                self.rfile.read(length)
                body = routes.get((self.command, self.path))
                payload = json.dumps(body if body is not None else {"error": "not found"}).encode()
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-kind-server")
        self._thread.start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


@pytest.fixture
def serve() -> Iterator[Any]:
    started: list[FakeKindOfServer] = []

    def start(routes: Routes) -> str:
        started.append(FakeKindOfServer(routes))
        return started[-1].url

    yield start
    for server in started:
        server.close()


def models(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"object": "list", "data": list(entries)}


def test_the_real_llama_cpp_python_server_is_recognised_and_counts_tokens_exactly(llama_server: LlamaServer) -> None:
    found = probe_server(RemoteConfig(llama_server.url))
    assert found.kind is ServerKind.LLAMA_CPP_PYTHON
    assert found.tokenize is TokenizeRoute.LLAMA_CPP_PYTHON and found.llama_server_fields
    assert len(found.models) == 1 and "llama-cpp-python" in found.describe()
    backend = RemoteBackend(found.configured(RemoteConfig(llama_server.url)))
    try:
        assert backend.capabilities.tokenization
        count = backend.count_tokens("The lighthouse keeper lit the lamp.")
        assert count.exact and 5 < count.tokens < 15
        assert backend.unsent_params(SamplingParams()) == ("repeat_last_n",)  # top_k, min_p, repeat_penalty are sent
    finally:
        backend.close()


def test_token_probabilities_come_from_the_servers_logprobs(llama_server: LlamaServer) -> None:
    backend = RemoteBackend(RemoteConfig(llama_server.url))
    try:
        params = SamplingParams(temperature=0.0, max_tokens=8, seed=1)
        *_, done = backend.stream_chat([ChatMessage("user", "Say hello.")], params, threading.Event(), True)
    finally:
        backend.close()
    assert isinstance(done, ReplyDone) and done.trace is not None and done.trace.steps
    for step in done.trace.steps:
        assert 0.0 < step.probability <= 1.0
        ranked = [alternative.probability for alternative in step.alternatives]
        assert ranked == sorted(ranked, reverse=True) and len(ranked) >= 1
    assert done.trace.steps[0].rank == 1  # greedy: the chosen token was the most likely
    assert done.trace.sampling["max_tokens"] == 8


def test_without_logprobs_asked_a_reply_has_no_trace(llama_server: LlamaServer) -> None:
    backend = RemoteBackend(RemoteConfig(llama_server.url))
    try:
        params = SamplingParams(temperature=0.0, max_tokens=3)
        *_, done = backend.stream_chat([ChatMessage("user", "Hi")], params, threading.Event())
    finally:
        backend.close()
    assert isinstance(done, ReplyDone) and done.trace is None


def test_llama_server_is_known_by_its_props_and_gives_the_context_length(serve: Any) -> None:
    url = serve(
        {
            ("GET", "/v1/models"): models({"id": "qwen", "owned_by": "llamacpp"}),
            ("GET", "/health"): {"status": "ok"},
            ("GET", "/props"): {"default_generation_settings": {"n_ctx": 8192}, "build_info": "b5000"},
            ("POST", "/tokenize"): {"tokens": [1, 2, 3]},
        }
    )
    found = probe_server(RemoteConfig(url))
    assert found.kind is ServerKind.LLAMA_SERVER and found.version == "b5000"
    assert [(m.id, m.context_length) for m in found.models] == [("qwen", 8192)]
    assert found.tokenize is TokenizeRoute.LLAMA_SERVER
    backend = RemoteBackend(found.configured(RemoteConfig(url)))
    try:
        assert backend.count_tokens("anything").tokens == 3
    finally:
        backend.close()


def test_vllm_is_known_by_its_model_entries(serve: Any) -> None:
    url = serve(
        {
            ("GET", "/v1/models"): models(
                {"id": "meta-llama/Llama-3.1-70B", "owned_by": "vllm", "max_model_len": 32768}
            ),
            ("POST", "/tokenize"): {"count": 7, "max_model_len": 32768, "tokens": [1] * 7},
        }
    )
    found = probe_server(RemoteConfig(url))
    assert found.kind is ServerKind.VLLM and found.models[0].context_length == 32768
    assert "32,768 tokens of context" in found.describe()


def test_ollama_is_known_by_its_version_and_gives_the_context_length(serve: Any) -> None:
    url = serve(
        {
            ("GET", "/v1/models"): models({"id": "llama3.2:3b", "owned_by": "library"}),
            ("GET", "/api/version"): {"version": "0.12.3"},
            ("POST", "/api/show"): {"model_info": {"llama.context_length": 131072}},
        }
    )
    found = probe_server(RemoteConfig(url))
    assert (found.kind, found.version) == (ServerKind.OLLAMA, "0.12.3")
    assert found.models[0].context_length == 131072 and found.tokenize is TokenizeRoute.NONE


def test_lm_studio_is_known_by_its_own_model_listing(serve: Any) -> None:
    url = serve(
        {
            ("GET", "/v1/models"): models({"id": "qwen2.5-7b-instruct", "owned_by": "organization_owner"}),
            ("GET", "/api/v0/models"): {"data": [{"id": "qwen2.5-7b-instruct", "max_context_length": 32768}]},
        }
    )
    found = probe_server(RemoteConfig(url))
    assert found.kind is ServerKind.LM_STUDIO and found.models[0].context_length == 32768


def test_another_server_is_other_with_estimated_counts(serve: Any) -> None:
    url = serve({("GET", "/v1/models"): models({"id": "m"})})
    found = probe_server(RemoteConfig(url))
    assert found.kind is ServerKind.OTHER and found.tokenize is TokenizeRoute.NONE
    backend = RemoteBackend(found.configured(RemoteConfig(url)))
    try:
        assert not backend.capabilities.tokenization and not backend.count_tokens("four words of text").exact
    finally:
        backend.close()


def test_a_server_without_a_model_list_is_not_one_to_chat_with(serve: Any) -> None:
    url = serve({("GET", "/health"): {"status": "ok"}})
    with pytest.raises(RemoteError) as refused:
        probe_server(RemoteConfig(url))
    assert refused.value.kind is RemoteErrorKind.NOT_FOUND


def test_nothing_listening_is_unreachable(tmp_path: Path) -> None:
    with pytest.raises(RemoteError) as refused:
        probe_server(RemoteConfig(f"http://127.0.0.1:{free_port()}"))
    assert refused.value.kind is RemoteErrorKind.UNREACHABLE
