"""Chat-view cost per appended token, with about 1k, 10k and 50k tokens already in the view.

Each step is what the app does per streamed token at the worst case: queue the text, flush
it into the streaming message, and let Qt lay out and paint (processEvents). The target is
that the cost does not grow with the length of the conversation (ratio 50k/1k <= 1.5).
"""

from __future__ import annotations

import statistics
import time

from app.bench import BenchContext, BenchRow, row

SECTION = "chat view"
TRANSCRIPT_SIZES = (1_000, 10_000, 50_000)
TOKENS_PER_MESSAGE = 250
WORDS = "the quick brown fox jumps over a lazy dog while `code` and **bold** words stream by".split()


def run(context: BenchContext) -> list[BenchRow]:
    from app.bench.qt_offscreen import bench_application
    from app.ui.chat.view import ChatView

    app = bench_application()
    appended = 150 if context.quick else 400
    repeats = 2 if context.quick else 3
    costs: dict[int, float] = {}
    for size in TRANSCRIPT_SIZES:
        view = ChatView()
        view.resize(900, 700)
        view.show()
        _fill(view, size)
        app.processEvents()
        samples = [_cost_per_token(view, app, appended) for _ in range(repeats)]
        costs[size] = statistics.median(samples)
        view.close()
        view.deleteLater()
        app.processEvents()
    context.details[SECTION] = {"microseconds_per_token": {k: v * 1e6 for k, v in costs.items()}, "appended": appended}
    rows = [
        row(SECTION, f"cost per appended token, {size // 1000}k-token transcript", costs[size] * 1e6, "µs")
        for size in TRANSCRIPT_SIZES
    ]
    rows.append(row(SECTION, "ratio 50k/1k", costs[50_000] / costs[1_000], "ratio", "<= 1.5"))
    return rows


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
