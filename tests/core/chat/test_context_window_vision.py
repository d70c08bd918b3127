"""The context window with images (the starter model and the synthetic projector, tests/helpers/vision.py):
each image counts its projector tokens, and an old image leaves the window whole, with its message.
The replies are nonsense (random projector weights); only the window and the KV cache are checked."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

from app.core.chat.context_window import ContextWindow, WindowPolicy
from app.core.chat.context_window import WindowTurn as Msg
from app.core.inference.engine import Engine
from app.core.inference.projector import is_image_token
from app.core.inference.sampling import GREEDY
from app.core.types.replies import ReplyDone, final_reply
from tests.helpers.vision import PROJECTOR, picture

FILLER = "Tell me one more thing about lighthouses, their keepers and the ships they guide at night."


def _conversation(image: Path, turns: int) -> list[Msg]:
    messages = [Msg(0, "user", "What is in this picture?", images=(image,)), Msg(1, "assistant", "A red square.")]
    for index in range(2, turns):
        role = "user" if index % 2 == 0 else "assistant"
        messages.append(Msg(index, role, f"{FILLER} ({index})"))
    return messages


def test_an_image_counts_its_projector_tokens_in_the_window(vision_engine: Engine, tmp_path: Path) -> None:
    window = ContextWindow(vision_engine)
    image = picture(tmp_path)
    with_image = window.plan("", [Msg(0, "user", "Look.", images=(image,))], vision_engine.n_ctx, 64, with_ids=True)
    without = window.plan("", [Msg(0, "user", "Look.")], vision_engine.n_ctx, 64)
    assert sum(map(is_image_token, with_image.prompt_ids)) == PROJECTOR.image_tokens
    assert with_image.prompt_tokens >= without.prompt_tokens + PROJECTOR.image_tokens
    assert with_image.estimated_tokens == with_image.prompt_tokens


def test_the_window_slides_past_an_old_image_dropping_it_whole(vision_engine: Engine, tmp_path: Path) -> None:
    window = ContextWindow(vision_engine)
    image = picture(tmp_path)
    n_ctx, reserve = vision_engine.n_ctx, 64
    params = replace(GREEDY, max_tokens=4)
    vision_engine.llama.reset()
    short = window.plan("", _conversation(image, 3), n_ctx, reserve, WindowPolicy.ROLLING, with_ids=True)
    assert short.kept_ids[0] == 0 and sum(map(is_image_token, short.prompt_ids)) == 64
    first = final_reply(vision_engine.stream_chat(short.messages, params, threading.Event()))
    assert first.stats.image_tokens == 64

    long = window.plan("", _conversation(image, 40), n_ctx, reserve, WindowPolicy.ROLLING, with_ids=True)
    assert 0 in long.outside_ids  # the image's message left the window
    assert not any(is_image_token(token) for token in long.prompt_ids)  # and no piece of its image stayed
    assert long.prompt_tokens <= n_ctx - reserve
    events = list(vision_engine.stream_chat(long.messages, params, threading.Event()))
    done = events[-1]
    assert isinstance(done, ReplyDone) and not done.stats.error
    assert done.stats.image_tokens == 0
    cached = vision_engine.llama.input_ids[: vision_engine.llama.n_tokens]
    assert not any(is_image_token(int(token)) for token in cached)  # the KV cache holds no image token
