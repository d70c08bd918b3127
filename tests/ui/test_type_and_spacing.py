"""Text sizes follow the user's font and spacing follows one scale, everywhere in app/ui."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from app.ui.widgets.theme import SPACING_SCALE
from tests.repo import REPO_ROOT

UI = REPO_ROOT / "app" / "ui"
SPACING_CALLS = {"setSpacing", "setContentsMargins", "setHorizontalSpacing", "setVerticalSpacing", "addSpacing"}
FIXED_SIZE = re.compile(r"font-size\s*:\s*\d+(\.\d+)?\s*(px|pt)", re.IGNORECASE)


def _calls(path: Path) -> list[ast.Call]:
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.Call)]


def _name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def test_no_text_size_is_fixed_in_pixels_or_points() -> None:
    fixed = []
    for path in sorted(UI.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        fixed += [f"{path.name}: {m.group(0)}" for m in FIXED_SIZE.finditer(text)]
        fixed += [
            f"{path.name}:{call.lineno}: {_name(call)}"
            for call in _calls(path)
            if _name(call) in ("setPointSize", "setPixelSize") and any(isinstance(a, ast.Constant) for a in call.args)
        ]
    assert fixed == []  # use relative_font(font, factor) from app.ui.widgets.theme


def test_every_margin_and_gap_is_on_the_spacing_scale() -> None:
    off_scale = [
        f"{path.relative_to(UI)}:{call.lineno}: {ast.unparse(call)}"
        for path in sorted(UI.rglob("*.py"))
        for call in _calls(path)
        if _name(call) in SPACING_CALLS
        and any(isinstance(a, ast.Constant) and a.value not in SPACING_SCALE for a in call.args)
    ]
    assert off_scale == []


def test_the_checks_see_a_fixed_size_and_an_odd_gap() -> None:
    assert FIXED_SIZE.search("QLabel { font-size: 11px; }")
    assert 10 not in SPACING_SCALE and 8 in SPACING_SCALE
