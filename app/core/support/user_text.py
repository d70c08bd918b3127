"""Text composed in the core that a person reads: marked here, carried as a template and its fields.

The core stays Qt-free and speaks English: an error, a notice or a note is composed with
`fill(N_("Loading {name} was cancelled."), name=...)` (or a bare `N_("...")` without fields).
`N_` returns its text unchanged; it is the mark that `packaging/translations.py` looks for
to put the template into the translation catalog (context `CONTEXT`).

`fill` returns a `UserText`: a `str` that reads as the filled English text (logs, the CLI and
the API server use it as it is) and still knows its template and fields. It pickles with both,
so it crosses the engine process's pipe unchanged; `text_of(error)` takes it back out of an
exception. The UI (`app/ui/widgets/core_text.py`) translates the template and fills the
translation with the fields, themselves translated when they are core texts too: nothing is
read back out of the English words.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

CONTEXT = "CoreText"  # the translation context of every marked core text


def N_(template: str) -> str:
    """Mark `template` (English, `{name}` placeholders) as text a person reads; returned unchanged."""
    return template


class UserText(str):
    """English text filled from a template, that keeps the template and its fields for translation.

    Any str operation sees only the English text (and gives a plain str). A field keeps a
    `UserText` value as it is, so a message inside a message is translated too; every other
    value is kept as the text it was filled in as.
    """

    template: str
    fields: dict[str, str]

    def __new__(cls, template: str, fields: Mapping[str, object] | None = None) -> UserText:
        kept = {name: text_of(value) for name, value in (fields or {}).items()}
        text = super().__new__(cls, fill_template(template, kept))
        text.template = template
        text.fields = kept
        return text

    def __reduce__(self) -> tuple[type[UserText], tuple[str, dict[str, str]]]:
        return (UserText, (self.template, self.fields))


def fill(template: str, **values: object) -> str:
    """Put values into `{name}` placeholders of a template (see `fill_template` for the rules).

    The text is a `UserText` that keeps the template and the values; it is typed `str`, as it
    is used wherever a str is, so that a variable may hold either.
    """
    return UserText(template, values)


def text_of(value: object) -> str:
    """What `value` says: an exception's `UserText` message (when it has one) kept as it is, else str(value)."""
    if isinstance(value, UserText):
        return value
    if isinstance(value, BaseException) and len(value.args) == 1 and isinstance(value.args[0], UserText):
        held = value.args[0]
        if str(value) == held:  # a class that words its own message says something else
            return held
    return str.__str__(value) if isinstance(value, str) else str(value)


class _Fields(dict[str, object]):
    """Leaves a placeholder that has no value as it is, so a translation with a typo still shows."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORMATTER = string.Formatter()


def fill_template(template: str, values: Mapping[str, object]) -> str:
    """Put values into `{name}` placeholders of a (translated) template, as a plain str.

    Unlike `str.format`, braces that are not a plain `{name}` placeholder (JSON, code in a
    message) and placeholders without a value are left as they are, and the values' own
    braces are never read as placeholders.
    """
    fields = _Fields(values)
    parts: list[str] = []
    for literal, name, spec, conversion in _parse(template):
        parts.append(literal)
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            parts.append(_raw(name, spec, conversion))
            continue
        value = fields[name]
        parts.append(value if isinstance(value, str) else str(value))
    return "".join(parts)


def _parse(template: str) -> list[tuple[str, str | None, str, str | None]]:
    try:
        return [(lit, name, spec or "", conv) for lit, name, spec, conv in _FORMATTER.parse(template)]
    except ValueError:  # an unmatched brace: nothing in it is a placeholder
        return [(template, None, "", None)]


def _raw(name: str, spec: str, conversion: str | None) -> str:
    inner = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
    return "{" + inner + "}"
