"""The house rules that keep the core testable without a display."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "app" / "core"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_core_module_mentions_qt_in_its_imports() -> None:
    offenders = {
        str(path.relative_to(CORE)): sorted(m for m in _imported_modules(path) if m.split(".")[0] in {"PySide6", "shiboken6"})
        for path in CORE.rglob("*.py")
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_importing_every_core_module_does_not_load_qt() -> None:
    modules = sorted(
        ".".join(("app", *p.relative_to(CORE.parent).with_suffix("").parts)).removesuffix(".__init__")
        for p in CORE.rglob("*.py")
    )
    assert len(modules) > 30  # the search reaches into the feature packages
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6'))\n"
        "print(loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def _is_windows_guard(node: ast.stmt) -> bool:
    """`if sys.platform == "win32":`"""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and ast.unparse(node.test.left) == "sys.platform"
        and isinstance(node.test.ops[0], ast.Eq)
        and ast.literal_eval(node.test.comparators[0]) == "win32"
    )


def test_on_windows_only_the_entry_point_loads_llama_cpp_before_anything_that_could_load_qt() -> None:
    """llama.cpp's DLLs must come before Qt's on Windows (an access violation otherwise), also from source."""
    body = ast.parse((CORE.parent / "main.py").read_text(encoding="utf-8")).body
    guard = next(index for index, node in enumerate(body) if _is_windows_guard(node))
    before = [ast.unparse(node) for node in body[:guard] if not isinstance(node, ast.Expr)]  # the docstring
    assert before == ["from __future__ import annotations", "import sys"]
    assert [ast.unparse(node) for node in body[guard].body] == ["import llama_cpp"]
    assert body[guard].orelse == []
