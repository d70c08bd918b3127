"""The engine on the real starter model: streaming, stop, stats, text integrity, logs."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace

import pytest

from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.inference.stop_strings import StopStringFilter
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.stats import CacheMiss, StopReason

CHINESE_PROMPT = "请用中文回答：天空是什么颜色？"


def _run(engine: Engine, messages: list[ChatMessage], **overrides: object) -> tuple[list[TokenPiece], ReplyDone]:
    params = replace(GREEDY, **overrides)
    engine.llama.reset()  # evaluate the whole prompt, so the numerics match a fresh reference run
    events = list(engine.stream_chat(messages, params, threading.Event()))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return [e for e in events if isinstance(e, TokenPiece)], done


def test_streamed_pieces_join_to_the_non_streamed_reply(engine: Engine) -> None:
    messages = [ChatMessage("user", "Name three colours of the rainbow.")]
    pieces, done = _run(engine, messages, max_tokens=48)
    engine.llama.reset()
    reference = engine.llama.create_completion(engine.prompt_tokens(messages), temperature=0.0, max_tokens=48)
    assert "".join(p.text for p in pieces) == done.text == reference["choices"][0]["text"]
    assert done.text.strip()


def test_chinese_characters_split_across_tokens_arrive_intact(engine: Engine) -> None:
    messages = [ChatMessage("user", CHINESE_PROMPT)]
    pieces, done = _run(engine, messages, max_tokens=24)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in done.text), done.text
    assert "\ufffd" not in done.text
    # At least one token ended mid-character: its piece was held back until the character was whole.
    assert any(p.text == "" for p in pieces)
    engine.llama.reset()
    reference = engine.llama.create_completion(engine.prompt_tokens(messages), temperature=0.0, max_tokens=24)
    assert done.text == reference["choices"][0]["text"]


def test_a_reply_cut_off_in_the_middle_of_a_character_never_ends_in_a_broken_one(engine: Engine) -> None:
    messages = [ChatMessage("user", CHINESE_PROMPT)]
    pieces, _done = _run(engine, messages, max_tokens=24)
    # The tokens that hold part of a character back (their piece is empty): a token limit there, as a Stop
    # there would, ends the reply in the middle of that character.
    mid_character = [index + 1 for index, piece in enumerate(pieces) if piece.text == ""]
    assert mid_character, "the prompt's reply really has characters split across tokens"
    for limit in mid_character[:3]:  # a character's bytes are split two ways: after its first or its second token
        cut, done = _run(engine, messages, max_tokens=limit)
        assert cut[-1].text == "" and "\ufffd" not in done.text, (limit, done.text)


def test_stop_set_while_a_token_is_handled_ends_the_reply_before_the_next(engine: Engine) -> None:
    stop = threading.Event()
    seen = 0
    counting = [ChatMessage("user", "Count from one to fifty in words.")]
    stream = engine.stream_chat(counting, replace(GREEDY, max_tokens=200), stop)
    for event in stream:
        if isinstance(event, ReplyDone):
            done = event
        else:
            seen += 1
            if seen == 5:
                stop.set()
    assert done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens == 5


def test_stop_from_another_thread_takes_effect_within_one_token(engine: Engine) -> None:
    stop = threading.Event()
    sampled = 0
    at_stop: list[int] = []

    def count(_token: int, _llama: object) -> None:
        nonlocal sampled
        sampled += 1

    def stopper() -> None:
        while sampled < 8:
            time.sleep(0.001)
        at_stop.append(sampled)
        stop.set()

    thread = threading.Thread(target=stopper, name="stopper")
    thread.start()
    story = [ChatMessage("user", "Tell a long story about a fox.")]
    events = list(engine.stream_chat(story, replace(GREEDY, max_tokens=300), stop, count))
    thread.join()
    done = events[-1]
    assert isinstance(done, ReplyDone)
    assert done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens <= at_stop[0] + 1


def test_stop_aborts_prompt_processing_and_the_engine_stays_usable(engine: Engine) -> None:
    stop = threading.Event()
    stop.set()
    long_text = "The quick brown fox jumps over the lazy dog. " * 120
    events = list(engine.stream_chat([ChatMessage("user", long_text)], replace(GREEDY, max_tokens=20), stop))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    assert done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens == 0  # aborted inside the prompt decode, before any token
    _, after = _run(engine, [ChatMessage("user", "Say hello.")], max_tokens=8)
    assert after.stats.completion_tokens > 0 and not after.stats.error


def test_every_reply_reports_its_stats(engine: Engine) -> None:
    _, done = _run(engine, [ChatMessage("user", "What is two plus two?")], max_tokens=6)
    stats = done.stats
    assert stats.prompt_tokens == engine.count_tokens([ChatMessage("user", "What is two plus two?")])
    assert stats.completion_tokens == 6
    assert stats.stop_reason is StopReason.LENGTH
    assert 0 < stats.time_to_first_token_s <= stats.total_s
    assert stats.prompt_eval_tokens_per_s > 0 and stats.generation_tokens_per_s > 0


def test_a_follow_up_turn_reuses_the_cached_prefix(engine: Engine) -> None:
    first = [ChatMessage("user", "Give me a word that rhymes with cat.")]
    _, reply = _run(engine, first, max_tokens=8)
    follow_up = [*first, ChatMessage("assistant", reply.text), ChatMessage("user", "And one with dog?")]
    second = list(engine.stream_chat(follow_up, replace(GREEDY, max_tokens=4), threading.Event()))[-1]
    assert isinstance(second, ReplyDone)
    assert second.stats.cached_prompt_tokens > 0
    assert second.stats.evaluated_prompt_tokens < second.stats.prompt_tokens


def test_a_prompt_longer_than_the_context_is_refused_with_a_reason(engine: Engine) -> None:
    from app.core.types.errors import EngineError, PromptTooLong

    with pytest.raises(EngineError, match="context holds 2048") as refused:
        list(engine.stream_chat([ChatMessage("user", "word " * 3000)], GREEDY, threading.Event()))
    assert isinstance(refused.value, PromptTooLong)
    assert refused.value.n_ctx == 2048 and refused.value.prompt_tokens > 3000


def test_a_grammar_allows_only_the_tokens_it_describes(engine: Engine) -> None:
    answer = 'root ::= "yes" | "no"'
    messages = [ChatMessage("user", "Write a long story about a dragon.")]
    done = list(engine.stream_chat(messages, replace(GREEDY, max_tokens=20), threading.Event(), grammar=answer))[-1]
    assert isinstance(done, ReplyDone)
    assert done.text in ("yes", "no")
    assert done.stats.stop_reason is StopReason.END_OF_TEXT  # once the grammar is complete only the end may follow


@pytest.mark.expected_log("llama.cpp", logging.ERROR, r".")
def test_a_grammar_llama_cpp_cannot_parse_is_refused_before_the_reply(engine: Engine) -> None:
    from app.core.types.errors import EngineError

    with pytest.raises(EngineError, match="grammar could not be parsed"):
        engine.stream_chat([ChatMessage("user", "Hi")], GREEDY, threading.Event(), grammar="root ::= (")
    done = list(engine.stream_chat([ChatMessage("user", "Hi")], replace(GREEDY, max_tokens=3), threading.Event()))[-1]
    assert isinstance(done, ReplyDone) and done.stats.completion_tokens == 3  # the engine is still fine


def test_llama_cpp_log_lines_arrive_in_python_logging_with_levels(
    starter_model: object, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    from app.core.types.load import LoadConfig

    printing = threading.Event()

    def other_thread_prints() -> None:
        while not printing.is_set():
            print("other thread still prints", flush=True)
            time.sleep(0.005)

    printer = threading.Thread(target=other_thread_prints, name="printer")
    caplog.set_level(logging.DEBUG, logger="llama.cpp")
    engine = Engine()
    printer.start()
    try:
        engine.load(LoadConfig(starter_model, n_ctx=256))  # type: ignore[arg-type]
    finally:
        printing.set()
        printer.join()
        engine.close()
    records = [r for r in caplog.records if r.name == "llama.cpp"]
    kv_lines = [r for r in records if "llama_kv_cache: size =" in r.getMessage()]
    assert kv_lines and all(r.levelno == logging.INFO for r in kv_lines)
    assert any(r.levelno == logging.DEBUG for r in records)
    assert all(not r.getMessage().endswith("\n") for r in records)
    out, err = capfd.readouterr()
    assert "other thread still prints" in out  # the load did not swallow the process's stdout
    assert "llama_kv_cache" not in err


@pytest.mark.parametrize(
    ("pieces", "expected_text", "hit"),
    [
        (["Hello", " wor", "ld"], "Hello world", False),
        (["Answer: 4", "\nUs", "er:", " more"], "Answer: 4", True),
        (["a", "\nUs", "ually"], "a\nUsually", False),
    ],
)
def test_stop_strings_cut_the_reply_and_hold_back_only_possible_starts(
    pieces: list[str], expected_text: str, hit: bool
) -> None:
    stop = StopStringFilter(["\nUser:"])
    shown: list[str] = []
    was_hit = False
    for piece in pieces:
        visible, was_hit = stop.feed(piece)
        shown.append(visible)
        if was_hit:
            break
    if not was_hit:
        shown.append(stop.flush())
    assert "".join(shown) == expected_text
    assert was_hit is hit


def test_dropping_old_turns_shifts_the_cache_instead_of_re_evaluating_the_rest(engine: Engine) -> None:
    system = ChatMessage("system", "You are a concise assistant.")
    turns = [
        ChatMessage("user", "Name a fruit that is yellow and curved."),
        ChatMessage("assistant", "A banana is yellow and curved."),
        ChatMessage("user", "Name a vegetable that is orange and long, and say how people usually cook it."),
        ChatMessage("assistant", "A carrot is orange and long; people often roast or boil carrots."),
        ChatMessage("user", "Which of the two has more sugar?"),
    ]
    engine.llama.reset()
    first = list(engine.stream_chat([system, *turns], replace(GREEDY, max_tokens=12), threading.Event()))[-1]
    assert isinstance(first, ReplyDone)
    # The window drops the first exchange; the kept turns are already in the KV cache, further along.
    slid = [system, *turns[2:], ChatMessage("assistant", first.text), ChatMessage("user", "And which is crunchier?")]
    system_only = engine.count_tokens([system])
    new_turn = engine.count_tokens(slid) - engine.count_tokens(slid[:-1])
    second = list(engine.stream_chat(slid, replace(GREEDY, max_tokens=8), threading.Event()))[-1]
    assert isinstance(second, ReplyDone)
    assert not second.stats.error and second.stats.completion_tokens > 0
    # Without the shift only the system prompt would come from the cache.
    assert second.stats.cached_prompt_tokens > system_only + 40
    assert second.stats.evaluated_prompt_tokens <= new_turn + 8
    assert second.stats.cache_miss is CacheMiss.CONTEXT_SHIFT


def test_each_reply_says_why_its_prompt_cache_missed(engine: Engine) -> None:
    system = ChatMessage("system", "You are a concise assistant.")
    first = [system, ChatMessage("user", "Give me a word that rhymes with cat.")]
    params = replace(GREEDY, max_tokens=6)

    def reply(messages: list[ChatMessage]) -> ReplyDone:
        done = list(engine.stream_chat(messages, params, threading.Event()))[-1]
        assert isinstance(done, ReplyDone)
        return done

    engine.llama.reset()
    opening = reply(first)
    assert opening.stats.cache_miss is CacheMiss.FIRST_TURN
    follow_up = [*first, ChatMessage("assistant", opening.text), ChatMessage("user", "And one with dog?")]
    continued = reply(follow_up)
    assert continued.stats.cache_miss is CacheMiss.NONE
    edited = [*first, ChatMessage("assistant", opening.text), ChatMessage("user", "And one with frog?")]
    assert reply(edited).stats.cache_miss is CacheMiss.EDITED_HISTORY  # the message before the reply was edited
    other_system = [ChatMessage("system", "You are a pirate."), *edited[1:]]
    assert reply(other_system).stats.cache_miss is CacheMiss.SYSTEM_PROMPT
