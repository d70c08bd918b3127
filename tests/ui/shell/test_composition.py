"""The shell composes the features: only the application builds the main window, and no
feature reaches back into the shell."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[3] / "app"
FEATURES = ("chat", "documents", "glass", "gpu", "models")
# Imported when first used, not at every start: the API server's framework (about half a second) and the MCP SDK
# (about a second).
LATER = ("fastapi", "uvicorn", "mcp")


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules() -> dict[str, set[str]]:
    return {path.relative_to(APP.parent).as_posix(): _imports(path) for path in APP.rglob("*.py")}


def test_only_the_application_imports_the_main_window() -> None:
    importers = sorted(name for name, mods in _modules().items() if "app.ui.shell.main_window" in mods)
    assert importers == ["app/ui/shell/application.py"]


def test_no_feature_package_imports_the_shell() -> None:
    offenders = {
        name: sorted(m for m in mods if m.startswith("app.ui.shell"))
        for name, mods in _modules().items()
        if Path(name).parts[2:3] and Path(name).parts[2] in FEATURES
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_the_window_s_modules_leave_the_server_framework_and_the_mcp_sdk_for_later() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, app.ui.shell.main_window; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=APP.parent,
        timeout=120,
    ).stdout.split()
    assert [name for name in loaded if name.split(".")[0] in LATER] == []
