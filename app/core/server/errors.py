"""Errors in OpenAI's shape: `{"error": {"message", "type", "param", "code"}}` with an HTTP status.

Clients (the official `openai` library among them) read `message` and show it, and `param`
names the request field that was wrong, so every refusal says what to change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

INVALID_REQUEST = "invalid_request_error"
AUTHENTICATION = "authentication_error"
PERMISSION = "permission_error"
SERVER_ERROR = "server_error"
UNAVAILABLE = "service_unavailable"


class ApiError(Exception):
    """A request the server refuses or cannot serve; becomes the HTTP error response."""

    def __init__(
        self,
        status: int,
        message: str,
        param: str | None = None,
        kind: str = INVALID_REQUEST,
        code: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.kind = kind
        self.code = code
        self.headers = dict(headers or {})

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.kind, "param": self.param, "code": self.code}}


def invalid(param: str, message: str) -> ApiError:
    """A 400 for one field of the request, named in the message and in `param`."""
    return ApiError(400, f"Invalid '{param}': {message}", param=param, code="invalid_value")
