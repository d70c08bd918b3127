"""A headless server heals: the engine process killed mid-reply or while idle is restarted with the same model.

The reply it was writing ends with an error; meanwhile requests get 503 with Retry-After and a
message that says the engine is restarting; /health shows the restart; then the model answers again.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed, EngineProcess
from app.core.server.config import ServerConfig
from app.core.server.engine_keeper import EngineKeeper, EngineState, RestartPolicy
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.errors import EngineError
from app.core.types.load import LoadConfig

RESTART_DEADLINE_S = 240.0  # a fresh engine process imports llama.cpp and loads the model
POLL_S = 0.25  # no faster: the reload shares the CPU with this loop
LONG_TOKENS = 1500
LONG_REPLY = {
    "messages": [{"role": "user", "content": "Count from 1 to 500, separated by commas."}],
    "max_tokens": LONG_TOKENS,
    "stream": True,
}
ENGINE_DIED = pytest.mark.expected_log("app.core.backends.local.process", logging.ERROR, r"SIGKILL")
RESTARTING = pytest.mark.expected_log(
    "app.core.server.engine_keeper", logging.WARNING, r"The engine stopped .*reloading"
)


@dataclass
class Served:
    server: ApiServer
    backend: LocalBackend
    model_stem: str

    @property
    def health_url(self) -> str:
        return self.server.base_url.removesuffix("/v1") + "/health"

    def health(self) -> httpx2.Response:
        return httpx2.get(self.health_url, timeout=30)

    def chat(self, **body: Any) -> httpx2.Response:
        payload = {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4, **body}
        return httpx2.post(f"{self.server.base_url}/chat/completions", json=payload, timeout=60)

    def kill_engine(self) -> None:
        link = self.backend.link
        assert isinstance(link, EngineProcess) and link.pid is not None
        os.kill(link.pid, signal.SIGKILL)

    def wait_until_served_after(self, restarts: int) -> dict[str, Any]:
        """/health's body once it is ok again after `restarts` restarts (bounded)."""
        deadline = time.monotonic() + RESTART_DEADLINE_S
        while time.monotonic() < deadline:
            answer = self.health()
            body = answer.json()
            if answer.status_code == 200 and body["engine"]["restarts"] >= restarts:
                return dict(body)
            time.sleep(POLL_S)
        raise AssertionError(f"the model was not served again within {RESTART_DEADLINE_S:.0f} s: {body}")


@pytest.fixture
def served(starter_model: Path) -> Iterator[Served]:
    """A server as `glassbox serve` runs it: its own engine, kept by an EngineKeeper (2 s before a reload)."""
    config = LoadConfig(starter_model, n_ctx=1024)
    backend = LocalBackend()
    backend.load(config)
    queue = ModelQueue(backend, 4, keeper=EngineKeeper(config, RestartPolicy(first_delay_s=2.0)))
    server = ApiServer(ServerConfig(port=0), queue)
    try:
        server.start()
        yield Served(server, backend, starter_model.stem)
    finally:
        server.stop()
        queue.close()
        backend.close()


@ENGINE_DIED
@RESTARTING
@pytest.mark.requires_model
@pytest.mark.timeout(420)
def test_an_engine_killed_mid_stream_is_restarted_and_the_model_answers_again(served: Served) -> None:
    assert served.health().json()["engine"] == {
        "state": "running",
        "restarts": 0,
        "recent_failures": 0,
        "last_error": None,
    }
    events: list[dict[str, Any]] = []
    with httpx2.stream("POST", f"{served.server.base_url}/chat/completions", json=LONG_REPLY, timeout=60) as stream:
        assert stream.status_code == 200
        for line in stream.iter_lines():
            if not line.startswith("data: {"):
                continue
            events.append(json.loads(line.removeprefix("data: ")))
            if len(events) == 2:  # the role, then the first text: the engine is writing
                served.kill_engine()
    assert "error" in events[-1] and "SIGKILL" in events[-1]["error"]["message"]
    assert len(events) < LONG_TOKENS

    during = served.chat()
    assert during.status_code == 503 and int(during.headers["Retry-After"]) >= 1
    error = during.json()["error"]
    assert error["code"] == "engine_restarting" and "restarting" in error["message"]
    assert "load one first" not in error["message"]
    health = served.health()
    assert health.status_code == 503 and health.json()["status"] == "restarting"
    assert health.json()["model"] == served.model_stem  # the model being reloaded, though none is loaded now

    body = served.wait_until_served_after(1)
    assert body["status"] == "ok" and body["engine"]["state"] == "running"
    assert body["engine"]["restarts"] == 1 and "SIGKILL" in body["engine"]["last_error"]
    after = served.chat()
    assert after.status_code == 200 and after.json()["choices"][0]["message"]["content"]
    statuses = [record.status for record in served.server.request_log.records()]
    assert statuses == [500, 503, 200]  # the killed stream, the refusal during the restart, the answer


@ENGINE_DIED
@RESTARTING
@pytest.mark.requires_model
@pytest.mark.timeout(420)
def test_an_engine_that_dies_while_idle_is_noticed_and_restarted_without_a_request(served: Served) -> None:
    served.kill_engine()
    body = served.wait_until_served_after(1)
    assert body["engine"]["recent_failures"] == 1 and "SIGKILL" in body["engine"]["last_error"]
    assert served.chat().status_code == 200
    assert served.server.request_log.records()[-1].status == 200


@dataclass
class LostModel:
    """A backend whose engine died and whose model never loads again (the file is gone, say)."""

    loads: int = 0
    crash: EngineCrashed | None = field(default_factory=lambda: EngineCrashed("killed by SIGKILL", -9, ()))
    is_loaded: bool = False
    failure: Exception = field(default_factory=lambda: EngineError("the model file is gone"))

    def check_engine(self) -> None:
        pass

    def load(self, config: LoadConfig, cancel: threading.Event | None = None) -> None:
        self.loads += 1
        raise self.failure


@RESTARTING
@pytest.mark.expected_log("app.core.server.engine_keeper", logging.ERROR, r"crash loop: 3 failures within 60 s")
def test_failures_in_a_row_are_a_crash_loop_in_the_health_and_the_log_and_restarts_go_on() -> None:
    policy = RestartPolicy(first_delay_s=0.001, max_delay_s=0.002, crash_loop_failures=3, window_s=60)
    keeper = EngineKeeper(LoadConfig(Path("model.gguf")), policy)
    backend = LostModel()
    tending = threading.Thread(target=keeper.tend, args=(backend,), name="keeper-test")
    tending.start()
    try:
        deadline = time.monotonic() + 30
        while keeper.health().state is not EngineState.CRASH_LOOP and time.monotonic() < deadline:
            time.sleep(0.01)
        while backend.loads < 4 and time.monotonic() < deadline:  # it keeps trying in a crash loop
            time.sleep(0.01)
    finally:
        keeper.close()
        tending.join(30)
    health = keeper.health()
    assert health.state is EngineState.CRASH_LOOP and health.recent_failures >= 3 and backend.loads >= 4
    assert "the model file is gone" in health.last_error and health.restarts == backend.loads
    assert not tending.is_alive()


@RESTARTING
def test_a_reload_that_fails_in_an_unforeseen_way_is_tried_again() -> None:
    never_a_loop = RestartPolicy(first_delay_s=0.001, max_delay_s=0.002, crash_loop_failures=10**6)
    keeper = EngineKeeper(LoadConfig(Path("model.gguf")), never_a_loop)
    backend = LostModel(failure=OSError("Input/output error"))
    tending = threading.Thread(target=keeper.tend, args=(backend,), name="keeper-test")
    tending.start()
    try:
        deadline = time.monotonic() + 30
        while backend.loads < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        keeper.close()
        tending.join(30)
    assert backend.loads >= 2 and "Input/output error" in keeper.health().last_error
    assert keeper.health().state is not EngineState.RUNNING


def test_a_model_that_was_never_lost_is_left_alone() -> None:
    keeper = EngineKeeper(LoadConfig(Path("model.gguf")))
    never_loaded = LostModel(crash=None)
    keeper.tend(never_loaded)  # returns at once: nothing died
    loaded = LostModel(is_loaded=True)
    keeper.tend(loaded)
    assert never_loaded.loads == loaded.loads == 0
    assert keeper.health().state is EngineState.RUNNING and keeper.health().restarts == 0


def test_the_back_off_doubles_from_one_second_up_to_its_cap() -> None:
    policy = RestartPolicy()
    assert [policy.delay_s(failures) for failures in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]
