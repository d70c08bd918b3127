"""Exact replay: what a reply needs to be reproduced, and running it again token by token.

A `ReplayRecord` (app/core/types/replay_record.py) is taken right after a reply
(`record_reply`): the model file's SHA-256 and quantization, the chat template's hash, the
llama.cpp build and llama-cpp-python version, the backend and the context settings (n_ctx,
n_batch, threads, KV-cache types, GPU layers), the sampler chain in the order llama.cpp
applies it with its values, the seed, a hash of the prompt token ids, how much of the prompt
came from the KV cache, and the reply's token ids.
It is plain JSON (`to_json`/`from_json`), so it travels with an exported chat.

`replay` runs the same prompt again with the recorded sampling settings on a KV cache
refilled as the original found it (the cached part of the prompt evaluated first, then the
rest), compares token by token, and says "identical" or the first position where it diverged, with the likely
cause: the settings that differ between the record and now, most likely first (another
model file, another build, other context settings or thread count), or, when the original
reply had reused part of its prompt from the KV cache and nothing else differs, how that part
was computed. Measured on the starter model: a greedy conversation run again exactly as before
(the same batches) gives the same tokens, every time; but the KV cache a second turn reuses was
computed as the first prompt in one batch and the first reply token by token, while a replay (or
Compare, or any fresh read) computes it in one batch. The logits then differ in their last
digits, and where two tokens are nearly tied, greedy picks the other one: two of five short
two-turn chats diverged so. The replay cannot rebuild the original's batches (earlier turns may
have been shifted or dropped since), so the report says exactly that.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import llama_cpp
from gguf.constants import GGMLQuantizationType

from app.core.inference.cache_records import CacheRecords
from app.core.inference.engine import Engine
from app.core.inference.llama_build import llama_build
from app.core.inference.sampler_chain import chain_stages
from app.core.inference.sampling import SAMPLER_ORDER, SamplingParams
from app.core.models.gguf_info import GgufInfoError, read_gguf_info
from app.core.models.hashing import VerifiedIndex, VerifyState, sha256_file
from app.core.paths import app_paths
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError
from app.core.types.replay_record import CAUSES, ReplayRecord, SamplerStep
from app.core.types.replies import ReplyDone, TokenPiece

STATS_KEY = "replay"  # where a reply keeps its record in the chat history's stats

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Difference:
    setting: str
    recorded: str
    now: str
    cause: str  # the likely cause in words (a core text, worded in the UI)


@dataclass(frozen=True)
class ReplayReport:
    identical: bool
    compared: int  # tokens compared (the shorter of the two replies)
    first_divergence: int | None  # index of the first differing token; None when identical
    recorded_token: int | None
    replayed_token: int | None
    replayed: tuple[int, ...]
    differences: list[Difference] = field(default_factory=list)
    likely_cause: str = ""

    @property
    def summary(self) -> str:
        if self.identical:
            return fill(N_("Identical: all {count} tokens match."), count=self.compared)
        return fill(
            N_("Diverged at token {position} of the reply: likely {cause}."),
            position=(self.first_divergence or 0) + 1,  # counted from 1, as a reader counts
            cause=self.likely_cause,
        )


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt_hash(tokens: Sequence[int]) -> str:
    return hashlib.sha256(b"".join(int(t).to_bytes(4, "little", signed=True) for t in tokens)).hexdigest()


_fingerprints: dict[tuple[str, int, int], str] = {}  # SHA-256 by path, size and modification time
_hashing: set[tuple[str, int, int]] = set()
_fingerprints_lock = threading.Lock()
FILE_HASHES = CacheRecords("model_hashes.json", 256, "model files' hashes")  # the same, from one load to the next
SHA256_HEX = re.compile(r"[0-9a-f]{64}")


def _key(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


def model_sha256(path: Path) -> str:
    """The model file's SHA-256, read once per path, size and modification time.

    A model in the library that the load's hash check verified unchanged has its SHA-256 on
    record already, and a file hashed before and unchanged since has it in the cache folder (the
    same trust in size and modification time as the library's index); only another file is read
    whole, once, and its hash kept for the next load (an engine process is new at every load)."""
    key = _key(path)
    with _fingerprints_lock:
        known = _fingerprints.get(key)
    if known is None:
        known = _recorded_sha256(path) or _kept_sha256(key) or _hash_and_keep(path, key)
        with _fingerprints_lock:
            _fingerprints[key] = known
    return known


def _recorded_sha256(path: Path) -> str:
    index = VerifiedIndex(app_paths().models)
    entry = index.lookup(path) if index.state(path) is VerifyState.VERIFIED else None
    return entry.sha256 if entry is not None else ""


def _kept_sha256(key: tuple[str, int, int]) -> str:
    kept = FILE_HASHES.get(json.dumps(key))
    return kept if isinstance(kept, str) and SHA256_HEX.fullmatch(kept) else ""


def _hash_and_keep(path: Path, key: tuple[str, int, int]) -> str:
    found = sha256_file(path).hexdigest()
    FILE_HASHES.put(json.dumps(key), found)
    return found


def hash_in_background(path: Path) -> None:
    """Start finding the file's SHA-256 on a thread of its own (at load), so no reply waits for it;
    a file that cannot be read now is left alone (its records say the hash is not known)."""
    try:
        key = _key(path)
    except OSError:
        return
    with _fingerprints_lock:
        if key in _fingerprints or key in _hashing:
            return
        _hashing.add(key)

    def work() -> None:
        try:
            model_sha256(path)
        except OSError as error:  # the record then says the hash is not known
            log.info("Hashing %s for replay records failed: %s", path.name, error)
        finally:
            with _fingerprints_lock:
                _hashing.discard(key)

    threading.Thread(target=work, name="model-hash", daemon=True).start()


def known_sha256(path: Path) -> str:
    """The file's SHA-256 if it is known by now, else "" (and it is being found)."""
    try:
        key = _key(path)
    except OSError:
        return ""
    with _fingerprints_lock:
        known = _fingerprints.get(key, "")
    if not known:
        hash_in_background(path)
    return known


def engine_sampler_chain(params: SamplingParams, seed: int, grammar: str = "") -> tuple[SamplerStep, ...]:
    """The chain the engine's token loop runs for `params` (sampler_chain.chain_stages, in
    SAMPLER_ORDER), each stage with the values it reads: only the stages that change something."""
    fields = dict(SAMPLER_ORDER)
    steps = []
    for name in chain_stages(params, grammar):
        values: dict[str, float | int] = {}
        for key in fields.get(name, ()):
            value = seed if key == "seed" else getattr(params, key)
            values[key] = value
        steps.append(SamplerStep(name, values))
    return tuple(steps)


def _kv_type(value: int) -> str:
    try:
        return GGMLQuantizationType(value).name.lower()
    except ValueError:
        return str(value)


def _quantization(path: Path) -> str:
    try:
        return read_gguf_info(path).dominant_tensor_type
    except GgufInfoError:
        return ""


def _context_facts(engine: Engine) -> dict[str, Any]:
    """What the record says about the loaded model and its context: read once per load
    (`load_facts`), and the file's SHA-256 as far as it is known now."""
    config = engine.config
    if config is None:
        raise EngineError(N_("No model is loaded."))
    return {**load_facts(engine), "model_sha256": known_sha256(config.model_path)}  # "" while still being hashed


_LOAD_FACTS: weakref.WeakKeyDictionary[llama_cpp.Llama, dict[str, Any]] = weakref.WeakKeyDictionary()


def load_facts(engine: Engine) -> dict[str, Any]:
    """The loaded model's facts a record names, kept for as long as that model stays loaded.

    Reading the quantization parses the file's tensor table (some 25 ms for the starter); done
    for every reply, it would come between the reply's last token and its end. The session
    asks right after a load, so no reply waits for it."""
    llama = engine.llama
    config = engine.config
    if config is None:
        raise EngineError(N_("No model is loaded."))
    facts = _LOAD_FACTS.get(llama)
    if facts is None:
        params = llama.context_params
        facts = _LOAD_FACTS[llama] = {
            "model_file": config.model_path.name,
            "quantization": _quantization(config.model_path),
            "chat_template_sha256": sha256_text(engine.chat_template),  # the one in use, the file's or not
            "llama_cpp_python": llama_cpp.__version__,
            "llama_cpp_build": llama_build(),
            "backend": "local",
            "n_ctx": llama.n_ctx(),
            "n_batch": int(params.n_batch),
            "threads": int(params.n_threads),
            "kv_types": f"{_kv_type(params.type_k)}/{_kv_type(params.type_v)}",
            "n_gpu_layers": config.n_gpu_layers,
        }
    return facts


def choose_seed(params: SamplingParams) -> SamplingParams:
    """The params with a fixed seed, so the reply made with them can be recorded and replayed."""
    return params if params.seed is not None else replace(params, seed=random.randint(0, 2**31 - 1))


def record_reply(
    engine: Engine, prompt: Sequence[int], params: SamplingParams, tokens: Sequence[int], cached_prompt_tokens: int
) -> ReplayRecord:
    """The record of a reply just made by `engine` from `prompt` with `params` (seed fixed, see choose_seed)."""
    if params.seed is None:
        raise EngineError(N_("A reply can only be replayed when its seed is known."))
    sampling = asdict(params)
    sampling["stop"] = list(params.stop)
    return ReplayRecord(
        **_context_facts(engine),
        sampler_chain=engine_sampler_chain(params, params.seed),
        seed=params.seed,
        prompt_sha256=prompt_hash(prompt),
        prompt_tokens=len(prompt),
        cached_prompt_tokens=cached_prompt_tokens,
        sampling=sampling,
        tokens=tuple(tokens),
    )


def generate_recorded(
    engine: Engine,
    prompt: list[int],
    params: SamplingParams,
    stop: threading.Event | None = None,
    *,
    chat: bool = False,
) -> tuple[ReplyDone, ReplayRecord]:
    """Make a reply and its record in one go (the command line, the bench and the tests use this);
    the record has the model file's SHA-256, read first if need be. `chat`: `prompt` is a rendered chat
    (a thinking model's budget closes its block as it did in the chat, see Engine.stream_tokens)."""
    if engine.config is not None:
        model_sha256(engine.config.model_path)
    params = choose_seed(params)
    tokens: list[int] = []
    done: ReplyDone | None = None
    for event in engine.stream_tokens(prompt, params, stop or threading.Event(), chat=chat):
        if isinstance(event, TokenPiece) and event.token_id >= 0:
            tokens.append(event.token_id)
        elif isinstance(event, ReplyDone):
            done = event
    assert done is not None, "every reply stream ends with a ReplyDone"
    return done, record_reply(engine, prompt, params, tokens, done.stats.cached_prompt_tokens)


def recorded_params(record: ReplayRecord) -> SamplingParams:
    """The sampling settings the recorded reply was made with."""
    values = dict(record.sampling)
    values["stop"] = tuple(values.get("stop", ()))
    return SamplingParams(**values)


def differences(record: ReplayRecord, now: ReplayRecord) -> list[Difference]:
    """The recorded settings that differ now, likeliest cause first."""
    found = []
    for key, cause in CAUSES:
        before, after = getattr(record, key), getattr(now, key)
        if key == "model_sha256" and not (before and after):
            continue  # not hashed yet on one side: the file's name, size and quantization still tell
        if before != after:
            found.append(Difference(key, _shown(before), _shown(after), cause))
    return found


def replay(
    engine: Engine,
    record: ReplayRecord,
    prompt: list[int],
    changed: SamplingParams | None = None,
    stop: threading.Event | None = None,
) -> ReplayReport:
    """Run the recorded reply again on `engine` from a fresh KV cache and compare it token by token.

    `changed`: replay with these sampling settings instead of the recorded ones ("what if"),
    so the report names the changed setting where the reply went another way."""
    params = changed if changed is not None else recorded_params(record)
    _refill_cache_as_recorded(engine, prompt, record.cached_prompt_tokens)
    # A recorded reply is a chat's (EngineSession.stream_chat records them).
    _, now = generate_recorded(engine, prompt, replace(params, max_tokens=max(len(record.tokens), 1)), stop, chat=True)
    found = differences(record, now)
    replayed = now.tokens
    compared = min(len(record.tokens), len(replayed))
    position = next((i for i in range(compared) if record.tokens[i] != replayed[i]), None)
    if position is None and len(record.tokens) != len(replayed):
        position = compared
    if position is None:
        return ReplayReport(True, compared, None, None, None, replayed, found)
    cause = found[0].cause if found else ""
    if not cause:
        cause = (
            fill(
                N_(
                    "the {cached} prompt tokens the reply found in the KV cache: they were computed then in other "
                    "batches (an earlier reply token by token) than the replay computes them now, and the numbers "
                    "differ in their last digits, enough to tip a near tie"
                ),
                cached=record.cached_prompt_tokens,
            )
            if record.cached_prompt_tokens
            else N_("a nondeterministic build (another thread count or GPU kernel)")
        )
    return ReplayReport(
        False,
        compared,
        position,
        record.tokens[position] if position < len(record.tokens) else None,
        replayed[position] if position < len(replayed) else None,
        replayed,
        found,
        cause,
    )


def _refill_cache_as_recorded(engine: Engine, prompt: list[int], cached: int) -> None:
    """Empty the KV cache, then evaluate the part of the prompt the original reply found cached.

    A prompt evaluated in one piece and one evaluated as a cached prefix plus the rest give
    slightly different logits, enough to change a sampled token; so the replay splits the
    prompt where the original did. (A prefix the original had cached from an earlier turn's
    reply was evaluated token by token; that is the divergence left as "a reused KV cache".)"""
    llama = engine.llama
    llama.reset()
    if 0 < cached < len(prompt):
        llama.eval(prompt[:cached])


def _shown(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], SamplerStep):
        return ", ".join(f"{s.name}({', '.join(f'{k}={v}' for k, v in s.values.items())})" for s in value)
    return str(value)
