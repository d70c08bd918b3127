"""Math in replies is shown as formulas: scripts raised and lowered, symbols as Unicode; money and code stay text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCharFormat, QTextDocument
from pytestqt.qtbot import QtBot

from app.ui.widgets.markdown import render_markdown
from app.ui.widgets.markdown_math import protect_math
from app.ui.widgets.tex_math import MathRun, Place, math_runs, plain_math

RAISED = QTextCharFormat.VerticalAlignment.AlignSuperScript
LOWERED = QTextCharFormat.VerticalAlignment.AlignSubScript


@pytest.fixture
def document(qtbot: QtBot) -> QTextDocument:
    return QTextDocument()


def formats(document: QTextDocument) -> list[tuple[str, QTextCharFormat]]:
    """Every run of the document's text with its format."""
    runs = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            runs.append((fragment.text(), fragment.charFormat()))
            fragments += 1
        block = block.next()
    return runs


def test_a_square_is_raised_and_an_index_lowered() -> None:
    assert math_runs("x^2 + y_1") == (
        MathRun("x", italic=True),
        MathRun("2", Place.RAISED),
        MathRun(" + "),
        MathRun("y", italic=True),
        MathRun("1", Place.LOWERED),
    )


@pytest.mark.parametrize(
    ("tex", "shown"),
    [
        (r"\alpha \le \beta", "α ≤ β"),
        (r"\frac{a+b}{2}", "(a + b)/2"),
        (r"\frac{1}{2}", "1/2"),
        (r"x = \frac{-b \pm c}{2a}", "x = (−b ± c)/(2a)"),  # a product below the line is bracketed too
        (r"\sqrt{\pi}", "√π"),
        (r"\sqrt[3]{8}", "3√8"),
        (r"\int_0^\infty e^{-x} dx", "∫0∞\u2009e−xdx"),
        (r"\lim_{x \to 0} \frac{\sin x}{x} = 1", "limx→0\u2009sin\u2009x/x = 1"),
        (r"\hat{x} + \vec{v}", "x\u0302 + v\u20d7"),
        (r"\mathbb{R} \times \mathbf{v}", "ℝ × 𝐯"),
        (r"\begin{pmatrix}1&2\\3&4\end{pmatrix}", "(1\u20032; 3\u20034)"),
    ],
)
def test_common_constructs_read_as_their_unicode(tex: str, shown: str) -> None:
    assert plain_math(tex) == shown


def test_a_roots_radicand_is_overlined() -> None:
    runs = math_runs(r"\sqrt{x+1}")
    assert runs is not None and runs[0] == MathRun("√") and all(run.overline for run in runs[1:])


def test_a_display_matrix_puts_each_row_on_a_line_of_its_own() -> None:
    assert plain_math(r"\begin{matrix}a&b\\c&d\end{matrix}", display=True) == "a\u2003b\u2028c\u2003d"


def test_tex_that_does_not_read_is_none_so_it_is_shown_as_written() -> None:
    assert math_runs(r"\frac{1}{") is None  # a formula still streaming
    assert math_runs("x^") is None


TEX_PIECES = [*"{}^_&\\ab12+-()[]|", r"\frac", r"\sqrt", r"\left", r"\right", r"\begin{matrix}", r"\end{matrix}",
              r"\over", r"\text{", r"\hat", r"\binom", r"\sum", r"\sqrt["]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TEX_PIECES), max_size=24).map("".join))
def test_any_tex_a_model_writes_either_reads_or_is_none_and_never_raises(tex: str) -> None:
    runs = math_runs(tex)
    assert runs is None or all(isinstance(run, MathRun) for run in runs)


def test_inline_math_in_a_reply_has_raised_scripts_and_italic_variables(document: QTextDocument) -> None:
    render_markdown(document, "Einstein: $E = mc^2$.")
    assert document.toPlainText() == "Einstein: E = mc2."
    shown = dict(formats(document))
    assert shown["2"].verticalAlignment() == RAISED
    assert shown["E"].fontItalic() and shown["mc"].fontItalic()


@pytest.mark.parametrize(
    "text",
    [r"A \(\alpha_i\) here", r"A $\alpha_i$ here"],
)
def test_both_inline_delimiters_are_math_and_markdown_does_not_eat_the_tex(document: QTextDocument, text: str) -> None:
    render_markdown(document, text)
    assert document.toPlainText() == "A αi here"
    assert dict(formats(document))["i"].verticalAlignment() == LOWERED


@pytest.mark.parametrize("text", ["$$\n\\sum_{i=1}^n i\n$$", "\\[\n\\sum_{i=1}^n i\n\\]"])
def test_a_display_formula_on_lines_of_its_own_is_a_centred_paragraph(document: QTextDocument, text: str) -> None:
    render_markdown(document, f"The sum:\n{text}\nis small.")
    blocks = document.toPlainText().split("\n")
    assert blocks == ["The sum:", "∑i=1n\u2009i", "is small."]
    assert document.findBlockByNumber(1).blockFormat().alignment() & Qt.AlignmentFlag.AlignHCenter


def test_math_inside_bold_stays_bold(document: QTextDocument) -> None:
    render_markdown(document, "**so $a_1 + b_1$ holds**")
    assert document.toPlainText() == "so a1 + b1 holds"  # not "a1 + b1" with Markdown's italics eating the _
    assert all(fmt.fontWeight() > 400 for _text, fmt in formats(document))


def test_prices_stay_prices(document: QTextDocument) -> None:
    for text in ("It costs $5 and $10.", "From $5 to $6, or US$7.", "Save $ 5 now, $3 later"):
        assert protect_math(text) == (text, [])
        render_markdown(document, text)
        assert document.toPlainText() == text


def test_code_is_never_read_as_math(document: QTextDocument) -> None:
    text = "Use `$x^2$` or\n```\nprint('$a_1$')\n```\nbut $y^2$ is math."
    render_markdown(document, text)
    lines = document.toPlainText().split("\n")
    assert lines[0].startswith("Use $x^2$ or")
    assert "print('$a_1$')" in lines
    assert lines[-1] == "but y2 is math."


def test_a_formula_that_does_not_read_is_shown_as_written(document: QTextDocument) -> None:
    render_markdown(document, r"Streaming $\frac{1}{$ so far")
    assert document.toPlainText() == r"Streaming $\frac{1}{$ so far"


def test_hovering_a_formula_shows_its_tex_escaped(document: QTextDocument) -> None:
    render_markdown(document, r"See $a<b^2$.")
    tooltip = dict(formats(document))["a"].toolTip()
    assert "$a&lt;b^2$" in tooltip and "<b^" not in tooltip


def test_text_holding_the_placeholder_character_is_left_alone() -> None:
    text = "odd \ue0000\ue001 text with $x$"
    assert protect_math(text) == (text, [])
