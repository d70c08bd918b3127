"""Images in the prompt: the projector (llama.cpp's libmtmd) turns each image into embeddings.

The engine's prompt stays one list of token ids, so that the context window, the token counts,
the prompt cache and the KV shift work on images as on text: an image stands there as its tokens'
worth of one placeholder id (negative, so no vocabulary has it), the same id for the same picture,
so a cached image is reused like cached text. libmtmd may wrap an image in text tokens of the
model's own (Gemma 3's <start_of_image>); those are real ids in the list.

When the prompt is evaluated, each run of placeholders is encoded by the projector and its
embeddings decoded into the KV cache where the run stands (`decode`). An image is only ever
evaluated whole: a cached prefix that ends inside one is cut back to its start (`whole_image_start`).
"""

from __future__ import annotations

import ctypes
import hashlib
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import llama_cpp
import llama_cpp.mtmd_cpp as mtmd

from app.core.inference.llama_log import install_projector_logging
from app.core.support.user_text import N_, fill
from app.core.types.errors import EngineError

_NO_CALLBACK = mtmd.mtmd_helper_post_decode_callback()  # a null function pointer
_KEPT_IMAGES = 32  # prepared images kept per loaded projector (a chat rarely shows more)


@dataclass(frozen=True)
class PromptImage:
    """One image as the prompt holds it."""

    placeholder: int  # the id its image tokens carry in the prompt (< 0)
    tokens: tuple[int, ...]  # what stands for it in the prompt: wrapper text tokens and its placeholders
    n_image_tokens: int
    chunks: mtmd.mtmd_input_chunks_p  # what it was tokenized into (the Projector owns and frees them)
    image_chunk: mtmd.mtmd_input_chunk_p  # the image chunk among them


def is_image_token(token: int) -> bool:
    return token < 0


class Projector:
    """A loaded projector beside one loaded model; close() frees it."""

    def __init__(self, context: mtmd.mtmd_context_p, path: Path) -> None:
        self._context: mtmd.mtmd_context_p | None = context
        self.path = path
        self._images: OrderedDict[int, PromptImage] = OrderedDict()  # by placeholder id

    @classmethod
    def open(cls, path: Path, llama: llama_cpp.Llama, n_threads: int, use_gpu: bool, flash_attn: bool) -> Projector:
        """libmtmd's context for `path` beside `llama`'s model. Raises EngineError when libmtmd refuses it."""
        install_projector_logging()
        params = mtmd.mtmd_context_params_default()
        params.use_gpu = use_gpu
        params.print_timings = False
        params.n_threads = n_threads
        params.warmup = False
        params.flash_attn_type = (
            llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED if flash_attn else llama_cpp.LLAMA_FLASH_ATTN_TYPE_DISABLED
        )
        context = mtmd.mtmd_init_from_file(str(path).encode(), llama.model, params)
        if not context:
            raise EngineError(
                fill(N_("llama.cpp could not load the projector {name} (its log says why)."), name=path.name)
            )
        projector = cls(context, path)
        if not mtmd.mtmd_support_vision(context):
            projector.close()
            raise EngineError(fill(N_("The projector {name} does not read images."), name=path.name))
        if mtmd.mtmd_decode_use_mrope(context):
            projector.close()
            raise EngineError(
                fill(
                    N_(
                        "The projector {name} places image tokens in two dimensions (M-RoPE, as Qwen-VL does); "
                        "Glassbox cannot read images with it yet."
                    ),
                    name=path.name,
                )
            )
        return projector

    def close(self) -> None:
        for image in self._images.values():
            mtmd.mtmd_input_chunks_free(image.chunks)
        self._images.clear()
        if self._context is not None:
            mtmd.mtmd_free(self._context)
            self._context = None

    @property
    def _loaded(self) -> mtmd.mtmd_context_p:
        if self._context is None:
            raise EngineError(N_("No model is loaded."))
        return self._context

    def image(self, path: Path) -> PromptImage:
        """`path` (a prepared image, app/core/chat/images.py) as the prompt holds it; prepared once per picture."""
        data = _read(path)
        placeholder = -1 - int.from_bytes(hashlib.sha256(data).digest()[:4], "little") % (2**30)
        image = self._images.get(placeholder)
        if image is None:
            image = self._tokenize(data, placeholder, path)
            self._images[placeholder] = image
            while len(self._images) > _KEPT_IMAGES:
                mtmd.mtmd_input_chunks_free(self._images.popitem(last=False)[1].chunks)
        self._images.move_to_end(placeholder)
        return image

    def _tokenize(self, data: bytes, placeholder: int, path: Path) -> PromptImage:
        buffer = (ctypes.c_uint8 * len(data)).from_buffer(bytearray(data))
        bitmap = mtmd.mtmd_helper_bitmap_init_from_buf(self._loaded, buffer, len(data), False)
        if not bitmap:
            raise EngineError(fill(N_("llama.cpp could not read the image {name}."), name=path.name))
        chunks = mtmd.mtmd_input_chunks_init()
        try:
            marker = mtmd.mtmd_default_marker()
            text = mtmd.mtmd_input_text()
            text.text, text.text_len, text.add_special, text.parse_special = marker, len(marker), False, True
            bitmaps = (mtmd.mtmd_bitmap_p_ctypes * 1)(bitmap)
            if mtmd.mtmd_tokenize(self._loaded, chunks, ctypes.byref(text), bitmaps, 1) != 0:
                raise EngineError(fill(N_("llama.cpp could not read the image {name}."), name=path.name))
        except EngineError:
            mtmd.mtmd_input_chunks_free(chunks)
            raise
        finally:
            mtmd.mtmd_bitmap_free(bitmap)
        tokens: list[int] = []
        image_chunk, n_image = None, 0
        for index in range(mtmd.mtmd_input_chunks_size(chunks)):
            chunk = mtmd.mtmd_input_chunks_get(chunks, index)
            if mtmd.mtmd_input_chunk_get_type(chunk) == mtmd.MTMD_INPUT_CHUNK_TYPE_TEXT:
                count = ctypes.c_size_t(0)
                ids = mtmd.mtmd_input_chunk_get_tokens_text(chunk, ctypes.byref(count))
                tokens += [int(ids[i]) for i in range(count.value)]
            else:
                image_chunk, n_image = chunk, mtmd.mtmd_input_chunk_get_n_tokens(chunk)
                tokens += [placeholder] * n_image
        if image_chunk is None or not n_image:
            mtmd.mtmd_input_chunks_free(chunks)
            raise EngineError(fill(N_("llama.cpp could not read the image {name}."), name=path.name))
        return PromptImage(placeholder, tuple(tokens), n_image, chunks, image_chunk)

    def decode(self, llama: llama_cpp.Llama, placeholder: int, position: int) -> float:
        """Encode the image whose tokens carry `placeholder` and decode its embeddings into the KV cache
        from `position`; returns the seconds the encoding took. Raises EngineError when llama.cpp fails."""
        image = self._images.get(placeholder)
        if image is None:  # cannot happen while the prompt's images are the latest prepared
            raise EngineError(N_("An image of the prompt is no longer prepared; send the message again."))
        started = time.perf_counter()
        if mtmd.mtmd_encode_chunk(self._loaded, image.image_chunk) != 0:
            raise EngineError(N_("The projector could not encode an image."))
        encoded = time.perf_counter() - started
        embeddings = mtmd.mtmd_get_output_embd(self._loaded)
        new_position = llama_cpp.llama_pos(0)
        failed = mtmd.mtmd_helper_decode_image_chunk(
            self._loaded,
            llama.ctx,
            image.image_chunk,
            embeddings,
            position,
            0,
            llama.n_batch,
            ctypes.byref(new_position),
            _NO_CALLBACK,
            None,
        )
        if failed:
            raise EngineError(N_("llama.cpp could not decode an image's embeddings."))
        return encoded

    def image_length(self, placeholder: int) -> int:
        image = self._images.get(placeholder)
        return image.n_image_tokens if image is not None else 0


def whole_image_start(prompt: Sequence[int], position: int, projector: Projector | None) -> int:
    """`position`, or the start of the image it falls inside (an image is evaluated whole or not at all)."""
    if projector is None or position <= 0 or position >= len(prompt) or not is_image_token(prompt[position]):
        return position
    placeholder = prompt[position]
    start = position
    while start > 0 and prompt[start - 1] == placeholder:
        start -= 1
    length = projector.image_length(placeholder) or 1  # the same picture twice in a row: one run of both
    return start + (position - start) // length * length


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise EngineError(
            fill(N_("The image {path} cannot be read ({strerror})."), path=path, strerror=error.strerror or error)
        ) from error
