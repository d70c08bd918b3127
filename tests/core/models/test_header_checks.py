"""Header values llama.cpp asserts on (or reads past arrays for) are refused before llama.cpp sees the file.

Each refusal names the file and the field. The hostile files are small synthetic models with one
value patched in place, or tiny files written with the `gguf` writer.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import gguf
import llama_cpp
import numpy as np
import pytest

from app.bench.synthetic_gguf import SyntheticModel, header_layout, patch, set_metadata, write_synthetic_model
from app.core.inference.engine import Engine
from app.core.models.validation import check_model_file
from app.core.types.load import LoadConfig
from tests.helpers.models import refusal_reason

# Small enough to write in milliseconds; head size 16, so rope needs an even count up to 16.
SPEC = SyntheticModel(n_layers=2, n_embd=64, n_head=4, n_head_kv=2, n_ff=128, n_vocab=300, context_length=512)


@pytest.fixture(scope="module")
def base_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_synthetic_model(tmp_path_factory.mktemp("base") / "model.gguf", SPEC)


@pytest.fixture
def llama_cpp_never_called(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("llama.cpp was handed a file the checks should have refused")

    monkeypatch.setattr(llama_cpp, "Llama", refuse)


def _patched(base: Path, folder: Path, key: str, value: int | float) -> Path:
    path = folder / "model.gguf"
    shutil.copyfile(base, path)
    set_metadata(path, key, value)
    return path


def test_the_unpatched_synthetic_model_and_the_starter_pass(base_model: Path, starter_model: Path) -> None:
    assert check_model_file(base_model) == base_model
    assert check_model_file(starter_model) == starter_model


def test_the_unpatched_synthetic_model_loads_and_decodes(base_model: Path) -> None:
    engine = Engine()
    try:
        engine.load(LoadConfig(base_model, n_ctx=256, n_threads=1))
        engine.warm_up()
    finally:
        engine.close()


@pytest.mark.usefixtures("llama_cpp_never_called")
@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("llama.block_count", 0, "llama.block_count is 0; a model needs at least one layer"),
        ("llama.block_count", 2**32 - 1, "llama.block_count is 4294967295; llama.cpp loads at most 512 layers"),
        ("llama.embedding_length", 0, "llama.embedding_length is 0; the model's width must be 1 to"),
        ("llama.embedding_length", 2**31, "llama.embedding_length is 2147483648"),
        ("llama.embedding_length", 66, "llama.embedding_length 66 is not a multiple of llama.attention.head_count 4"),
        ("llama.feed_forward_length", 0, "llama.feed_forward_length is 0; the feed-forward width must be 1 to"),
        ("llama.attention.head_count", 0, "llama.attention.head_count is 0"),
        ("llama.attention.head_count_kv", 0, "llama.attention.head_count_kv is 0"),
        ("llama.attention.head_count_kv", 3, "llama.attention.head_count 4 is not a multiple of "),
        ("llama.attention.head_count_kv", 8, "llama.attention.head_count 4 is not a multiple of "),
        ("llama.rope.dimension_count", 15, "llama.rope.dimension_count is 15; rotary embedding needs an even"),
        ("llama.rope.dimension_count", 18, "no larger than the head size (16)"),
        ("llama.attention.layer_norm_rms_epsilon", -1.0, "llama.attention.layer_norm_rms_epsilon is -1.0;"),
        ("llama.attention.layer_norm_rms_epsilon", math.nan, "llama.attention.layer_norm_rms_epsilon is nan;"),
        ("llama.attention.layer_norm_rms_epsilon", math.inf, "llama.attention.layer_norm_rms_epsilon is inf;"),
        ("llama.context_length", 0, "llama.context_length is 0; the context it was trained for must be 1 to"),
        ("llama.context_length", 2**32 - 1, "llama.context_length is 4294967295"),
    ],
)
def test_a_hostile_header_value_is_refused_with_the_field_named(
    base_model: Path, tmp_path: Path, key: str, value: int | float, reason: str
) -> None:
    assert reason in refusal_reason(_patched(base_model, tmp_path, key, value))


@pytest.mark.usefixtures("llama_cpp_never_called")
def test_a_head_size_of_zero_is_refused(tmp_path: Path) -> None:
    path = write_synthetic_model(tmp_path / "heads.gguf", SyntheticModel(n_layers=1, head_dim=32, n_vocab=300))
    set_metadata(path, "llama.attention.key_length", 0)
    assert "llama.attention.key_length is 0; the size of one attention head must be 1 to" in refusal_reason(path)


@pytest.mark.usefixtures("llama_cpp_never_called")
def test_rows_that_do_not_fill_whole_quantization_blocks_are_refused(tmp_path: Path) -> None:
    spec = SyntheticModel(
        n_layers=1, n_embd=64, n_head=4, n_ff=128, n_vocab=300, weight_type=gguf.GGMLQuantizationType.Q8_0
    )
    path = write_synthetic_model(tmp_path / "q8.gguf", spec)
    down = next(t for t in header_layout(path).tensors if t.name == "blk.0.ffn_down.weight")
    patch(path, down.dims_position, "<Q", 127)  # 128 values a row in blocks of 32 -> 127
    assert (
        "tensor blk.0.ffn_down.weight has rows of 127 values, not a multiple of Q8_0's block of 32"
        in refusal_reason(path)
    )


def _tiny_gguf(
    path: Path, vocabulary: int = 8, scores: int | None = None, embd_rows: int | None = None, **meta: int
) -> Path:
    """A one-layer llama header with `meta` (llama.* keys without the prefix) and a token table."""
    writer = gguf.GGUFWriter(str(path), "llama")
    values = {"block_count": 1, "context_length": 64, "embedding_length": 8, "attention.head_count": 2, **meta}
    for key, value in values.items():
        writer.add_uint32(f"llama.{key}", value)
    writer.add_tokenizer_model("llama")
    writer.add_token_list([f"t{i}" for i in range(vocabulary)])
    if scores is not None:
        writer.add_token_scores([0.0] * scores)
    writer.add_tensor("token_embd.weight", np.zeros((embd_rows or vocabulary, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.mark.usefixtures("llama_cpp_never_called")
def test_token_scores_shorter_than_the_vocabulary_are_refused(tmp_path: Path) -> None:
    reason = refusal_reason(_tiny_gguf(tmp_path / "scores.gguf", vocabulary=8, scores=5))
    assert reason == (
        "tokenizer.ggml.scores has 5 entries but tokenizer.ggml.tokens has 8; there must be one per token"
    )


@pytest.mark.usefixtures("llama_cpp_never_called")
def test_an_embedding_table_that_does_not_match_the_vocabulary_is_refused(tmp_path: Path) -> None:
    reason = refusal_reason(_tiny_gguf(tmp_path / "rows.gguf", vocabulary=8, embd_rows=6))
    assert reason == "tensor token_embd.weight has 6 rows but tokenizer.ggml.tokens has 8 tokens"


@pytest.mark.usefixtures("llama_cpp_never_called")
@pytest.mark.parametrize(
    ("experts", "reason"),
    [
        ({"expert_count": 4, "expert_used_count": 0}, "llama.expert_count is 4 but llama.expert_used_count is 0"),
        ({"expert_count": 2, "expert_used_count": 3}, "llama.expert_used_count is 3 but llama.expert_count is 2"),
        ({"expert_count": 0, "expert_used_count": 1}, "llama.expert_used_count is 1 but llama.expert_count is 0"),
        ({"expert_count": 5000, "expert_used_count": 2}, "llama.expert_count is 5000; llama.cpp supports 0 to 1024"),
    ],
)
def test_impossible_expert_counts_are_refused(tmp_path: Path, experts: dict[str, int], reason: str) -> None:
    assert reason in refusal_reason(_tiny_gguf(tmp_path / "moe.gguf", **experts))


@pytest.mark.usefixtures("llama_cpp_never_called")
def test_per_layer_head_counts_must_have_one_entry_per_layer(tmp_path: Path) -> None:
    path = tmp_path / "layers.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(3)
    writer.add_embedding_length(8)
    writer.add_array("llama.attention.head_count", [2, 2])
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert refusal_reason(path) == (
        "llama.attention.head_count has 2 entries but the model has 3 layers; there must be one per layer"
    )


def test_a_model_without_attention_may_say_zero_heads_and_no_feed_forward(tmp_path: Path) -> None:
    """As Mamba files do: head_count 0 and feed_forward_length 0 ("unused, but required when loading")."""
    path = tmp_path / "mamba.gguf"
    writer = gguf.GGUFWriter(str(path), "mamba")
    writer.add_block_count(1)
    writer.add_context_length(2**20)
    writer.add_embedding_length(8)
    writer.add_feed_forward_length(0)
    writer.add_head_count(0)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.add_tensor("blk.0.ssm_in.weight", np.zeros((32, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert check_model_file(path) == path
