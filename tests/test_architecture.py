"""The house rules: the import contracts of pyproject.toml, and a core testable without a display."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.repo import REPO_ROOT

CORE = REPO_ROOT / "app" / "core"

CONTRACTS = [
    "core never imports the UI or Qt",
    "core packages in layers",
    "UI feature packages are independent, composed only by the shell",
]

# A module that breaks each contract, dropped into a copy of the app: (file, source, what the report says)
BREACHES = [
    (
        "core/support/breach_qt.py",
        "import PySide6.QtCore\n",
        "app.core is not allowed to import PySide6: - app.core.support.breach_qt -> PySide6 (l.1)",
    ),
    (
        "core/support/breach_layers.py",
        "import app.core.chat.store\n",
        "app.core.support is not allowed to import app.core.chat: "
        "- app.core.support.breach_layers -> app.core.chat.store",
    ),
    (
        "ui/widgets/breach_features.py",
        "import app.ui.chat.view\n",
        "app.ui.widgets is not allowed to import app.ui.chat: - app.ui.widgets.breach_features -> app.ui.chat.view",
    ),
]


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter on the `app` package under root, with the contracts of root's pyproject.toml."""
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _verdicts(output: str) -> dict[str, str]:
    """{contract name: "KEPT" or "BROKEN"} from import-linter's summary lines."""
    found = (re.fullmatch(r"(.+) (KEPT|BROKEN)", line.strip()) for line in output.splitlines())
    return {match[1]: match[2] for match in found if match}


def test_the_import_contracts_hold() -> None:
    result = _lint_imports(REPO_ROOT)
    assert _verdicts(result.stdout) == dict.fromkeys(CONTRACTS, "KEPT"), result.stdout + result.stderr
    assert result.returncode == 0


def test_each_contract_catches_a_module_that_breaks_it(tmp_path: Path) -> None:
    shutil.copytree(REPO_ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path)
    for name, source, _ in BREACHES:
        (tmp_path / "app" / name).write_text(source, encoding="utf-8")
    result = _lint_imports(tmp_path)
    assert result.returncode != 0
    assert _verdicts(result.stdout) == dict.fromkeys(CONTRACTS, "BROKEN")
    report = " ".join(result.stdout.split())
    assert [expected for _, _, expected in BREACHES if expected not in report] == []


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
