"""Text composed in the core that a person reads: marked here, translated by the UI.

The core stays Qt-free and speaks English: an error, a notice or a note is composed with
`fill(N_("Loading {name} was cancelled."), name=...)` (or a bare `N_("...")` without fields).
`N_` returns its text unchanged; it is the mark that `packaging/translations.py` looks for
to put the template into the translation catalog (context `CONTEXT`). The UI then words the
finished English text again in the reader's language (`app/ui/widgets/core_text.py`): it
finds the template the text was filled from, translates the template and fills it with the
same values, themselves worded again when they are core texts too. So a message can cross
the engine process's pipe, an exception or a Qt signal as a plain string and still be read
in Chinese.
"""

from __future__ import annotations

CONTEXT = "CoreText"  # the translation context of every marked core text


def N_(template: str) -> str:
    """Mark `template` (English, `{name}` placeholders) as text a person reads; returned unchanged."""
    return template
