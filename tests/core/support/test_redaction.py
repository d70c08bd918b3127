"""Signed download links never reach the log whole: every URL loses its query string."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from app.core.support.log_buffer import LogBuffer
from app.core.support.logging_setup import LOG_FILE_NAME, setup_logging
from app.core.support.redaction import redact_urls

SIGNED = (
    "https://cdn-lfs.hf.co/repos/ab/cd/model.gguf?response-content-disposition=attachment"
    "&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=0123abcd&Expires=1764600000"
)
SECRETS = ("X-Amz-Signature", "0123abcd", "AKIAEXAMPLE", "Expires")


@pytest.fixture
def redacting_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, LogBuffer]]:
    """The app's logging set up in a temporary folder, with a Logs-panel buffer; all taken down afterwards."""
    root = logging.getLogger()
    handlers, level, factory = list(root.handlers), root.level, logging.getLogRecordFactory()
    monkeypatch.setattr("app.core.support.redaction._installed", False)
    path = setup_logging(tmp_path, level=logging.DEBUG)
    buffer = LogBuffer(capacity=100)
    root.addHandler(buffer)
    yield path, buffer
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)
    logging.setLogRecordFactory(factory)


def test_a_url_keeps_its_address_and_loses_its_query() -> None:
    assert redact_urls(f"Redirected to {SIGNED} (302)") == (
        "Redirected to https://cdn-lfs.hf.co/repos/ab/cd/model.gguf?[redacted] (302)"
    )
    assert redact_urls("no address here? none") == "no address here? none"
    assert redact_urls("https://huggingface.co/api/models/x/y") == "https://huggingface.co/api/models/x/y"


def test_signed_urls_in_messages_and_arguments_reach_the_log_file_and_the_buffer_without_their_query(
    redacting_log: tuple[Path, LogBuffer],
) -> None:
    path, buffer = redacting_log
    logging.getLogger("app.core.hub.downloads.transfer").info("Downloading from " + SIGNED)
    logging.getLogger("httpx2").info('HTTP Request: %s %s "%s %d %s"', "GET", httpx2.URL(SIGNED), "HTTP/1.1", 200, "OK")
    logging.getLogger("httpcore.http11").debug(
        "send_request_headers.started request=<Request [%(url)s]>", {"url": SIGNED}
    )
    try:
        raise httpx2.HTTPStatusError(f"Client error '403 Forbidden' for url '{SIGNED}'", request=None, response=None)  # type: ignore[arg-type]
    except httpx2.HTTPStatusError:
        logging.getLogger("app.core.hub.downloads.job").debug("The transfer failed", exc_info=True)
    for handler in logging.getLogger().handlers:
        handler.flush()
    written = (path.parent / LOG_FILE_NAME).read_text(encoding="utf-8")
    shown = "\n".join(entry.message for entry in buffer.entries())
    assert written.count("model.gguf?[redacted]") == 4
    assert '"HTTP/1.1 200 OK"' in written
    for secret in SECRETS:
        assert secret not in written
        assert secret not in shown
    assert "Traceback" in shown and "for url 'https://cdn-lfs.hf.co/repos/ab/cd/model.gguf?[redacted]'" in shown
