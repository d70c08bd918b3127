"""Images attached to a message: checked, scaled down and kept, one file per distinct picture.

Whatever a user drops or an API client sends is read here with Pillow before a model sees it:
PNG, JPEG, WebP, GIF (its first frame) and BMP; anything else, a damaged file, a file that only
has an image's extension, or a picture too large to decode safely is refused with the reason. A
big picture is scaled down so that its longer side is at most MAX_SIDE pixels (a projector works
at a few hundred pixels anyway; more only costs memory and time). The result is written as PNG
into the data folder, named by the SHA-256 of its bytes: the same picture attached twice is one
file, and the engine recognises it in its cache. A file no message shows does not stay: the window
deletes an attachment it prepared and never sent (discard_unsent), the chat history deletes a file
with the last message that shows it and, at start, the strays of a run that ended before it could
(ChatStore.sweep_stray_images: images the command line or the API server prepared, a window that
closed abruptly).
"""

from __future__ import annotations

import hashlib
import io
import logging
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from app.core.paths import app_paths
from app.core.support.atomic import atomic_write
from app.core.support.user_text import N_, fill

FORMATS = ("PNG", "JPEG", "WEBP", "GIF", "BMP")
MAX_SIDE = 2048  # pixels on the longer side of an image as a model gets it
MAX_PIXELS = 64_000_000  # pixels of a picture that is decoded at all (8000 × 8000)
MAX_FILE_BYTES = 50 * 1024 * 1024

log = logging.getLogger(__name__)


class ImageRefused(ValueError):
    """An image that cannot be attached; the message says why, in words for the user."""


@dataclass(frozen=True)
class PreparedImage:
    path: Path  # the PNG a model reads (images_dir()/<sha256>.png)
    width: int
    height: int
    original_width: int
    original_height: int
    created: bool = False  # the file was written now: no message shows it yet

    @property
    def scaled_down(self) -> bool:
        return (self.width, self.height) != (self.original_width, self.original_height)


def images_dir() -> Path:
    return app_paths().data / "images"


def prepare_image_file(path: Path) -> PreparedImage:
    """The image at `path`, checked and prepared; raises ImageRefused."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageRefused(_too_big_file(path.name, size))
        data = path.read_bytes()
    except OSError as error:
        raise ImageRefused(
            fill(N_("The image {name} cannot be read ({strerror})."), name=path.name, strerror=error.strerror or error)
        ) from error
    return prepare_image(data, path.name)


def prepare_image(data: bytes, name: str) -> PreparedImage:
    """`data` (a file's bytes, called `name` in messages) checked and prepared; raises ImageRefused."""
    if len(data) > MAX_FILE_BYTES:
        raise ImageRefused(_too_big_file(name, len(data)))
    picture = _decoded(data, name)
    original = picture.size
    if max(picture.size) > MAX_SIDE:
        picture.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    encoded = io.BytesIO()
    picture.save(encoded, "PNG")
    png = encoded.getvalue()
    target = images_dir() / f"{hashlib.sha256(png).hexdigest()}.png"
    created = not target.exists()
    if created:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, png)
    return PreparedImage(target, picture.width, picture.height, *original, created=created)


def discard_unsent(image: PreparedImage) -> None:
    """Delete a prepared image that was never sent, when preparing it wrote its file (so no message shows it)."""
    if not image.created:
        return
    try:
        image.path.unlink(missing_ok=True)
    except OSError as error:  # kept: a stray file costs only disk space, and the next start sweeps it
        log.warning("The unsent image %s could not be deleted: %s", image.path.name, error)


def _decoded(data: bytes, name: str) -> Image.Image:
    """The first frame of the picture in `data`, upright, as RGB; raises ImageRefused."""
    not_an_image = fill(
        N_("{name} is not an image Glassbox can read: PNG, JPEG, WebP, GIF and BMP are."),
        name=name,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the size is judged below
        try:
            picture = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as error:
            raise ImageRefused(_too_many_pixels(name, None)) from error
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
            raise ImageRefused(not_an_image) from error
        if picture.format not in FORMATS:
            raise ImageRefused(not_an_image)
        width, height = picture.size
        if width * height > MAX_PIXELS:
            raise ImageRefused(_too_many_pixels(name, (width, height)))
        try:
            picture.seek(0)  # a GIF's (or animated WebP's) first frame
            upright = ImageOps.exif_transpose(picture)
            rgb = _on_white(upright)
        except (OSError, SyntaxError, ValueError, EOFError) as error:
            raise ImageRefused(
                fill(N_("The image {name} is damaged and cannot be read ({error})."), name=name, error=error)
            ) from error
    return rgb


def _on_white(picture: Image.Image) -> Image.Image:
    """RGB, transparent parts on white (as a chat shows them)."""
    if picture.mode in ("RGBA", "LA", "P", "PA"):
        rgba = picture.convert("RGBA")
        white = Image.new("RGB", rgba.size, (255, 255, 255))
        white.paste(rgba, mask=rgba.getchannel("A"))
        return white
    return picture.convert("RGB")


def _too_big_file(name: str, size: int) -> str:
    return fill(
        N_("The image {name} is {mib} MiB; images of up to {limit} MiB are read."),
        name=name,
        mib=size // (1024 * 1024),
        limit=MAX_FILE_BYTES // (1024 * 1024),
    )


def _too_many_pixels(name: str, size: tuple[int, int] | None) -> str:
    limit = MAX_PIXELS // 1_000_000
    if size is None:
        return fill(N_("The image {name} is too large to read (at most {limit} megapixels)."), name=name, limit=limit)
    return fill(
        N_("The image {name} has {width}×{height} pixels, too many to read (at most {limit} megapixels)."),
        name=name,
        width=size[0],
        height=size[1],
        limit=limit,
    )
