"""Query strings taken out of every URL that reaches the log.

The Hub answers a download with a redirect to its CDN whose address carries a signature
(`?X-Amz-Signature=…&X-Amz-Credential=…&Expires=…`): whoever reads the log within the
hour could fetch the file as the user. Glassbox's own messages, httpx2's and httpcore's
("HTTP Request: GET https://…") and the tracebacks of their errors all name URLs, so the
redaction sits where every record is made (the log record factory), not in each handler:
the file, the console, the Logs panel and a test's capture all see the same, redacted record.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Mapping
from typing import Any

REDACTED = "[redacted]"

_QUERY = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s?#'\"<>]*)\?[^\s#'\"<>]*", re.IGNORECASE)
_PLAIN = (int, float, bool, type(None))  # arguments that cannot hold a URL, kept as they are for %d and %f

_installed = False
_install_lock = threading.Lock()


def redact_urls(text: str) -> str:
    """`text` with the query string of each URL in it replaced by [redacted]; the rest is kept."""
    if "://" not in text or "?" not in text:
        return text
    return _QUERY.sub(rf"\1?{REDACTED}", text)


def redact_record(record: logging.LogRecord) -> None:
    """Redact the record's message, its arguments and its traceback in place."""
    if isinstance(record.msg, str):
        record.msg = redact_urls(record.msg)
    if isinstance(record.args, Mapping):
        record.args = {key: _redact_arg(value) for key, value in record.args.items()}
    elif isinstance(record.args, tuple):
        record.args = tuple(_redact_arg(value) for value in record.args)
    if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
        record.exc_text = redact_urls(logging.Formatter().formatException(record.exc_info))


def _redact_arg(value: Any) -> Any:
    if isinstance(value, _PLAIN):
        return value
    try:
        text = str(value)  # an httpx.URL, a Request, an exception: what %s would show
    except Exception:  # logging must never raise into the code that logged; the handler reports it
        return value
    redacted = redact_urls(text)
    return value if redacted == text else redacted


def install_redaction() -> None:
    """Make every log record of this process redacted as it is created (once; later calls do nothing)."""
    global _installed
    with _install_lock:
        if _installed:
            return
        make_record = logging.getLogRecordFactory()

        def redacting_factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = make_record(*args, **kwargs)
            redact_record(record)
            return record

        logging.setLogRecordFactory(redacting_factory)
        _installed = True
