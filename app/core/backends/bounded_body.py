"""A server's answer read only up to a stated size: the server does not decide how much memory Glassbox spends.

httpx reads a whole body into memory when asked for it; these read a response opened as a
stream piece by piece and stop at the limit, far above any honest answer (a model list, a
token list, a server's description of itself).
"""

from __future__ import annotations

import json
from typing import Any

import httpx2

MAX_JSON_BYTES = 16 * 1024 * 1024


class BodyTooLarge(ValueError):
    """The body is longer than `limit` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a body over {limit} bytes")
        self.limit = limit


def read_json(response: httpx2.Response, limit: int = MAX_JSON_BYTES) -> Any:
    """The body as JSON. ValueError when it is not JSON, is nested too deep to read, or is longer
    than `limit` (BodyTooLarge); httpx2.HTTPError when the connection fails while reading."""
    body = bytearray()
    for chunk in response.iter_bytes():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge(limit)
    try:
        return json.loads(body)
    except RecursionError as error:
        raise ValueError("JSON nested too deep to read") from error
