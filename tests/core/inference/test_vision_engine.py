"""A vision model in the engine: the starter model with the synthetic projector (tests/helpers/vision.py).

The projector's weights are random, so the replies to an image are nonsense: these tests check that
each stage runs for real (load and pairing, encoding, image tokens in the prompt and the KV cache, a
streamed reply), never what the model says about the picture.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import llama_cpp
import pytest
from gguf import GGUFWriter

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.chat.prompt_inspector import inspect_prompt
from app.core.inference.engine import Engine
from app.core.inference.load_timeline import LoadTimeline
from app.core.inference.projector import is_image_token
from app.core.inference.sampling import GREEDY
from app.core.types.errors import EngineError, ImagesNeedVision
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from tests.helpers.vision import PROJECTOR, picture


def _reply(engine: Engine, messages: list[ChatMessage], max_tokens: int = 6) -> tuple[list[TokenPiece], ReplyDone]:
    events = list(engine.stream_chat(messages, replace(GREEDY, max_tokens=max_tokens), threading.Event()))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return [event for event in events if isinstance(event, TokenPiece)], done


def test_the_projector_loads_with_its_model_as_a_stage_of_the_load_timeline(
    starter_model: Path, projector_file: Path
) -> None:
    engine = Engine()
    try:
        report = LoadTimeline(engine).load(LoadConfig(starter_model, n_ctx=512, mmproj=projector_file))
        stages = [stage.name for stage in report.stages]
        assert stages.index("create context") < stages.index("load projector") < stages.index("chat template")
        detail = next(stage.detail for stage in report.stages if stage.name == "load projector")
        assert detail == f"{projector_file.name}: mlp projector, 328.8 KiB"
        assert engine.sees_images
    finally:
        engine.close()


def test_an_image_is_its_projector_tokens_in_its_place_in_the_prompt(vision_engine: Engine, tmp_path: Path) -> None:
    image = picture(tmp_path)
    text_only = vision_engine.prompt_tokens([ChatMessage("user", "Describe it.")])
    with_image = vision_engine.prompt_tokens([ChatMessage("user", "Describe it.", images=(image,))])
    image_positions = [i for i, token in enumerate(with_image) if is_image_token(token)]
    assert len(image_positions) == PROJECTOR.image_tokens == 64
    assert image_positions == list(range(image_positions[0], image_positions[0] + 64))  # one block
    # The image stands where the user's message begins, before its text.
    assert with_image[: image_positions[0]] == text_only[: image_positions[0]]
    assert with_image[-8:] == text_only[-8:]
    assert "<__media__>\nDescribe it." in vision_engine.render_prompt(
        [ChatMessage("user", "Describe it.", images=(image,))]
    )


def test_a_reply_to_an_image_streams_with_its_image_tokens_and_encode_time(
    vision_engine: Engine, tmp_path: Path
) -> None:
    vision_engine.llama.reset()
    messages = [ChatMessage("user", "What is in this picture?", images=(picture(tmp_path),))]
    pieces, done = _reply(vision_engine, messages)
    assert pieces and "".join(piece.text for piece in pieces) == done.text  # nonsense, but streamed
    assert done.stats.image_tokens == 64
    assert len(done.stats.image_encode_s) == 1 and done.stats.image_encode_s[0] > 0
    # The image's tokens are in the KV cache where the prompt has them.
    cached = list(vision_engine.llama.input_ids[: vision_engine.llama.n_tokens])
    assert cached[: done.stats.prompt_tokens] == vision_engine.prompt_tokens(messages)


def test_the_next_turn_reuses_the_cached_image_without_encoding_it_again(vision_engine: Engine, tmp_path: Path) -> None:
    vision_engine.llama.reset()
    first = [ChatMessage("user", "Look.", images=(picture(tmp_path),))]
    _, done = _reply(vision_engine, first)
    second = [*first, ChatMessage("assistant", done.text), ChatMessage("user", "And now?")]
    _, again = _reply(vision_engine, second)
    assert again.stats.image_tokens == 64
    assert again.stats.image_encode_s == []
    assert again.stats.cached_prompt_tokens > 64


def test_two_pictures_are_two_blocks_and_two_encodings(vision_engine: Engine, tmp_path: Path) -> None:
    vision_engine.llama.reset()
    images = (picture(tmp_path, "a.png", (255, 0, 0)), picture(tmp_path, "b.png", (0, 0, 255)))
    _, done = _reply(vision_engine, [ChatMessage("user", "Compare them.", images=images)])
    assert done.stats.image_tokens == 128
    assert len(done.stats.image_encode_s) == 2


def test_a_text_only_model_refuses_an_image_before_anything_runs(engine: Engine, tmp_path: Path) -> None:
    cached = engine.llama.n_tokens
    with pytest.raises(ImagesNeedVision, match="cannot see images"):
        engine.stream_chat([ChatMessage("user", "Look.", images=(picture(tmp_path),))], GREEDY, threading.Event())
    assert engine.llama.n_tokens == cached


@pytest.fixture
def model_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The model files llama.cpp is asked to load from now on (each is loaded as usual)."""
    asked: list[str] = []
    llama = llama_cpp.Llama

    def noted(model_path: str, *args: Any, **kwargs: Any) -> llama_cpp.Llama:
        asked.append(model_path)
        return llama(model_path, *args, **kwargs)

    monkeypatch.setattr(llama_cpp, "Llama", noted)
    return asked


def test_a_projector_of_another_size_is_refused_with_the_reason_before_the_model_loads(
    starter_model: Path, tmp_path: Path, model_loads: list[str]
) -> None:
    wrong = write_synthetic_projector(tmp_path / "mmproj-big.gguf", SyntheticProjector(text_embd=1024))
    engine = Engine()
    with pytest.raises(EngineError) as refused:
        engine.load(LoadConfig(starter_model, n_ctx=256, mmproj=wrong))
    assert model_loads == [], "llama.cpp never saw the model nor the projector"
    assert not engine.is_loaded
    assert str(refused.value) == (
        "The projector mmproj-big.gguf does not belong to SmolLM2-135M-Instruct.Q4_1.gguf: it turns an image into "
        "embeddings of 1024 values, and SmolLM2-135M-Instruct.Q4_1.gguf takes 576. Pick the projector made for "
        "this model."
    )


def test_a_projector_made_for_another_architecture_is_refused_with_the_reason_before_the_model_loads(
    starter_model: Path, tmp_path: Path, model_loads: list[str]
) -> None:
    gemma = tmp_path / "mmproj-gemma-3-4b-it-f16.gguf"
    writer = GGUFWriter(gemma, "clip")  # Gemma 3's projector, of the starter model's embedding size
    writer.add_bool("clip.has_vision_encoder", True)
    writer.add_string("clip.vision.projector_type", "gemma3")
    writer.add_uint32("clip.vision.projection_dim", 576)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(EngineError) as refused:
        Engine().load(LoadConfig(starter_model, n_ctx=256, mmproj=gemma))
    assert model_loads == []
    assert str(refused.value) == (
        "The projector mmproj-gemma-3-4b-it-f16.gguf does not belong to SmolLM2-135M-Instruct.Q4_1.gguf: it is made "
        "for gemma3 models (gemma3 projector), and SmolLM2-135M-Instruct.Q4_1.gguf is a llama model. Pick the "
        "projector made for this model."
    )


def test_a_model_file_given_as_the_projector_is_refused(starter_model: Path, tmp_path: Path) -> None:
    model = write_synthetic_model(tmp_path / "tiny.gguf", SyntheticModel(n_layers=1, n_embd=64, n_ff=64, n_vocab=300))
    engine = Engine()
    with pytest.raises(EngineError, match=r"tiny\.gguf is not a projector \(mmproj\) file but a model \(llama\)"):
        engine.load(LoadConfig(starter_model, n_ctx=256, mmproj=model))
    assert not engine.is_loaded


def test_a_projector_that_is_no_gguf_is_refused(starter_model: Path, tmp_path: Path) -> None:
    junk = tmp_path / "mmproj.gguf"
    junk.write_bytes(b"not a gguf at all" * 10)
    with pytest.raises(EngineError, match=r"mmproj\.gguf is not a projector file"):
        Engine().load(LoadConfig(starter_model, n_ctx=256, mmproj=junk))


def test_the_prompt_inspector_shows_an_image_as_one_block_of_its_tokens(vision_engine: Engine, tmp_path: Path) -> None:
    messages = [ChatMessage("user", "Describe it.", images=(picture(tmp_path),))]
    inspection = inspect_prompt(vision_engine, messages)
    block = [token for token in inspection.tokens if is_image_token(token.token_id)]
    assert len(block) == 64 and all(token.special and token.message is None for token in block)
    assert [token.text for token in block] == ["<__media__>"] + [""] * 63
    assert inspection.messages[0].tokens > 0  # the message's text is still found and counted
