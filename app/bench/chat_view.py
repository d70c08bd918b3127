"""Chat-view cost per appended token, with about 1k, 10k and 50k tokens already in the view.

Each step is what the app does per streamed token at the worst case: queue the text, flush
it into the streaming message, and let Qt lay out and paint (processEvents). The target is
that the cost does not grow with the length of the conversation (ratio 50k/1k <= 1.5).

Each round measures every transcript size in a view filled afresh (in an order that rotates),
so a round's 50k/1k ratio compares two views that saw the same machine, and no round's
appended text lengthens the next round's transcript.
"""

from __future__ import annotations

import statistics
import time

from app.bench import BenchContext, BenchRow, judged, row

SECTION = "chat view"
TRANSCRIPT_SIZES = (1_000, 10_000, 50_000)
TOKENS_PER_MESSAGE = 250
TARGET = "<= 1.5"
WORDS = "the quick brown fox jumps over a lazy dog while `code` and **bold** words stream by".split()


def run(context: BenchContext) -> list[BenchRow]:
    from app.bench.qt_offscreen import bench_application

    app = bench_application()
    appended = 150 if context.quick else 400
    costs: dict[int, list[float]] = {size: [] for size in TRANSCRIPT_SIZES}
    loop = context.rounds(3 if context.quick else 7)
    loop.judge(TARGET, lambda: _growth(costs))
    for index in loop:
        shift = index % len(TRANSCRIPT_SIZES)
        for size in TRANSCRIPT_SIZES[shift:] + TRANSCRIPT_SIZES[:shift]:
            costs[size].append(_measure(app, size, appended))
    median = {size: statistics.median(values) for size, values in costs.items()}
    context.details[SECTION] = {
        "microseconds_per_token": {size: [v * 1e6 for v in values] for size, values in costs.items()},
        "appended": appended,
    }
    rows = [
        row(SECTION, f"cost per appended token, {size // 1000}k-token transcript", median[size] * 1e6, "µs")
        for size in TRANSCRIPT_SIZES
    ]
    rows.append(judged(SECTION, "ratio 50k/1k (per round)", _growth(costs), "ratio", TARGET))
    return rows


def _growth(costs: dict[int, list[float]]) -> list[float]:
    """Each round's cost per token with 50k tokens in the view over the cost with 1k."""
    return [large / small for large, small in zip(costs[50_000], costs[1_000], strict=True)]


def _measure(app: object, size: int, appended: int) -> float:
    """Seconds per appended token in a view freshly filled with about `size` tokens."""
    from app.ui.chat.view import ChatView

    view = ChatView()
    view.resize(900, 700)
    view.show()
    _fill(view, size)
    app.processEvents()  # type: ignore[attr-defined]
    try:
        return _cost_per_token(view, app, appended)
    finally:
        view.close()
        view.deleteLater()
        app.processEvents()  # type: ignore[attr-defined]


def _fill(view: object, tokens: int) -> None:
    """Alternate user and assistant messages of ~250 tokens (one word is about one token)."""
    for index in range(max(1, tokens // TOKENS_PER_MESSAGE)):
        words = [WORDS[(index + i) % len(WORDS)] for i in range(TOKENS_PER_MESSAGE)]
        role = "user" if index % 2 == 0 else "assistant"
        view.add_message(role, " ".join(words))  # type: ignore[attr-defined]


def _cost_per_token(view: object, app: object, appended: int) -> float:
    view.begin_reply()  # type: ignore[attr-defined]
    app.processEvents()  # type: ignore[attr-defined]
    started = time.perf_counter()
    for index in range(appended):
        view.append_tokens(WORDS[index % len(WORDS)] + " ")  # type: ignore[attr-defined]
        view.flush()  # type: ignore[attr-defined]
        app.processEvents()  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - started
    view.finish_reply(view.live_text())  # type: ignore[attr-defined]
    app.processEvents()  # type: ignore[attr-defined]
    return elapsed / appended
