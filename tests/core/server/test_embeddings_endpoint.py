"""POST /v1/embeddings: vectors from an embedding context of its own, read by the official client."""

from __future__ import annotations

import math
from pathlib import Path

import httpx2
import openai
import pytest

from app.core.server.embeddings import parse_embedding_request
from app.core.server.errors import ApiError
from tests.core.server.conftest import Serve


def test_each_text_gets_one_unit_vector_and_the_usage_counts_its_tokens(serve: Serve) -> None:
    server = serve()
    with openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as client:
        answer = client.embeddings.create(model="any", input=["The cat sat on the mat.", "猫坐在垫子上。"])
        again = client.embeddings.create(model="any", input="The cat sat on the mat.", encoding_format="float")
        chat = client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=3, temperature=0
        )
    first, second = (item.embedding for item in answer.data)  # the client asked for base64 and decoded it
    assert [item.index for item in answer.data] == [0, 1] and len(first) == len(second) > 0
    assert math.isclose(math.fsum(v * v for v in first), 1.0, rel_tol=1e-4)
    assert first != second
    assert again.data[0].embedding == pytest.approx(first, abs=1e-5)  # floats and base64 carry the same vector
    assert answer.usage.prompt_tokens == answer.usage.total_tokens > again.usage.prompt_tokens > 0
    assert chat.choices[0].message.content  # the chat model goes on writing beside it
    record = server.request_log.records()[0]
    assert (record.endpoint, record.status, record.prompt_tokens) == ("/v1/embeddings", 200, answer.usage.prompt_tokens)


def test_a_model_llama_cpp_cannot_open_for_embeddings_is_a_400_with_the_reason(serve: Serve, tmp_path: Path) -> None:
    broken = tmp_path / "not-a-model.gguf"
    broken.write_bytes(b"GGUF" + b"\x00" * 64)
    server = serve(embedding_model=broken)
    response = httpx2.post(f"{server.base_url}/embeddings", json={"model": "any", "input": "hello"}, timeout=120)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "embeddings_not_supported" and "not-a-model cannot make embeddings" in error["message"]


def test_a_size_the_model_cannot_make_is_a_400_naming_dimensions(serve: Serve) -> None:
    server = serve()
    response = httpx2.post(
        f"{server.base_url}/embeddings", json={"model": "any", "input": "hello", "dimensions": 7}, timeout=120
    )
    assert response.status_code == 400 and response.json()["error"]["param"] == "dimensions"


def test_the_request_is_read_field_by_field() -> None:
    assert parse_embedding_request({"input": "a"}).texts == ["a"]
    assert parse_embedding_request({"input": ["a", "b"], "encoding_format": "base64"}).encoding == "base64"
    for body, field in (
        ({"input": [1, 2]}, "input"),
        ({"input": []}, "input"),
        ({"input": "a", "encoding_format": "hex"}, "encoding_format"),
        ({"input": "a", "dimensions": 0}, "dimensions"),
    ):
        with pytest.raises(ApiError) as refused:
            parse_embedding_request(body)
        assert refused.value.param == field
