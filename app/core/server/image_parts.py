"""`image_url` content parts of a chat request, as OpenAI's clients send them.

An image comes as a data URL (`data:image/png;base64,…`); it is decoded, checked and prepared
like an image attached in the window (app/core/chat/images.py), and the message carries the
prepared file. Addresses (http, https) are not fetched: a server that fetched whatever address
a request names would reach into the network it runs in for anyone who can call it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from app.core.chat.images import ImageRefused, prepare_image
from app.core.server.errors import invalid

DATA_URL = "data:"


def image_part(part: Mapping[str, Any], where: str) -> Path:
    """The prepared image of one `image_url` part; a 400 ApiError naming the part when it is not one."""
    image_url = part.get("image_url")
    if image_url is None:
        raise invalid(where, 'an image_url part needs its "image_url": {"url": "data:image/png;base64,…"}.')
    url = image_url.get("url") if isinstance(image_url, dict) else image_url
    if not isinstance(url, str) or not url:
        raise invalid(f"{where}.image_url", 'must be an object with a "url" (a data URL of the image).')
    if url.startswith(("http://", "https://")):
        raise invalid(
            f"{where}.image_url",
            "this server does not fetch images from addresses; send the image itself as a data URL "
            "(data:image/png;base64,…).",
        )
    if not url.startswith(DATA_URL) or ";base64," not in url:
        raise invalid(f"{where}.image_url", "must be a data URL with base64 data (data:image/png;base64,…).")
    encoded = url.split(",", 1)[1]
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise invalid(f"{where}.image_url", "the data URL's base64 data is damaged.") from None
    try:
        return prepare_image(data, f"the image of {where}").path
    except ImageRefused as error:
        raise invalid(f"{where}.image_url", str(error)) from None
