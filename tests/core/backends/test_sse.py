"""The SSE parser turns arbitrary byte pieces into the data of each event, in order."""

from __future__ import annotations

import pytest

from app.core.backends.sse import MAX_EVENT_BYTES, EventTooLarge, SSEParser


def feed_all(*chunks: bytes) -> list[str]:
    parser = SSEParser()
    events: list[str] = []
    for chunk in chunks:
        events += parser.feed(chunk)
    return events + parser.close()


def test_each_event_ends_at_a_blank_line() -> None:
    assert feed_all(b'data: {"a": 1}\n\ndata: [DONE]\n\n') == ['{"a": 1}', "[DONE]"]


def test_crlf_and_cr_line_ends_are_lines_too() -> None:
    assert feed_all(b"data: one\r\n\r\ndata: two\r\rdata: three\n\n") == ["one", "two", "three"]


def test_a_line_split_between_two_reads_is_joined() -> None:
    assert feed_all(b'data: {"con', b'tent": "hi"}\n', b"\n") == ['{"content": "hi"}']


def test_a_crlf_split_between_two_reads_is_one_line_end() -> None:
    assert feed_all(b"data: one\r", b"\n\r", b"\ndata: two\r\n\r\n") == ["one", "two"]


def test_a_character_split_between_two_reads_is_decoded_whole() -> None:
    encoded = "data: é\n\n".encode()
    assert feed_all(encoded[:7], encoded[7:]) == ["é"]


def test_comments_and_other_fields_carry_no_data() -> None:
    assert feed_all(b": keep-alive\n\nevent: message\nid: 7\nretry: 10\ndata: x\n\n") == ["x"]


def test_data_lines_of_one_event_are_joined_with_newlines() -> None:
    assert feed_all(b"data: first\ndata: second\n\n") == ["first\nsecond"]


def test_an_event_not_ended_by_a_blank_line_still_counts_at_the_end() -> None:
    assert feed_all(b"data: last") == ["last"]


def test_a_malformed_payload_is_passed_on_as_it_came() -> None:
    assert feed_all(b"data: {not json\n\n") == ["{not json"]


def test_a_long_line_fed_in_small_pieces_is_read_whole() -> None:
    line = b"data: " + b"x" * (1024 * 1024) + b"\n\n"
    pieces = [line[start : start + 4096] for start in range(0, len(line), 4096)]
    assert feed_all(*pieces) == ["x" * (1024 * 1024)]


def test_a_line_over_the_limit_is_refused_before_it_ends() -> None:
    parser = SSEParser()
    piece = b"x" * (1024 * 1024)
    with pytest.raises(EventTooLarge) as refused:
        for _ in range(MAX_EVENT_BYTES // len(piece) + 1):
            parser.feed(piece)
    assert refused.value.limit == MAX_EVENT_BYTES


def test_data_lines_of_one_event_are_refused_together_past_the_limit() -> None:
    parser = SSEParser()
    line = b"data: " + b"x" * (1024 * 1024) + b"\n"
    with pytest.raises(EventTooLarge):
        for _ in range(MAX_EVENT_BYTES // len(line) + 1):
            parser.feed(line)


def test_events_under_the_limit_add_up_to_any_length() -> None:
    parser = SSEParser()
    event = b"data: " + b"x" * (1024 * 1024) + b"\n\n"
    received = sum(len(parser.feed(event)) for _ in range(MAX_EVENT_BYTES // len(event) + 2))
    assert received == MAX_EVENT_BYTES // len(event) + 2
