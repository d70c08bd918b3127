"""What one of the engine's parallel slots (app/core/inference/slots.py) is doing: shown in the Server panel."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class SlotWork(str, enum.Enum):
    IDLE = "idle"  # no reply: its cache waits for its conversation's next turn
    READING = "reading"  # reading a prompt, in chunks between the other slots' tokens
    WRITING = "writing"  # writing a reply, one token a step


@dataclass(frozen=True)
class SlotState:
    slot: int
    work: SlotWork
    cached: int = 0  # tokens in the slot's KV cache
    prompt_tokens: int = 0  # the reply's prompt (0 when idle)
    read: int = 0  # of which in the cache now
    written: int = 0  # tokens of the reply so far
    max_tokens: int = 0  # the reply's limit within the slot
