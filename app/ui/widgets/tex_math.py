"""TeX math as runs of text a rich-text document can show: Unicode symbols, superscripts, subscripts.

Qt's text documents cannot typeset TeX (nor show MathML), so a formula is turned into what
they can show: `latex2mathml` reads the TeX (Greek letters, operators, arrows, blackboard and
bold letters come out as their Unicode characters), and the MathML it writes is walked into
runs of text, each with its place (on the line, raised, lowered), italic for one-letter
variables and an overline for what a root covers. Fractions read `a/b` (with brackets around
a numerator or a denominator of more than one term), roots `√x̅`, matrices and cases one row
a line in a display formula (`;` between rows inline), big operators take their limits as
scripts (`∑ᵢ₌₁ⁿ`), accents combine with their letter (`x̂`, `v⃗`).

TeX that does not read (a formula still being streamed, a typo) gives None: the caller
shows the source as it was written. Nothing here loads anything: the MathML is our own
converter's output, read without entities or external references.
"""

from __future__ import annotations

import functools
import logging
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, replace
from enum import Enum

from latex2mathml.converter import convert

log = logging.getLogger(__name__)

_NS = "{http://www.w3.org/1998/Math/MathML}"
THIN_SPACE = "\u2009"
LINE_SEPARATOR = "\u2028"  # a line break inside a paragraph
# Operators set apart by spaces when they join two terms (relations and binary operators).
_SPACED = frozenset("=<>≤≥≠≈≡∼≃≅∝→←↔⇒⇐⇔↦∈∉∋⊂⊃⊆⊇∪∩∧∨+−±∓×÷·∗⋅∘⊕⊗∣≪≫≺≻⊥∥:")
_BIG_OPERATORS = frozenset("∑∏∐∫∬∭∮⋃⋂⋁⋀⨁⨂")
# An accent over one letter becomes the combining character that draws it there.
_COMBINING = {"^": "\u0302", "ˆ": "\u0302", "~": "\u0303", "˜": "\u0303", "¯": "\u0304", "‾": "\u0305",
              "―": "\u0305", "˙": "\u0307", "¨": "\u0308", "→": "\u20d7", "ˇ": "\u030c", "˘": "\u0306",
              "´": "\u0301", "`": "\u0300"}  # fmt: skip


_SCRIPTED = {"msup": 2, "msub": 2, "mover": 2, "munder": 2, "msubsup": 3, "munderover": 3}  # and their parts


class Place(Enum):
    LINE = "line"
    RAISED = "raised"  # a superscript
    LOWERED = "lowered"  # a subscript


@dataclass(frozen=True)
class MathRun:
    """A piece of a formula with one look."""

    text: str
    place: Place = Place.LINE
    italic: bool = False
    overline: bool = False


@dataclass(frozen=True)
class _Look:
    place: Place = Place.LINE
    overline: bool = False

    @property
    def compact(self) -> bool:
        """Scripts are set tight: no spaces around their operators."""
        return self.place is not Place.LINE


@functools.lru_cache(maxsize=512)
def math_runs(tex: str, display: bool = False) -> tuple[MathRun, ...] | None:
    """The formula `tex` as runs of text; None when it is not TeX that reads."""
    try:
        root = ElementTree.fromstring(convert(tex, display="block" if display else "inline"))
    except Exception as error:  # a model's TeX trips the converter in many ways (a dozen error classes of its
        # own, and IndexError or KeyError on some unfinished input): each means "does not read"
        log.debug("TeX not shown as math (%s: %s): %r", type(error).__name__, error, tex[:80])
        return None
    try:
        runs = _Walker(display).children(root, _Look())
    except RecursionError:  # scripts of scripts some hundreds deep: shown as written
        return None
    return _merged(runs) if any(run.text.strip() for run in runs) else None


def plain_math(tex: str, display: bool = False) -> str | None:
    """The formula as one line of text (scripts lose their raising), for a screen reader or a test."""
    runs = math_runs(tex, display)
    return None if runs is None else "".join(run.text for run in runs)


class _Walker:
    def __init__(self, display: bool) -> None:
        self.display = display

    def children(self, element: ElementTree.Element, look: _Look) -> list[MathRun]:
        runs: list[MathRun] = []
        kids = list(element)
        for index, child in enumerate(kids):
            runs += self.node(child, look, joins=index > 0)
            if _is_operator(child) and index + 1 < len(kids):  # sin x, log₂ n, ∑ᵢ i: a space after it
                runs.append(MathRun(THIN_SPACE, look.place, overline=look.overline))
        return runs

    def node(self, element: ElementTree.Element, look: _Look, joins: bool = False) -> list[MathRun]:
        tag = element.tag.removeprefix(_NS)
        text = element.text or ""
        if tag == "mi":
            if text == "&":  # an alignment point of `aligned`
                return []
            if text in _SPACED:  # an operator the converter set as an identifier (±, ∓)
                return [MathRun(self.spaced(text, look, joins), look.place, overline=look.overline)]
            italic = len(text) == 1 and ((text.isascii() and text.isalpha()) or "α" <= text <= "ω")
            italic = italic and element.get("mathvariant") != "normal"
            return [MathRun(text, look.place, italic=italic, overline=look.overline)]
        if tag in ("mn", "mtext", "ms"):
            return [MathRun(text, look.place, overline=look.overline)]
        if tag == "mo":
            return [MathRun(self.spaced(text, look, joins), look.place, overline=look.overline)]
        if tag == "mspace":
            return [MathRun(LINE_SEPARATOR if element.get("linebreak") == "newline" else " ", look.place)]
        parts = list(element)
        if tag in _SCRIPTED and len(parts) == _SCRIPTED[tag]:
            return self.scripted(tag, parts, look)
        if tag == "mfrac" and len(parts) == 2:
            return self.fraction(parts, look, element.get("linethickness") == "0")
        if tag == "msqrt":
            return [MathRun("√", look.place), *self.children(element, replace(look, overline=True))]
        if tag == "mroot" and len(parts) == 2:
            return [*self.node(parts[1], replace(look, place=Place.RAISED)), MathRun("√", look.place),
                    *self.node(parts[0], replace(look, overline=True))]  # fmt: skip
        if tag == "mtable":
            return self.table(element, look)
        if tag == "mphantom":
            return []
        return self.children(element, look)  # math, mrow, mstyle, mpadded, menclose, merror …

    def spaced(self, text: str, look: _Look, joins: bool) -> str:
        if text in _BIG_OPERATORS:
            return text
        if text == ",":
            return ", " if not look.compact else ","
        if text in _SPACED and joins and not look.compact:
            return f" {text} "
        return text

    def scripted(self, tag: str, parts: list[ElementTree.Element], look: _Look) -> list[MathRun]:
        base, *scripts = parts
        base_runs = self.node(base, look)
        if tag == "mover" and len(scripts) == 1:
            accent = _accented(base_runs, scripts[0])
            if accent is not None:
                return accent
        if tag == "munder" and len(scripts) == 1 and _text(scripts[0]) in ("⏟", "_", "‾"):
            return base_runs  # an underbrace's brace
        raised, lowered = replace(look, place=Place.RAISED), replace(look, place=Place.LOWERED)
        if tag in ("msup", "mover"):
            return [*base_runs, *self.node(scripts[0], raised)]
        if tag in ("msub", "munder"):
            return [*base_runs, *self.node(scripts[0], lowered)]
        below, above = scripts
        return [*base_runs, *self.node(below, lowered), *self.node(above, raised)]

    def fraction(self, parts: list[ElementTree.Element], look: _Look, binomial: bool) -> list[MathRun]:
        numerator, denominator = self.node(parts[0], look), self.node(parts[1], look)
        if binomial:  # \binom: the brackets are around it already
            return [*numerator, MathRun(" ", look.place), *denominator]
        return [*_bracketed(numerator, look), MathRun("/", look.place, overline=look.overline),
                *_bracketed(denominator, look, product=True)]  # fmt: skip

    def table(self, element: ElementTree.Element, look: _Look) -> list[MathRun]:
        runs: list[MathRun] = []
        between_rows = LINE_SEPARATOR if self.display else "; "
        for row_index, row in enumerate(element):
            if row_index:
                runs.append(MathRun(between_rows, look.place))
            for cell_index, cell in enumerate(row):
                if cell_index:
                    runs.append(MathRun("\u2003", look.place))  # an em space between the columns
                runs += self.children(cell, look)
        return runs


def _text(element: ElementTree.Element) -> str:
    return "".join(element.itertext())


def _is_operator(element: ElementTree.Element) -> bool:
    """An operator name (sin, log, lim: letters, more than one) or a big operator, alone or with its limits."""
    tag = element.tag.removeprefix(_NS)
    if tag in _SCRIPTED and len(element):
        return _is_operator(element[0])
    text = element.text or ""
    return tag in ("mi", "mo") and ((len(text) > 1 and text.isalpha()) or text in _BIG_OPERATORS)


def _accented(base: list[MathRun], accent: ElementTree.Element) -> list[MathRun] | None:
    """One letter with its accent as a combining character (an overline over anything); None for a longer base."""
    mark = _COMBINING.get(_text(accent))
    if mark == "\u0305":  # \overline: the font's overline, as long as what it covers
        return [replace(run, overline=True) for run in base]
    letters = [run for run in base if run.text]
    if mark is None or len(letters) != 1 or len(letters[0].text) != 1:
        return None
    return [replace(letters[0], text=letters[0].text + mark)]


def _bracketed(runs: list[MathRun], look: _Look, product: bool = False) -> list[MathRun]:
    """A fraction's part, in brackets when it is more than one term (so `a+b/2` cannot be misread); with
    `product` (a denominator), also when it is a product: `1/(2a)`, not `1/2a`."""
    text = "".join(run.text for run in runs)
    factors = sum(1 for run in runs if run.place is look.place)
    simple = not any(ch in text for ch in " +−-=,/") and not (product and factors > 1)
    if simple:
        return runs
    return [MathRun("(", look.place), *runs, MathRun(")", look.place)]


def _merged(runs: list[MathRun]) -> tuple[MathRun, ...]:
    """Neighbouring runs with the same look joined into one."""
    merged: list[MathRun] = []
    for run in runs:
        if not run.text:
            continue
        if merged and replace(merged[-1], text="") == replace(run, text=""):
            merged[-1] = replace(run, text=merged[-1].text + run.text)
        else:
            merged.append(run)
    return tuple(merged)
