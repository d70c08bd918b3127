"""Loads model files one by one in this process, as the engine does, and says how each went.

Run by the fuzz test as a child process: it reads one path a line on stdin and answers one line
on stdout, "loaded", or "failed <kind>: <message>" for a failure Python saw. If llama.cpp aborts
or crashes on a file, the process dies from the signal instead, and the test sees that.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage


def main() -> None:
    engine = Engine()
    for line in sys.stdin:
        try:
            engine.load(LoadConfig(Path(line.strip()), n_ctx=64, n_batch=64, n_threads=1))
            engine.warm_up()
            engine.complete_chat([ChatMessage("user", "Hi\n")], replace(GREEDY, max_tokens=1))
            answer = "loaded"
        except Exception as error:  # the test tells a clean failure from a crash; it wants the kind
            answer = f"failed {type(error).__name__}: {str(error)[:200]!r}"
        finally:
            engine.close()
        print(answer, flush=True)


if __name__ == "__main__":
    main()
