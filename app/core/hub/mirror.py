"""Which Hugging Face Hub Glassbox talks to: the mirror chosen in the settings, else `HF_ENDPOINT`, else huggingface.co.

Where huggingface.co cannot be reached (mainland China, a company network), a mirror that
serves the same API (hf-mirror.com, a company's own) is the way to models. The settings
section `hub` keeps the one the user chose in the Models window; the settings store is its
one owner and hands it here with `use_mirror` whenever it loads or changes, so every Hub
request, download and link of the process follows it. Empty, `HF_ENDPOINT` from the
environment is used as before, then huggingface.co.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from app.core.support.formatting import fill
from app.core.support.user_text import N_

DEFAULT_ENDPOINT = "https://huggingface.co"
KNOWN_MIRROR = "https://hf-mirror.com"  # a public mirror, named in the hint when the Hub is unreachable
_chosen = {"mirror": ""}  # the settings' mirror in effect ("" : none); written only by `use_mirror`


def use_mirror(endpoint: str) -> None:
    """Talk to `endpoint` from now on ("" : `HF_ENDPOINT` from the environment, else huggingface.co)."""
    _chosen["mirror"] = normal_endpoint(endpoint)


def chosen_mirror() -> str:
    """The mirror chosen in the settings, "" when none is."""
    return _chosen["mirror"]


def hub_endpoint() -> str:
    """The Hub to talk to now (`HF_ENDPOINT` is read now, not at import)."""
    return normal_endpoint(chosen_mirror() or os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT)


def normal_endpoint(text: str) -> str:
    """An address as it is kept: without surrounding spaces or a trailing slash."""
    return text.strip().rstrip("/")


def endpoint_problem(text: str) -> str | None:
    """Why `text` cannot be a Hub address (a core text), or None when it can ("" is: no mirror)."""
    text = normal_endpoint(text)
    if not text:
        return None
    address = urlparse(text)
    if address.scheme not in ("http", "https") or not address.hostname:
        return fill(
            N_("{address} is not a web address; a Hub mirror looks like {example}."), address=text, example=KNOWN_MIRROR
        )
    if address.query or address.fragment:
        return fill(N_("{address} has a query or a fragment; give the mirror's address alone."), address=text)
    return None
