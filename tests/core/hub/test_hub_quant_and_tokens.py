"""Quantization names, quality ranks and the keyring token store.

Fit and recommendation: tests/core/memory/test_fit.py.
"""

from __future__ import annotations

import logging

import pytest

from app.core.hub.token_store import TokenStore, TokenStoreError
from app.core.models.quant import parse_quant, quality_rank
from tests.fakes.memory_keyring import MemoryKeyring


@pytest.mark.parametrize(
    ("filename", "quant"),
    [
        ("SmolLM2-135M-Instruct.Q4_1.gguf", "Q4_1"),
        ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "Q4_K_M"),
        ("mistral-7b-instruct-v0.2.Q5_K_S.gguf", "Q5_K_S"),
        ("qwen2.5-7b-instruct-q6_k.gguf", "Q6_K"),
        ("Qwen2.5-72B-Instruct-IQ2_XXS.gguf", "IQ2_XXS"),
        ("gemma-2-9b-it-IQ4_XS.gguf", "IQ4_XS"),
        ("phi-3-mini-4k-instruct-fp16.gguf", "F16"),
        ("model-bf16-00001-of-00002.gguf", "BF16"),
        ("DeepSeek-R1-UD-Q2_K_XL-00001-of-00005.gguf", "Q2_K_XL"),
        ("llama-2-7b.Q3_K_L.gguf", "Q3_K_L"),
        ("Q8_0-named-repo/model-Q2_K.gguf", "Q2_K"),
        ("model.gguf", None),
        ("q4km.gguf", None),
    ],
)
def test_quantization_is_parsed_from_common_file_names(filename: str, quant: str | None) -> None:
    assert parse_quant(filename) == quant


def test_quality_ranks_follow_the_usual_order() -> None:
    order = ["F16", "Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q4_K_M", "Q4_K_S", "Q4_0", "Q3_K_M", "Q2_K", "IQ1_S"]
    ranks = [quality_rank(name) for name in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert quality_rank("ZZ9") == 0


def test_token_is_saved_in_the_keyring_and_read_back(memory_keyring: MemoryKeyring) -> None:
    store = TokenStore()
    assert store.available() and store.get() is None
    store.set("  hf_abc123  ")
    assert store.get() == "hf_abc123" and store.saved_in_keyring()
    assert list(memory_keyring.passwords.values()) == ["hf_abc123"]
    store.clear()
    assert store.get() is None
    store.clear()  # clearing twice is fine


@pytest.mark.expected_log(
    "app.core.support.secrets", logging.WARNING, "Cannot save huggingface-token: no keyring backend"
)
def test_a_machine_without_keyring_reads_no_token_and_explains_why_it_cannot_save(
    no_keyring: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    caplog.set_level(logging.DEBUG)
    store = TokenStore()
    assert store.get() is None and not store.available()
    assert "keyring" in store.unavailable_reason() and "Public models still work" in store.unavailable_reason()
    with pytest.raises(TokenStoreError) as caught:
        store.set("hf_secret_token_value")
    assert "never writes tokens to a file" in str(caught.value)
    assert "hf_secret_token_value" not in caplog.text


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "the keyring backend .* did not keep it")
@pytest.mark.usefixtures("null_keyring")
def test_a_keyring_that_keeps_nothing_is_named_and_the_token_called_unsaved(caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(TokenStoreError) as caught:
        TokenStore().set("hf_secret_token_value")
    message = str(caught.value)
    assert "The token was not saved" in message and "keyring.backends.null.Keyring" in message
    assert "HF_TOKEN" in message  # what to do instead
    assert "hf_secret_token_value" not in caplog.text + message


def test_the_hf_token_environment_variable_is_used_when_no_token_is_saved(
    no_keyring: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_TOKEN", "hf_from_env")
    assert TokenStore().get() == "hf_from_env"


@pytest.mark.parametrize("bad", ["", "   ", "hf_abc def"])
def test_malformed_tokens_are_refused_with_where_to_get_one(memory_keyring: MemoryKeyring, bad: str) -> None:
    with pytest.raises(TokenStoreError) as caught:
        TokenStore().set(bad)
    assert "huggingface.co/settings/tokens" in str(caught.value)
    assert memory_keyring.passwords == {}
