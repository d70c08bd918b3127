"""A request's JSON body, read within the server's limits: its size, its nesting and its Unicode.

Python's JSON reader recurses once per level, so a body of a few hundred kilobytes nested
100,000 levels deep ends in a RecursionError; and JSON's `\\ud800` escape reads as a lone
surrogate, a string that cannot be encoded as UTF-8 and would fail only in the engine, as
an engine error. Both are the client's mistake, so both are a 400 in OpenAI's shape that
says what is wrong (and, for the text, which field); nothing deeper than `MAX_DEPTH`
reaches an endpoint, so no later step recurses past Python's limit either. llama-server and
OpenAI refuse a lone surrogate the same way, rather than replacing it.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

from app.core.server.errors import ApiError, invalid

MAX_DEPTH = 64  # levels of objects and lists; a chat request uses 4, a deep JSON schema a dozen or two
# A \uD800-\uDFFF escape: only then can a string hold a surrogate, so only then are the strings looked at.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


async def read_json(chunks: AsyncIterator[bytes], length: str, limit: int) -> dict[str, Any]:
    """The body as a JSON object; an ApiError (413, 400) when it is too large, not JSON, too deep or not Unicode.

    `length` is the Content-Length header ("" when absent), refused before anything is read."""
    too_large = ApiError(413, f"The request body is larger than this server's limit of {limit} bytes.", code="too_big")
    if length.isdigit() and int(length) > limit:
        raise too_large
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise too_large
        parts.append(chunk)
    raw = b"".join(parts)
    return parse_json(raw)


def parse_json(raw: bytes) -> dict[str, Any]:
    """`raw` as a JSON object within MAX_DEPTH levels whose strings are all valid Unicode, or a 400."""
    try:
        body = json.loads(raw)
    except RecursionError:
        raise _too_deep() from None
    except ValueError:
        raise ApiError(400, "The request body is not valid JSON.", code="invalid_json") from None
    if not isinstance(body, dict):
        raise ApiError(400, "The request body must be a JSON object.", code="invalid_json")
    _check_depth(body)
    if _SURROGATE_ESCAPE.search(raw):
        _check_unicode(body)
    return body


def _too_deep() -> ApiError:
    return ApiError(
        400,
        f"The request body is nested more than {MAX_DEPTH} levels deep; this server reads at most {MAX_DEPTH}.",
        code="invalid_json",
    )


def _check_depth(body: dict[str, Any]) -> None:
    """Without recursion: a body just under Python's recursion limit must not reach it here."""
    level: list[Any] = [body]
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            raise _too_deep()
        below: list[Any] = []
        for value in level:
            below.extend(child for child in _children(value) if isinstance(child, dict | list))
        level = below
        depth += 1


def _check_unicode(body: dict[str, Any]) -> None:
    """A 400 naming the first field (or key) that holds a lone surrogate."""
    stack: list[tuple[Any, str]] = [(body, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            if not _is_unicode(value):
                raise invalid(
                    where or "body", "the text is not valid Unicode (it holds a lone surrogate such as \\ud800)."
                )
        elif isinstance(value, dict):
            for key, child in reversed(value.items()):
                path = f"{where}.{key}" if where else str(key)
                if not _is_unicode(key):
                    raise invalid(where or "body", "a field name is not valid Unicode (it holds a lone surrogate).")
                stack.append((child, path))
        elif isinstance(value, list):
            stack.extend((child, f"{where}[{index}]") for index, child in reversed(list(enumerate(value))))


def _children(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return value
    return []


def _is_unicode(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
