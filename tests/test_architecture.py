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
    modules = sorted(f"app.core.{p.stem}" for p in CORE.glob("*.py") if p.stem != "__init__")
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
