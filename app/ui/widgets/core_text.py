"""Text composed in the core, shown in the reader's language.

The core hands on `UserText` values (`app/core/support/user_text.py`): the English text
together with its template and fields, through exceptions (`text_of`), the engine process's
pipe and Qt signals typed `object`. Here the template is translated (context `CoreText`) and
the translation filled with the fields, each translated the same way when it is a core text
too. A template the catalog does not know falls back to its English, filled. A plain string
is translated only when it is a whole bare template (`N_("New chat")`, a stop reason); any
other string (a model's own words, an operating-system message) is shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.support.user_text import CONTEXT, UserText, fill_template, text_of


def word(text: object) -> str:
    """A core text (or an exception that carries one) in the reader's language."""
    said = text_of(text)
    if not said:
        return said
    if isinstance(said, UserText):
        values = {name: word(value) for name, value in said.fields.items()}
        return fill_template(QCoreApplication.translate(CONTEXT, said.template), values)
    return QCoreApplication.translate(CONTEXT, said)
