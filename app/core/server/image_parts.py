"""`image_url` content parts of a chat request, as OpenAI's clients send them.

An image comes as a data URL (`data:image/png;base64,…`); it is decoded, checked and prepared
like an image attached in the window (app/core/chat/images.py), and the message carries the
prepared file. An http(s) address is fetched only where the server's user allowed it
(`glassbox serve --allow-image-urls`): a server that fetched whatever address a request names
would reach into the network it runs in for anyone who can call it. The request is read on the
server's event loop, so a fetch holds the other requests' streams for as long as it takes (at
most FETCH_TIMEOUT_S): one more reason it is off by default.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx2

from app.core.chat.images import MAX_FILE_BYTES, ImageRefused, prepare_image
from app.core.server.errors import invalid

DATA_URL = "data:"
FETCH_TIMEOUT_S = 15.0
MAX_REDIRECTS = 3


def image_part(part: Mapping[str, Any], where: str, fetch_urls: bool = False) -> Path:
    """The prepared image of one `image_url` part; a 400 ApiError naming the part when it is not one.
    `fetch_urls`: an http(s) address is fetched (else refused)."""
    image_url = part.get("image_url")
    if image_url is None:
        raise invalid(where, 'an image_url part needs its "image_url": {"url": "data:image/png;base64,…"}.')
    url = image_url.get("url") if isinstance(image_url, dict) else image_url
    field = f"{where}.image_url"
    if not isinstance(url, str) or not url:
        raise invalid(field, 'must be an object with a "url" (a data URL of the image).')
    if url.startswith(("http://", "https://")):
        if not fetch_urls:
            raise invalid(
                field,
                "this server does not fetch images from addresses; send the image itself as a data URL "
                "(data:image/png;base64,…).",
            )
        data = _fetched(url, field)
    else:
        data = _data_url(url, field)
    try:
        return prepare_image(data, f"the image of {where}").path
    except ImageRefused as error:
        raise invalid(field, str(error)) from None


def _data_url(url: str, field: str) -> bytes:
    if not url.startswith(DATA_URL) or ";base64," not in url:
        raise invalid(field, "must be a data URL with base64 data (data:image/png;base64,…).")
    try:
        return base64.b64decode(url.split(",", 1)[1], validate=True)
    except (binascii.Error, ValueError):
        raise invalid(field, "the data URL's base64 data is damaged.") from None


def _fetched(url: str, field: str) -> bytes:
    """The bytes at `url`, at most MAX_FILE_BYTES of them; a 400 saying why when they cannot be had."""
    data = bytearray()
    try:
        with (
            httpx2.Client(timeout=FETCH_TIMEOUT_S, follow_redirects=True, max_redirects=MAX_REDIRECTS) as client,
            client.stream("GET", url) as response,
        ):
            if response.status_code != 200:
                raise invalid(field, f"fetching {url} answered HTTP {response.status_code}.")
            for chunk in response.iter_bytes():
                data += chunk
                if len(data) > MAX_FILE_BYTES:
                    raise invalid(field, f"the image at {url} is larger than {MAX_FILE_BYTES // 2**20} MiB.")
    except httpx2.HTTPError as error:
        raise invalid(field, f"{url} could not be fetched ({error}).") from None
    return bytes(data)
