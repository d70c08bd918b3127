"""llama.cpp's log lines arrive as records of logger `llama.cpp`; an abort Glassbox asked for is not an error."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from app.core.inference import llama_log

GGML_ERROR = 4
ABORT_LINES = [
    "graph_compute: ggml_backend_sched_graph_compute_async failed with error 1",
    "process_ubatch: failed to compute graph, compute status: 1",
    "llama_decode: failed to decode, ret = 2",
]


@pytest.fixture
def assembler() -> Iterator[llama_log._LineAssembler]:
    yield llama_log._LineAssembler()
    llama_log.abort_handled()


def test_lines_of_an_abort_glassbox_asked_for_are_logged_at_debug(
    assembler: llama_log._LineAssembler, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="llama.cpp")
    llama_log.abort_requested()
    for line in ABORT_LINES:
        assembler.feed(GGML_ERROR, line + "\n")
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.DEBUG, f"{line} (stopped on request)") for line in ABORT_LINES
    ]


@pytest.mark.expected_log("llama.cpp", logging.ERROR, r"llama_decode: failed to decode, ret = 2")
@pytest.mark.expected_log("llama.cpp", logging.ERROR, r"GGML_ASSERT")
def test_the_same_lines_without_a_requested_abort_stay_errors(
    assembler: llama_log._LineAssembler, caplog: pytest.LogCaptureFixture
) -> None:
    llama_log.abort_requested()
    llama_log.abort_handled()  # the aborted decode returned: what comes now is real
    assembler.feed(GGML_ERROR, "llama_decode: failed to decode, ret = 2\n")
    llama_log.abort_requested()
    assembler.feed(GGML_ERROR, "GGML_ASSERT(eps >= 0.0f) failed\n")  # not an abort line: an error even mid-abort
    assert [r.levelno for r in caplog.records if r.name == "llama.cpp"] == [logging.ERROR, logging.ERROR]
