"""Exact replay on the real starter model: a seeded sampled reply comes back token for token; a change is named."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import replace
from pathlib import Path

import llama_cpp
import pytest

import app.core.inference.replay as replay_module
from app.core.inference.engine import Engine
from app.core.inference.replay import (
    FILE_HASHES,
    differences,
    engine_sampler_chain,
    generate_recorded,
    hash_in_background,
    known_sha256,
    model_sha256,
    prompt_hash,
    replay,
)
from app.core.inference.sampler_chain import SamplerChain, chain_stages
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.models.hashing import sha256_file
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.core.types.replies import final_reply

SAMPLED = SamplingParams(temperature=0.9, top_k=40, top_p=0.95, min_p=0.05, seed=1234, max_tokens=24)


@pytest.fixture
def prompt(engine: Engine) -> list[int]:
    return engine.prompt_tokens([ChatMessage("user", "Tell me a short story about a fox.")])


def test_the_record_holds_what_reproduces_the_reply(engine: Engine, starter_model: Path, prompt: list[int]) -> None:
    done, record = generate_recorded(engine, prompt, SAMPLED)
    assert record.model_sha256 == hashlib.sha256(starter_model.read_bytes()).hexdigest()
    assert record.quantization
    assert record.llama_cpp_python == llama_cpp.__version__
    assert "CPU" in record.llama_cpp_build  # the build's system info line
    assert record.n_ctx == engine.n_ctx and record.threads >= 1 and record.kv_types == "f16/f16"
    # the chain the token loop really builds (sampler_chain.py), in SAMPLER_ORDER, with its values
    assert [step.name for step in record.sampler_chain] == [
        "penalties", "top_k", "top_p", "min_p", "temperature", "draw",
    ]  # fmt: skip
    assert [step.name for step in record.sampler_chain] == list(chain_stages(SAMPLED))
    assert record.sampler_chain[1].values == {"top_k": 40}
    assert record.sampler_chain[-1].values == {"seed": 1234}
    assert record.prompt_sha256 == prompt_hash(prompt) and record.prompt_tokens == len(prompt)
    assert len(record.tokens) == done.stats.completion_tokens
    assert ReplayRecord.from_json(record.to_json()) == record


@pytest.mark.parametrize("prompt_cached", [False, True])
def test_a_seeded_sampled_reply_replays_to_identical_tokens(
    engine: Engine, prompt: list[int], prompt_cached: bool
) -> None:
    engine.llama.reset()
    if prompt_cached:  # the same prompt again: the reply finds all but its last prompt token in the cache
        generate_recorded(engine, prompt, SAMPLED)
    done, record = generate_recorded(engine, prompt, SAMPLED)
    assert (done.stats.cached_prompt_tokens > 0) == prompt_cached
    final_reply(engine.stream_tokens(engine.tokenize("Something else entirely"), SAMPLED, threading.Event()))
    report = replay(engine, ReplayRecord.from_json(record.to_json()), prompt)
    assert report.identical, report.summary
    assert report.replayed == record.tokens
    assert report.first_divergence is None
    assert report.differences == []
    assert "Identical" in report.summary


def test_a_changed_setting_is_named_as_the_cause_of_the_divergence(engine: Engine, prompt: list[int]) -> None:
    _, record = generate_recorded(engine, prompt, SAMPLED)
    report = replay(engine, record, prompt, changed=replace(SAMPLED, seed=99))
    assert not report.identical
    assert report.first_divergence is not None
    assert report.replayed[: report.first_divergence] == record.tokens[: report.first_divergence]
    assert report.recorded_token != report.replayed_token
    assert [d.setting for d in report.differences] == ["sampler_chain", "seed"]
    assert report.likely_cause == "other sampler settings"
    assert "1234" in report.differences[1].recorded and "99" in report.differences[1].now


def test_another_model_file_is_the_likeliest_cause(engine: Engine, prompt: list[int]) -> None:
    _, record = generate_recorded(engine, prompt, SAMPLED)
    other = replace(record, model_sha256="0" * 64, threads=record.threads + 1)
    assert [d.setting for d in differences(other, record)] == ["model_sha256", "threads"]
    assert differences(other, record)[0].cause == "a different model file"


def test_the_recorded_chain_is_the_chain_the_engine_builds(engine: Engine) -> None:
    plain = SamplingParams(temperature=1.0, top_k=0, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=5)
    for params in (SAMPLED, plain, replace(GREEDY, repeat_penalty=1.2), GREEDY):
        chain = SamplerChain(params, 5, engine.llama.n_vocab(), engine.llama.ctx)
        try:
            recorded = [step.name for step in engine_sampler_chain(params, 5)]
            assert recorded == chain.stages
        finally:
            chain.close()
    assert [step.name for step in engine_sampler_chain(plain, 5)] == ["temperature", "draw"]
    assert [step.name for step in engine_sampler_chain(GREEDY, 0)] == ["greedy"]


def test_a_reply_never_waits_for_the_model_file_to_be_hashed(tmp_path: Path) -> None:
    # The record of a reply made before a large file's hash is known says "" and the hash follows.
    model = tmp_path / "big.gguf"
    model.write_bytes(b"GGUF" + bytes(4 << 20))
    assert known_sha256(model) == ""  # asked, not waited for: a thread of its own reads the file
    deadline = time.monotonic() + 30
    while not known_sha256(model) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert known_sha256(model) == hashlib.sha256(model.read_bytes()).hexdigest()


def test_a_file_hashed_at_one_load_is_not_read_again_at_the_next_unless_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each load's engine is a new process: what it knows of the file comes from the cache folder.
    monkeypatch.setenv("GLASSBOX_CACHE", str(tmp_path / "cache"))
    model = tmp_path / "outside the library.gguf"
    model.write_bytes(b"GGUF" + bytes(4096))
    reads: list[Path] = []

    def counted(path: Path) -> hashlib._Hash:
        reads.append(path)
        return sha256_file(path)

    monkeypatch.setattr(replay_module, "sha256_file", counted)

    def in_a_new_engine_process() -> str:
        monkeypatch.setattr(replay_module, "_fingerprints", {})
        return model_sha256(model)

    first, second = in_a_new_engine_process(), in_a_new_engine_process()
    assert first == second == hashlib.sha256(model.read_bytes()).hexdigest() and reads == [model]
    model.write_bytes(b"GGUF" + bytes(4095) + b"x")  # a new file under the same name
    assert in_a_new_engine_process() == hashlib.sha256(model.read_bytes()).hexdigest() and len(reads) == 2
    kept = json.loads(FILE_HASHES.path().read_text(encoding="utf-8"))
    FILE_HASHES.path().write_text(json.dumps(dict.fromkeys(kept, "not a hash")), encoding="utf-8")
    in_a_new_engine_process()
    assert len(reads) == 3


def test_a_hash_not_known_on_one_side_is_no_difference(engine: Engine, prompt: list[int]) -> None:
    _done, record = generate_recorded(engine, prompt, SAMPLED)
    assert differences(replace(record, model_sha256=""), record) == []


def test_a_model_file_gone_after_its_load_leaves_the_hash_unknown_and_the_load_standing(tmp_path: Path) -> None:
    hash_in_background(tmp_path / "gone.gguf")  # no OSError: the load that asked has already succeeded
    assert known_sha256(tmp_path / "gone.gguf") == ""


def test_the_model_file_is_read_for_the_record_once_per_load_not_at_the_end_of_every_reply(
    engine: Engine, prompt: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.core.inference.replay as replay_module

    _done, first = generate_recorded(engine, prompt, SAMPLED)  # the load's facts are read by now
    reads: list[Path] = []
    monkeypatch.setattr(replay_module, "read_gguf_info", lambda path: reads.append(path))
    _done, second = generate_recorded(engine, prompt, replace(SAMPLED, seed=99))
    assert reads == []  # nothing between the reply's last token and its end parses the file
    assert (second.quantization, second.chat_template_sha256, second.n_ctx) == (
        first.quantization,
        first.chat_template_sha256,
        first.n_ctx,
    )
    assert second.quantization != ""


def test_a_greedy_conversation_run_again_as_before_gives_the_same_tokens(engine: Engine) -> None:
    greedy = replace(GREEDY, max_tokens=24)

    def second_reply() -> tuple[int, ...]:
        engine.llama.reset()
        messages = [ChatMessage("user", "What is 2+2?")]
        _, first = generate_recorded(engine, engine.prompt_tokens(messages), greedy, chat=True)
        messages += [ChatMessage("assistant", engine.llama.detokenize(list(first.tokens)).decode()),
                     ChatMessage("user", "And 3+3?")]  # fmt: skip
        _, second = generate_recorded(engine, engine.prompt_tokens(messages), greedy, chat=True)
        assert second.cached_prompt_tokens > 0  # the second turn reuses the first from the KV cache
        return second.tokens

    assert second_reply() == second_reply()  # the same batches: the same tokens


def test_a_divergence_after_a_reused_kv_cache_says_how_that_part_was_computed(
    engine: Engine, prompt: list[int]
) -> None:
    greedy = replace(GREEDY, max_tokens=12)
    engine.llama.reset()
    generate_recorded(engine, prompt, greedy)
    _, record = generate_recorded(engine, prompt, greedy)  # all but the prompt's last token found in the cache
    assert record.cached_prompt_tokens > 0
    other_way = (*record.tokens[:3], record.tokens[3] + 1, *record.tokens[4:])  # as if a near tie went the other way
    report = replay(engine, replace(record, tokens=other_way), prompt)
    assert report.first_divergence == 3 and report.differences == []
    assert report.summary.startswith("Diverged at token 4 of the reply: likely the ")
    assert f"{record.cached_prompt_tokens} prompt tokens the reply found in the KV cache" in report.likely_cause
    assert "computed then in other batches" in report.likely_cause
