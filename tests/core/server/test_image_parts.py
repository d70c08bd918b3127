"""`image_url` parts in /v1/chat/completions, sent by the official `openai` client.

The vision model is the starter model with the synthetic projector (tests/helpers/vision.py): its
replies to an image are nonsense; that one streams, with the image's tokens counted, is what is checked.
"""

from __future__ import annotations

import base64
import http.server
import io
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import openai
import pytest
from PIL import Image

from app.core.backends.local.backend import LocalBackend
from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.inference.sampling import GREEDY
from app.core.server.config import ServerConfig
from app.core.server.errors import ApiError
from app.core.server.model_queue import ModelQueue
from app.core.server.openai_requests import Limits, parse_chat
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply
from tests.helpers.vision import PROJECTOR, picture


def _data_url(image_format: str = "PNG", colour: tuple[int, int, int] = (220, 40, 40)) -> str:
    data = io.BytesIO()
    Image.new("RGB", (80, 60), colour).save(data, image_format)
    mime = {"PNG": "image/png", "JPEG": "image/jpeg"}[image_format]
    return f"data:{mime};base64,{base64.b64encode(data.getvalue()).decode()}"


def _asking(url: str, text: str = "What is in this picture?") -> list[Any]:
    parts = [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}]
    return [{"role": "user", "content": parts}]


@pytest.fixture(scope="module")
def vision_server(starter_model: Path, projector_file: Path) -> Iterator[ApiServer]:
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=1024, mmproj=projector_file))
    queue = ModelQueue(backend, 1)
    with ApiServer(ServerConfig(port=0), queue) as running:
        yield running
    queue.close()
    backend.close()


@pytest.fixture(scope="module")
def vision_client(vision_server: ApiServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=vision_server.base_url, api_key="unused", max_retries=0) as official:
        yield official


def test_a_vision_model_streams_a_reply_to_an_image_url_part(vision_client: openai.OpenAI) -> None:
    stream = vision_client.chat.completions.create(
        model="any", messages=_asking(_data_url("JPEG")), max_tokens=4, temperature=0, stream=True,
        stream_options={"include_usage": True},
    )  # fmt: skip
    chunks = list(stream)
    usage = next(c.usage for c in chunks if c.usage is not None)
    assert chunks[-2].choices[0].finish_reason in ("stop", "length")
    assert usage.completion_tokens >= 1  # what it says is nonsense (random projector weights)
    assert usage.prompt_tokens > PROJECTOR.image_tokens  # the image's tokens are part of the prompt


def test_a_damaged_image_is_a_400_that_says_why(vision_client: openai.OpenAI) -> None:
    broken = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\nnot really").decode()
    with pytest.raises(openai.BadRequestError) as refused:
        vision_client.chat.completions.create(model="any", messages=_asking(broken), max_tokens=2)
    assert refused.value.body["param"] == "messages[0].content[1].image_url"  # type: ignore[index]
    assert "is not an image Glassbox can read" in refused.value.body["message"]  # type: ignore[index]


def test_an_address_is_not_fetched(vision_client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError, match="does not fetch images from addresses"):
        vision_client.chat.completions.create(
            model="any", messages=_asking("https://example.com/cat.png"), max_tokens=2
        )


def test_a_model_that_cannot_see_answers_400_before_anything_runs(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model="any", messages=_asking(_data_url()), max_tokens=2)
    assert refused.value.code == "model_cannot_see_images"
    assert "This model cannot see images" in refused.value.body["message"]  # type: ignore[index]


def test_image_parts_become_the_message_s_images_before_its_text() -> None:
    request = parse_chat({"messages": _asking(_data_url(), "Describe.")}, Limits(max_tokens=64))
    (message,) = request.messages
    assert message.content == "Describe."
    assert len(message.images) == 1 and message.images[0].suffix == ".png" and message.images[0].exists()


def test_the_remote_backend_sends_a_message_s_images_to_a_server_that_sees(
    vision_server: ApiServer, tmp_path: Path
) -> None:
    backend = RemoteBackend(RemoteConfig(vision_server.base_url))
    try:
        message = ChatMessage("user", "What is in it?", images=(picture(tmp_path),))
        done = final_reply(backend.stream_chat([message], replace(GREEDY, max_tokens=3), threading.Event()))
    finally:
        backend.close()
    assert not done.stats.error
    assert done.stats.prompt_tokens > PROJECTOR.image_tokens  # the server's count, the image's tokens in it


class _Pictures(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path != "/cat.png":
            self.send_error(404)
            return
        body = io.BytesIO()
        Image.new("RGB", (30, 20), (90, 90, 90)).save(body, "PNG")
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body.getvalue())))
        self.end_headers()
        self.wfile.write(body.getvalue())

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def picture_site() -> Iterator[str]:
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pictures)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    site.server_close()
    thread.join()


def test_an_address_is_fetched_where_the_server_s_user_allowed_it(picture_site: str) -> None:
    allowed = Limits(max_tokens=64, fetch_image_urls=True)
    (message,) = parse_chat({"messages": _asking(f"{picture_site}/cat.png")}, allowed).messages
    with Image.open(message.images[0]) as fetched:
        assert fetched.size == (30, 20)
    with pytest.raises(ApiError, match=r"answered HTTP 404"):
        parse_chat({"messages": _asking(f"{picture_site}/dog.png")}, allowed)
    with pytest.raises(ApiError, match="does not fetch images from addresses"):
        parse_chat({"messages": _asking(f"{picture_site}/cat.png")}, Limits(max_tokens=64))


def test_an_image_and_a_text_request_at_once_both_finish_beside_parallel_slots(
    starter_model: Path, projector_file: Path
) -> None:
    """The slots read no images: a message with one is written in the engine's own context, one such reply
    at a time, while the slots go on with the others."""
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=2048, mmproj=projector_file))
    backend.open_slots(2)
    queue = ModelQueue(backend, 2, slots=2)
    answers: dict[str, str] = {}

    def ask(name: str, messages: list[Any], client: openai.OpenAI) -> None:
        reply = client.chat.completions.create(model="any", messages=messages, max_tokens=6, temperature=0)
        answers[name] = reply.choices[0].finish_reason or ""

    try:
        with (
            ApiServer(ServerConfig(port=0), queue) as running,
            openai.OpenAI(base_url=running.base_url, api_key="unused", max_retries=0) as client,
        ):
            asks = [
                threading.Thread(target=ask, args=("image", _asking(_data_url()), client)),
                threading.Thread(target=ask, args=("image again", _asking(_data_url("JPEG")), client)),
                threading.Thread(target=ask, args=("text", [{"role": "user", "content": "Say hello."}], client)),
            ]
            for thread in asks:
                thread.start()
            for thread in asks:
                thread.join()
    finally:
        queue.close()
        backend.close()

    assert sorted(answers) == ["image", "image again", "text"]  # each got its whole reply
    assert set(answers.values()) <= {"stop", "length"}
