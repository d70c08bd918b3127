"""Text from elsewhere (a server, a model) made inert before it is printed on a terminal.

A control sequence in a server's error message or in a model's reply could move the cursor,
rewrite what was printed before, retitle the window or, on some terminals, have the terminal
answer as if it were typed. Every C0 and C1 control but newline and tab is shown as its escape
(`\\x1b`) instead, so it is seen and does nothing.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    return _CONTROL.sub(lambda control: f"\\x{ord(control.group()):02x}", text)
