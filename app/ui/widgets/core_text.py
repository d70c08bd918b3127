"""Text composed in the core, worded again in the reader's language.

The core fills English templates marked with `N_()` (see `app/core/support/user_text.py`) and
hands on plain strings: through exceptions, the engine process's pipe and Qt signals. Here a
finished string is matched against the templates the catalog translates; the template's
translation (context `CoreText`) is filled with the values read back out of the string, and
each value that is itself a core text is worded again. A string that matches no template (a
model's own words, an operating-system message) is shown as it is.

`install(templates)` is called by the shell with the templates of the language in use (none
for English, so nothing is matched there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from app.core.support.formatting import fill
from app.core.support.user_text import CONTEXT

_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")
_MAX_DEPTH = 4  # values inside values: a reason inside an error inside a notice
_MAX_CHARS = 4000  # longer text is not a message the core composed (a model's or a server's own words)


@dataclass(frozen=True)
class _Template:
    source: str
    pattern: re.Pattern[str]
    fields: tuple[str, ...]
    literals: tuple[str, ...]  # the text between the placeholders, in order

    def may_match(self, text: str) -> bool:
        """A quick test before the pattern: the template's fixed words begin and end `text`, in order."""
        if not (text.startswith(self.literals[0]) and text.endswith(self.literals[-1])):
            return False
        position = len(self.literals[0])
        for literal in self.literals[1:-1]:
            position = text.find(literal, position)
            if position < 0:
                return False
            position += len(literal)
        return True


def _compile(source: str) -> _Template | None:
    """A pattern that reads the values back out of a filled `source`; None for a bare placeholder like "{error}"."""
    parts: list[str] = []
    fields: list[str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(source):
        parts.append(re.escape(source[position : match.start()]))
        name = match.group(1)
        parts.append(f"(?P={name})" if name in fields else f"(?P<{name}>.*?)")
        if name not in fields:
            fields.append(name)
        position = match.end()
    parts.append(re.escape(source[position:]))
    literals = tuple(_PLACEHOLDER.split(source)[::2])
    if not any(character.isalpha() for character in "".join(literals)):
        return None
    return _Template(source, re.compile("".join(parts), re.DOTALL), tuple(fields), literals)


class CoreTexts:
    """The templates of one catalog, most specific (longest literal text) first."""

    def __init__(self, templates: Iterable[str] = ()) -> None:
        self._exact: set[str] = set()
        compiled: list[_Template] = []
        for source in templates:
            if not _PLACEHOLDER.search(source):
                self._exact.add(source)
            elif (template := _compile(source)) is not None:
                compiled.append(template)
        compiled.sort(key=lambda t: len(_PLACEHOLDER.sub("", t.source)), reverse=True)
        self._templates = compiled

    def __len__(self) -> int:
        return len(self._exact) + len(self._templates)

    def word(self, text: str, depth: int = 0) -> str:
        """`text` in the reader's language when it was filled from a known template, else unchanged."""
        if not text or depth > _MAX_DEPTH or len(text) > _MAX_CHARS:
            return text
        if text in self._exact:
            return QCoreApplication.translate(CONTEXT, text)
        for template in self._templates:
            if not template.may_match(text):
                continue
            match = template.pattern.fullmatch(text)
            if match is None:
                continue
            values = {name: self.word(match.group(name), depth + 1) for name in template.fields}
            return fill(QCoreApplication.translate(CONTEXT, template.source), **values)
        return text


_installed = CoreTexts()


def install(templates: Iterable[str]) -> None:
    """Use `templates` (the core texts the language's catalog translates) from now on."""
    global _installed
    _installed = CoreTexts(templates)


def word(text: str) -> str:
    """A core text in the reader's language (unchanged when it is not one, or in English)."""
    return _installed.word(text)
