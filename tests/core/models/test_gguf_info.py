"""Reading a model's shape and sizes from its GGUF header."""

from __future__ import annotations

import struct
from pathlib import Path

import gguf
import pytest
from gguf.constants import GGMLQuantizationType

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.models.gguf_info import (
    ArrayInfo,
    GgufHeaderIncomplete,
    GgufInfo,
    GgufInfoError,
    TensorInfo,
    parse_gguf_prefix,
    read_gguf_info,
)


def test_the_starter_model_reads_as_llama_cpp_describes_it(starter_model: Path) -> None:
    info = read_gguf_info(starter_model)

    # The values llama.cpp prints in its `print_info` lines for this file.
    assert info.architecture == "llama"
    assert info.block_count == 30
    assert info.embedding_length == 576
    assert info.feed_forward_length == 1536
    assert (info.head_count, info.head_count_kv) == (9, 3)
    assert (info.key_length, info.value_length) == (64, 64)
    assert info.sliding_window == 0
    assert info.context_length == 8192
    assert info.vocab_size == 49152
    assert round(info.parameter_count / 1e6, 2) == 134.52
    assert info.file_type == "Q4_1"
    assert round(info.tensor_bytes / 2**20, 2) == 92.10  # "file size = 92.10 MiB"


def test_the_vocabulary_is_counted_not_materialised(starter_model: Path) -> None:
    info = read_gguf_info(starter_model)
    assert info.metadata["tokenizer.ggml.tokens"] == ArrayInfo(item_type=8, length=49152)
    assert info.metadata["general.languages"] == ("en",)  # small arrays are kept


def test_tensor_table_matches_the_gguf_package_reader(tmp_path: Path) -> None:
    path = write_synthetic_model(tmp_path / "m.gguf", SyntheticModel(weight_type=GGMLQuantizationType.Q8_0))
    ours = read_gguf_info(path)
    reference = gguf.GGUFReader(path)

    assert [t.name for t in ours.tensors] == [t.name for t in reference.tensors]
    for mine, theirs in zip(ours.tensors, reference.tensors, strict=True):
        assert mine.shape == tuple(int(d) for d in theirs.shape)
        assert mine.ggml_type == theirs.tensor_type
        assert mine.n_bytes == theirs.n_bytes
        assert ours.data_offset + mine.offset == theirs.data_offset
    assert ours.file_type == "Q8_0"


def test_explicit_head_size_and_tied_embeddings_are_read(tmp_path: Path) -> None:
    spec = SyntheticModel(n_embd=384, n_head=4, n_head_kv=4, head_dim=64, tied_embeddings=True)
    info = read_gguf_info(write_synthetic_model(tmp_path / "m.gguf", spec))

    assert (info.key_length, info.value_length) == (64, 64)  # not 384 / 4
    assert info.tensor("output.weight") is None
    assert info.tensor("token_embd.weight") is not None
    assert len(info.layer_bytes()) == spec.n_layers


def test_key_length_defaults_to_embedding_over_heads(tmp_path: Path) -> None:
    info = read_gguf_info(write_synthetic_model(tmp_path / "m.gguf", SyntheticModel(n_embd=256, n_head=8)))
    assert "llama.attention.key_length" not in info.metadata
    assert info.key_length == 32


def test_gemma2_alternates_sliding_window_layers(tmp_path: Path) -> None:
    spec = SyntheticModel(architecture="gemma2", n_layers=4, n_head=4, n_head_kv=2, sliding_window=256)
    info = read_gguf_info(write_synthetic_model(tmp_path / "g.gguf", spec))

    assert info.sliding_window == 256
    assert [info.is_sliding_window_layer(i) for i in range(4)] == [True, False, True, False]


def fabricated(metadata: dict, tensors: tuple[TensorInfo, ...] = ()) -> GgufInfo:
    return GgufInfo(Path("x.gguf"), 0, 3, 32, 0, metadata, tensors)


def test_a_sliding_window_pattern_in_the_file_wins_over_the_built_in_one() -> None:
    info = fabricated(
        {
            "general.architecture": "gemma3",
            "gemma3.block_count": 4,
            "gemma3.attention.sliding_window": 512,
            "gemma3.attention.sliding_window_pattern": (False, True, True, False),
        }
    )
    assert [info.is_sliding_window_layer(i) for i in range(4)] == [False, True, True, False]


def test_per_layer_kv_head_counts_are_read_per_layer() -> None:
    info = fabricated(
        {
            "general.architecture": "hybrid",
            "hybrid.block_count": 3,
            "hybrid.attention.head_count": 8,
            "hybrid.attention.head_count_kv": (2, 0, 4),
        }
    )
    assert [info.head_count_kv_for_layer(i) for i in range(3)] == [2, 0, 4]
    assert info.head_count_kv == 4


def test_a_text_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "notes.gguf"
    path.write_text("hello, this is not a model at all")
    with pytest.raises(GgufInfoError, match="not a GGUF file"):
        read_gguf_info(path)


def test_a_header_cut_short_is_refused_with_the_reason(tmp_path: Path, starter_model: Path) -> None:
    path = tmp_path / "cut.gguf"
    path.write_bytes(starter_model.read_bytes()[:5000])
    with pytest.raises(GgufInfoError, match=r"cut short|runs past"):
        read_gguf_info(path)


def test_a_damaged_length_that_points_past_any_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "damaged.gguf"
    key = b"general.junk"
    header = b"GGUF" + struct.pack("<IQQ", 3, 1, 1)
    huge_array = struct.pack("<Q", len(key)) + key + struct.pack("<IIQ", 9, 4, 2**62)
    path.write_bytes(header + huge_array + bytes(64))
    with pytest.raises(GgufInfoError, match="cut short or damaged"):
        read_gguf_info(path)


def test_a_missing_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(GgufInfoError, match="No such file"):
        read_gguf_info(tmp_path / "gone.gguf")


# ---- a header from the first bytes of a file (read over HTTP) -------------------------------


def test_the_first_bytes_of_a_file_give_the_same_header_as_the_whole_file(starter_model: Path) -> None:
    whole = read_gguf_info(starter_model)
    prefix = starter_model.read_bytes()[: whole.data_offset]
    info = parse_gguf_prefix(prefix, starter_model.name, starter_model.stat().st_size)
    assert info.tensors == whole.tensors and info.metadata == whole.metadata
    assert info.file_size == whole.file_size and info.data_offset == whole.data_offset


def test_too_few_first_bytes_ask_for_more_and_say_at_least_how_many(starter_model: Path) -> None:
    size = starter_model.stat().st_size
    data = starter_model.read_bytes()[:5000]
    with pytest.raises(GgufHeaderIncomplete) as caught:
        parse_gguf_prefix(data, starter_model.name, size)
    assert len(data) < caught.value.needed <= read_gguf_info(starter_model).data_offset


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2**40), id="a key longer than the file"),
        pytest.param(struct.pack("<IQQ", 3, 2**50, 2**50), id="more entries than the file can hold"),
        pytest.param(
            struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 4) + b"junk" + struct.pack("<IIQ", 9, 6, 2**40),
            id="an array longer than the file",
        ),
        pytest.param(
            struct.pack("<IQQ", 3, 1, 0) + struct.pack("<Q", 1) + b"t" + struct.pack("<I", 2**31),
            id="too many dimensions",
        ),
    ],
)
def test_a_hostile_header_is_refused_at_once_instead_of_asking_for_more(damage: bytes) -> None:
    data = b"GGUF" + damage + bytes(64)
    with pytest.raises(GgufInfoError) as caught:
        parse_gguf_prefix(data, "hostile.gguf", 1024 * 1024)
    assert not isinstance(caught.value, GgufHeaderIncomplete)
