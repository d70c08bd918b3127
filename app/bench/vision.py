"""The `vision` section: what an image costs, with the synthetic projector (synthetic_projector.py).

No vision model is fetched for the bench, so the model under test gets a projector with random
weights in the real LLaVA layout, sized to its embeddings: the numbers are libmtmd's and
llama.cpp's real work for a 64×64 image of 64 tokens, not those of a real vision tower.

- The projector's encoding time for one image (median over rounds), and the image's tokens.
- Time to first token of a message with one image ÷ the same message without it, both on an
  empty KV cache (per round): what seeing costs before the reply starts. Reported; no target.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from PIL import Image

from app.bench import BenchContext, BenchRow, row
from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.models.gguf_info import read_gguf_info
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, final_reply

SECTION = "vision"
N_CTX = 1024
PROMPT = "Describe this picture in one sentence."
ENCODE = "image encoding (synthetic projector, 64×64)"
TOKENS = "image tokens (synthetic projector, 64×64)"
TTFT = "TTFT with one image ÷ without (per round)"


def run(context: BenchContext) -> list[BenchRow]:
    spec = SyntheticProjector(text_embd=read_gguf_info(context.model_path).embedding_length)
    with tempfile.TemporaryDirectory(prefix="glassbox-vision-bench-") as folder:
        projector = write_synthetic_projector(Path(folder) / "mmproj-synthetic.gguf", spec)
        image = Path(folder) / "picture.png"
        Image.new("RGB", (64, 64), (180, 60, 40)).save(image)
        engine = Engine()
        engine.load(LoadConfig(context.model_path, n_ctx=N_CTX, mmproj=projector))
        try:
            return _measure(engine, image, context)
        finally:
            engine.close()


def _reply(engine: Engine, message: ChatMessage) -> ReplyDone:
    engine.llama.reset()  # an empty KV cache: the whole prompt, the image with it, is evaluated
    return final_reply(engine.stream_chat([message], replace(GREEDY, max_tokens=2), threading.Event()))


def _measure(engine: Engine, image: Path, context: BenchContext) -> list[BenchRow]:
    encode_s: list[float] = []
    with_image: list[float] = []
    without: list[float] = []
    image_tokens = 0
    for _ in context.rounds(3 if context.quick else 7):
        seen = _reply(engine, ChatMessage("user", PROMPT, images=(image,)))
        plain = _reply(engine, ChatMessage("user", PROMPT))
        encode_s.extend(seen.stats.image_encode_s)
        image_tokens = seen.stats.image_tokens
        with_image.append(seen.stats.time_to_first_token_s)
        without.append(plain.stats.time_to_first_token_s)
    ratios = [seen / plain for seen, plain in zip(with_image, without, strict=True) if plain > 0]
    context.details[SECTION] = {
        "image_encode_s": encode_s,
        "image_tokens": image_tokens,
        "ttft_with_image_s": with_image,
        "ttft_without_s": without,
    }
    return [
        row(SECTION, ENCODE, statistics.median(encode_s) * 1000, "ms"),
        row(SECTION, TOKENS, image_tokens, "tokens"),
        row(SECTION, TTFT, statistics.median(ratios) if ratios else float("nan"), "×"),
    ]
