"""The synthetic projector is a real one to libmtmd: it loads beside the starter model and encodes an image."""

from __future__ import annotations

import ctypes
import io
from pathlib import Path

import gguf
import llama_cpp
import llama_cpp.mtmd_cpp as mtmd
import pytest
from PIL import Image

from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector


def test_the_projector_is_written_in_the_layout_clip_reads(tmp_path: Path) -> None:
    path = write_synthetic_projector(tmp_path / "mmproj.gguf", SyntheticProjector())
    reader = gguf.GGUFReader(path)
    names = {tensor.name for tensor in reader.tensors}
    assert {"v.patch_embd.weight", "v.position_embd.weight", "mm.0.weight", "mm.2.weight"} <= names
    assert reader.fields["general.architecture"].contents() == "clip"
    assert reader.fields["clip.projector_type"].contents() == "mlp"
    assert reader.fields["clip.vision.projection_dim"].contents() == 576


@pytest.mark.requires_model  # libmtmd needs the text model the projector feeds
def test_libmtmd_loads_it_beside_the_starter_and_makes_one_token_a_patch(starter_model: Path, tmp_path: Path) -> None:
    spec = SyntheticProjector()
    projector = write_synthetic_projector(tmp_path / "mmproj.gguf", spec)
    model = llama_cpp.llama_model_load_from_file(str(starter_model).encode(), llama_cpp.llama_model_default_params())
    params = mtmd.mtmd_context_params_default()
    params.use_gpu = False
    params.warmup = False
    context = mtmd.mtmd_init_from_file(str(projector).encode(), model, params)
    try:
        assert context is not None
        assert mtmd.mtmd_support_vision(context)
        image = io.BytesIO()
        Image.new("RGB", (100, 80), (200, 10, 10)).save(image, "PNG")
        data = bytearray(image.getvalue())
        buffer = (ctypes.c_uint8 * len(data)).from_buffer(data)
        bitmap = mtmd.mtmd_helper_bitmap_init_from_buf(context, buffer, len(data), False)
        chunks = mtmd.mtmd_input_chunks_init()
        text = mtmd.mtmd_input_text()
        raw = mtmd.mtmd_default_marker()
        text.text, text.text_len, text.add_special, text.parse_special = raw, len(raw), False, True
        assert mtmd.mtmd_tokenize(context, chunks, ctypes.byref(text), (mtmd.mtmd_bitmap_p_ctypes * 1)(bitmap), 1) == 0
        image_chunks = [
            mtmd.mtmd_input_chunks_get(chunks, i)
            for i in range(mtmd.mtmd_input_chunks_size(chunks))
            if mtmd.mtmd_input_chunk_get_type(mtmd.mtmd_input_chunks_get(chunks, i)) == mtmd.MTMD_INPUT_CHUNK_TYPE_IMAGE
        ]
        assert [mtmd.mtmd_input_chunk_get_n_tokens(chunk) for chunk in image_chunks] == [spec.image_tokens]
        assert mtmd.mtmd_encode_chunk(context, image_chunks[0]) == 0
        mtmd.mtmd_input_chunks_free(chunks)
        mtmd.mtmd_bitmap_free(bitmap)
    finally:
        if context is not None:
            mtmd.mtmd_free(context)
        llama_cpp.llama_model_free(model)
