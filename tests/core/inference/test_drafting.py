"""Speculative decoding by prompt lookup: the reply plain decoding gives, in fewer passes over the weights."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import llama_cpp
import pytest

from app.core.inference import engine as engine_module
from app.core.inference.drafting import (
    FIRST_DRAFT,
    JUDGE_AFTER_PLAIN,
    JUDGE_AFTER_ROUNDS,
    MAX_DRAFT,
    RETRY_AFTER_PLAIN,
    Drafting,
    DraftRecord,
    PromptLookup,
)
from app.core.inference.engine import Engine
from app.core.inference.exact_batch import BatchProbe, probe_batches
from app.core.inference.metrics import MetricsRecorder
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.inference.token_probs import TokenProbabilityRecorder
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.stats import StopReason
from tests.helpers.replies import reply_tokens

PARAGRAPH = (
    "The old lighthouse stood on the rocky cliff for more than a hundred years. Every night its keeper "
    "climbed the spiral stairs, trimmed the wick and wound the clockwork that turned the great lens. "
    "Ships passing in the dark relied on its steady beam to avoid the dangerous reef below."
)
EDIT = [ChatMessage("user", f"Repeat this paragraph exactly, but write 'lamp' instead of 'wick':\n\n{PARAGRAPH}")]
PROMPTS = [
    EDIT,
    [ChatMessage("user", "Name three colours of the rainbow.")],
    [ChatMessage("user", "Write a long story about a fox in a forest.")],
    [ChatMessage("user", "Write a Python function that adds two numbers, then the same function with type hints.")],
]
LONG = replace(GREEDY, max_tokens=120)


# ---- the lookup and the record ------------------------------------------------------


def test_the_lookup_proposes_what_followed_the_latest_earlier_occurrence_of_the_last_tokens() -> None:
    lookup = PromptLookup([1, 2, 3, 4, 5, 9, 2, 3, 7, 8])
    for token in (1, 2, 3):
        lookup.append(token)
    # "1 2 3" occurred at the start (then 4 5 ...); "2 3" also later (then 7 8): the longer match wins.
    assert lookup.draft(4) == [4, 5, 9, 2]
    lookup.append(7)
    assert lookup.draft(3) == [8, 1, 2]  # "3 7" occurred once, followed by 8 and then the reply's own tokens


def test_the_lookup_proposes_nothing_for_tokens_it_has_not_seen_together() -> None:
    lookup = PromptLookup([1, 2, 3, 4])
    lookup.append(9)
    lookup.append(8)
    assert lookup.draft(5) == []


def _record(plain_s: float, drafted_s: float, accepted: int, drafted: int) -> DraftRecord:
    record = DraftRecord()
    for _ in range(JUDGE_AFTER_PLAIN):
        record.plain(plain_s)
    for _ in range(JUDGE_AFTER_ROUNDS):
        record.checked(drafted, accepted, drafted_s)
        record.judge()
    return record


def test_auto_turns_drafting_off_in_a_chat_where_a_token_costs_more_with_it() -> None:
    # A batch costs 1.5 plain decodes and yields one token: drafting loses.
    losing = _record(plain_s=0.010, drafted_s=0.015, accepted=0, drafted=4)
    assert not losing.enabled and losing.gain == pytest.approx(0.010 / 0.015)
    # The same batch yielding four tokens: drafting wins.
    winning = _record(plain_s=0.010, drafted_s=0.015, accepted=3, drafted=4)
    assert winning.enabled and winning.gain == pytest.approx(0.010 / (0.015 / 4))


def test_auto_looks_again_at_a_chat_after_many_plain_tokens() -> None:
    record = _record(plain_s=0.010, drafted_s=0.015, accepted=0, drafted=4)
    for _ in range(RETRY_AFTER_PLAIN):
        record.plain(0.010)
    assert record.enabled and record.rounds == 0 and record.length == FIRST_DRAFT


def test_the_proposal_grows_while_it_is_taken_whole_and_shrinks_to_what_was_taken() -> None:
    record = DraftRecord()
    record.checked(FIRST_DRAFT, FIRST_DRAFT, 0.01)
    assert record.length == 2 * FIRST_DRAFT
    for _ in range(5):
        record.checked(record.length, record.length, 0.01)
    assert record.length == MAX_DRAFT
    record.checked(MAX_DRAFT, 5, 0.01)
    assert record.length == 6


def test_a_batch_costs_what_the_probe_measured_in_between_and_beyond_its_sizes() -> None:
    probe = BatchProbe(True, {2: 1.5, 4: 2.0, 8: 3.0})
    assert probe.cost_of(1) == 1.0 and probe.cost_of(2) == 1.5
    assert probe.cost_of(3) == pytest.approx(1.75) and probe.cost_of(6) == pytest.approx(2.5)
    assert probe.cost_of(12) == pytest.approx(4.0)  # the last step's slope goes on
    assert BatchProbe(False).cost_of(5) == 5.0  # not measured: every token a decode of its own


def _auto(accepted: int, rejected: int) -> Drafting:
    record = DraftRecord(rounds=accepted + rejected, accepted=accepted, drafted=accepted + rejected, rejected=rejected)
    return Drafting(Speculative.AUTO, record, [])


def test_auto_checks_as_much_of_a_proposal_as_is_expected_to_pay_on_this_machine() -> None:
    cpu = BatchProbe(True, {2: 1.7, 4: 2.4, 8: 4.2, 17: 8.0})  # as measured on two CPU cores
    proposal = list(range(16))
    new_chat = len(_auto(0, 0).worth_checking(proposal, cpu))
    assert 1 <= new_chat <= 4  # a short look
    assert len(_auto(60, 2).worth_checking(proposal, cpu)) > new_chat  # a chat that repeats its prompt
    assert _auto(1, 10).worth_checking(proposal, cpu) == []  # a chat where proposals fail
    gpu = BatchProbe(True, {2: 1.02, 4: 1.05, 8: 1.1, 17: 1.3})  # batches almost free
    assert len(_auto(1, 10).worth_checking(proposal, gpu)) >= 1


# ---- the engine -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def exact_engine(starter_model: Path) -> Iterator[Engine]:
    """Flash attention on: with it llama.cpp's CPU backend decodes a batch exactly like single tokens."""
    engine = Engine()
    engine.load(LoadConfig(starter_model, n_ctx=2048, flash_attn=True))
    yield engine
    engine.close()


@pytest.mark.parametrize("messages", PROMPTS, ids=["edit a paragraph", "rainbow", "story", "code"])
def test_greedy_replies_are_token_for_token_those_of_plain_decoding(
    exact_engine: Engine, messages: list[ChatMessage]
) -> None:
    plain, plain_done = reply_tokens(exact_engine, messages, LONG, Speculative.OFF)
    drafted, done = reply_tokens(exact_engine, messages, LONG, Speculative.ON)
    assert drafted == plain
    assert done.text == plain_done.text
    assert done.stats.drafted_tokens > 0 and 0 <= done.stats.accepted_tokens <= done.stats.drafted_tokens


def test_a_reply_that_repeats_the_prompt_keeps_most_drafted_tokens(exact_engine: Engine) -> None:
    tokens, done = reply_tokens(exact_engine, EDIT, LONG, Speculative.ON)
    stats = done.stats
    assert stats.acceptance_rate > 0.6
    assert stats.accepted_tokens > len(tokens) / 2


def test_a_seeded_sampled_reply_is_the_same_with_drafting(exact_engine: Engine) -> None:
    # Each kept token is the draw plain decoding makes at its position, with the same random number.
    params = SamplingParams(temperature=0.8, seed=21, max_tokens=100)
    plain, _ = reply_tokens(exact_engine, EDIT, params, Speculative.OFF)
    drafted, done = reply_tokens(exact_engine, EDIT, params, Speculative.ON)
    assert drafted == plain and done.stats.accepted_tokens > 0


def test_a_grammar_constrained_reply_is_the_same_with_drafting(exact_engine: Engine) -> None:
    # The grammar remembers only the tokens sampled, and drafted tokens are checked by sampling at their positions.
    words = "root ::= [a-zA-Z .,']+"
    replies = []
    for mode in (Speculative.OFF, Speculative.ON):
        exact_engine.llama.reset()
        events = list(exact_engine.stream_chat(EDIT, LONG, threading.Event(), grammar=words, speculative=mode))
        done = events[-1]
        assert isinstance(done, ReplyDone)
        replies.append(done)
    assert replies[1].text == replies[0].text and set(replies[0].text) <= set(PARAGRAPH)
    assert replies[1].stats.accepted_tokens > 0


def test_token_probabilities_come_from_the_row_each_token_was_sampled_from(exact_engine: Engine) -> None:
    traces = []
    for mode in (Speculative.OFF, Speculative.ON):
        recorder = TokenProbabilityRecorder(LONG)
        exact_engine.llama.reset()
        list(exact_engine.stream_chat(EDIT, LONG, threading.Event(), recorder.observe, speculative=mode))
        traces.append(recorder.trace(exact_engine.llama))
    assert traces[0].steps == traces[1].steps


def test_stop_takes_effect_within_one_token_inside_a_run_of_drafted_tokens(exact_engine: Engine) -> None:
    stop = threading.Event()
    seen = 0
    exact_engine.llama.reset()
    for event in exact_engine.stream_chat(EDIT, LONG, stop, speculative=Speculative.ON):
        if isinstance(event, ReplyDone):
            done = event
        elif event.token_id >= 0:
            seen += 1
            if seen == 40:  # well inside the repeated paragraph
                stop.set()
    assert done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens == 40 and done.stats.accepted_tokens > 0


def test_after_a_drafted_reply_the_cache_holds_exactly_the_reply_and_a_follow_up_reuses_it(
    exact_engine: Engine,
) -> None:
    tokens, first = reply_tokens(exact_engine, EDIT, LONG, Speculative.ON)
    llama = exact_engine.llama
    conversation = exact_engine.prompt_tokens(EDIT) + tokens
    # Every reply token but the last was decoded; the last too when it was a drafted token the model kept.
    assert llama.n_tokens in (len(conversation) - 1, len(conversation))
    assert list(llama.input_ids[: llama.n_tokens]) == conversation[: llama.n_tokens]
    # Nothing the model did not pick is left in llama.cpp's cache.
    memory = llama_cpp.llama_get_memory(llama.ctx)
    assert llama_cpp.llama_memory_seq_pos_max(memory, 0) == llama.n_tokens - 1
    follow_up = [*EDIT, ChatMessage("assistant", first.text), ChatMessage("user", "Now say it in one sentence.")]
    events = list(exact_engine.stream_chat(follow_up, LONG, threading.Event(), speculative=Speculative.ON))
    second = events[-1]
    assert isinstance(second, ReplyDone) and second.stats.cached_prompt_tokens > len(tokens)
    cached_reply = [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0]
    fresh, _ = reply_tokens(exact_engine, follow_up, LONG, Speculative.OFF)
    assert cached_reply == fresh


def test_llama_cpps_counters_tell_the_prompt_from_the_batches_that_checked_drafts(exact_engine: Engine) -> None:
    exact_engine.llama.reset()
    recorder = MetricsRecorder(exact_engine.llama)
    events = list(exact_engine.stream_chat(EDIT, LONG, threading.Event(), recorder.observe, speculative=Speculative.ON))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    metrics = recorder.finish(done.stats, exact_engine.llama)
    stats, counters = done.stats, metrics.llama
    assert counters.prompt_eval_tokens == stats.evaluated_prompt_tokens
    assert counters.draft_check_tokens > stats.drafted_tokens > 0  # each batch also holds its own token
    assert counters.eval_tokens + counters.draft_check_tokens >= stats.completion_tokens - 1


def test_auto_does_not_draft_where_batches_decode_differently_from_single_tokens(engine: Engine) -> None:
    # The shared engine runs without flash attention: its batches differ in the last bits.
    engine.warm_up()
    _tokens, done = reply_tokens(engine, EDIT, LONG, Speculative.AUTO)
    assert done.stats.drafted_tokens == 0


def test_auto_drafts_where_batches_decode_exactly(
    exact_engine: Engine, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Whether batches match single tokens is measured for real; what they cost is timing, which a
    # loaded machine can make look as dear as decoding one token at a time (Auto then rightly drafts
    # nothing), so the costs are those of a quiet machine, and no probe another test remembered is used.
    monkeypatch.setenv("GLASSBOX_CACHE", str(tmp_path))

    def quiet_costs(*args: object) -> BatchProbe:
        found = probe_batches(*args)  # type: ignore[arg-type]
        return BatchProbe(found.exact, {size: 1.0 + 0.1 * (size - 1) for size in found.cost})

    monkeypatch.setattr(engine_module, "probe_batches", quiet_costs)
    exact_engine.warm_up()
    plain, _ = reply_tokens(exact_engine, EDIT, LONG, Speculative.OFF)
    drafted, done = reply_tokens(exact_engine, EDIT, LONG, Speculative.AUTO)
    assert drafted == plain and done.stats.accepted_tokens > 0
