"""Attached images are checked with Pillow before any model sees them: the formats a chat takes are read
(a GIF's first frame), big pictures are scaled down, and everything else is refused with the reason."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from app.core.chat.images import MAX_SIDE, ImageRefused, images_dir, prepare_image, prepare_image_file


def _encoded(image: Image.Image, image_format: str, **options: object) -> bytes:
    data = io.BytesIO()
    image.save(data, image_format, **options)
    return data.getvalue()


@pytest.mark.parametrize("image_format", ["PNG", "JPEG", "WEBP", "BMP", "GIF"])
def test_each_format_a_chat_takes_is_prepared_as_a_png_in_the_data_folder(image_format: str) -> None:
    prepared = prepare_image(_encoded(Image.new("RGB", (40, 30), (10, 200, 10)), image_format), f"p.{image_format}")
    assert prepared.path.parent == images_dir()
    with Image.open(prepared.path) as written:
        assert (written.format, written.size, written.mode) == ("PNG", (40, 30), "RGB")
    assert not prepared.scaled_down


def test_the_same_picture_twice_is_one_file() -> None:
    data = _encoded(Image.new("RGB", (20, 20), (1, 2, 3)), "PNG")
    assert prepare_image(data, "a.png").path == prepare_image(data, "b.png").path
    assert len(list(images_dir().iterdir())) == 1


def test_a_gif_gives_its_first_frame() -> None:
    frames = [Image.new("RGB", (16, 16), colour) for colour in ((255, 0, 0), (0, 0, 255))]
    data = io.BytesIO()
    frames[0].save(data, "GIF", save_all=True, append_images=frames[1:])
    with Image.open(prepare_image(data.getvalue(), "anim.gif").path) as written:
        red, _, blue = written.getpixel((8, 8))  # type: ignore[misc]
    assert red > 200 and blue < 50


def test_a_big_picture_is_scaled_down_to_the_limit_keeping_its_shape() -> None:
    prepared = prepare_image(_encoded(Image.new("RGB", (MAX_SIDE * 2, MAX_SIDE)), "PNG"), "wide.png")
    assert (prepared.width, prepared.height) == (MAX_SIDE, MAX_SIDE // 2)
    assert (prepared.original_width, prepared.original_height) == (MAX_SIDE * 2, MAX_SIDE)
    assert prepared.scaled_down


def test_transparency_is_shown_on_white() -> None:
    prepared = prepare_image(_encoded(Image.new("RGBA", (8, 8), (0, 0, 0, 0)), "PNG"), "clear.png")
    with Image.open(prepared.path) as written:
        assert written.getpixel((4, 4)) == (255, 255, 255)


def test_a_damaged_image_is_refused_as_damaged() -> None:
    data = _encoded(Image.new("RGB", (64, 64), (5, 5, 5)), "PNG")
    with pytest.raises(ImageRefused, match=r"broken\.png is damaged"):
        prepare_image(data[: len(data) // 2], "broken.png")


def test_a_20000_by_20000_picture_is_refused_before_it_is_decoded() -> None:
    # A PNG whose header declares 20000 × 20000 pixels (1.2 GB as RGB); its data is never reached.
    header = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"")) + _chunk(b"IEND", b"")
    with pytest.raises(ImageRefused, match=r"huge\.png .*too (many|large).*at most 64 megapixels"):
        prepare_image(data, "huge.png")


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_a_text_file_with_an_image_extension_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "holiday.jpg"
    fake.write_text("these are not the pixels you are looking for")
    with pytest.raises(ImageRefused, match=r"holiday\.jpg is not an image Glassbox can read: PNG, JPEG"):
        prepare_image_file(fake)


def test_an_image_of_another_format_is_refused() -> None:
    with pytest.raises(ImageRefused, match="is not an image Glassbox can read"):
        prepare_image(_encoded(Image.new("RGB", (8, 8)), "TIFF"), "scan.tiff")


def test_a_missing_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(ImageRefused, match=r"gone\.png cannot be read"):
        prepare_image_file(tmp_path / "gone.png")
