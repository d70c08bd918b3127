"""How many tokens a piece of text takes: a model's tokenizer when there is one, an estimate otherwise.

The estimate errs on the high side so that chunks chosen to fit a budget still fit once the
model's tokenizer counts them: about 4 characters or 3/4 of a word per token for text in
alphabets, 1.5 per character for Chinese, Japanese and Korean (whose characters are often
one token or more each).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

TextTokenCounter = Callable[[str], int]

_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002ffff]")
_WORD = re.compile(r"\w+")
_SYMBOL = re.compile(r"[^\w\s]")


def estimate_tokens(text: str) -> int:
    """A model-free token count: the larger of the character and word estimates, plus CJK characters."""
    cjk = len(_CJK_CHAR.findall(text))
    rest = _CJK_CHAR.sub(" ", text) if cjk else text
    words = len(_WORD.findall(rest))
    symbols = len(_SYMBOL.findall(rest))
    by_chars = len(rest.strip()) / 4
    by_words = words * 4 / 3 + symbols / 2
    return math.ceil(max(by_chars, by_words) + cjk * 1.5)
