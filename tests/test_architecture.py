"""The house rules: the import contracts of pyproject.toml, and a core testable without a display."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from tests.repo import REPO_ROOT

CORE = REPO_ROOT / "app" / "core"

CONTRACTS = [
    "core never imports the UI or Qt",
    "core packages in layers",
    "UI feature packages are independent, composed only by the shell",
    "the shared types never import llama.cpp",
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
    (
        "core/types/breach_llama.py",
        "import llama_cpp\n",
        "app.core.types is not allowed to import llama_cpp: - app.core.types.breach_llama -> llama_cpp (l.1)",
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


def import_cycles(package: str) -> list[list[str]]:
    """One chain [a, b, ..., a] for each set of modules of `package` that import each other, directly or
    through other modules; imports under TYPE_CHECKING and inside functions count."""
    graph = grimp.build_graph(package, include_external_packages=False, exclude_type_checking_imports=False)
    cycles: dict[frozenset[str], list[str]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycle = [module, *back]
                cycles.setdefault(frozenset(cycle), cycle)
    return list(cycles.values())


def test_no_two_modules_of_the_app_import_each_other_directly_or_through_a_chain() -> None:
    assert [" -> ".join(cycle) for cycle in import_cycles("app")] == []


def test_an_import_cycle_is_found_and_named_also_through_a_chain_and_type_only_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cycle_probe"
    package.mkdir()
    modules = {
        "__init__": "",
        "alone": "from cycle_probe import first\n",  # imports into the cycle, is not in it
        "first": "from cycle_probe import second\n",
        "second": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cycle_probe import third\n",
        "third": "def late() -> None:\n    from cycle_probe import first\n",
    }
    for name, source in modules.items():
        (package / f"{name}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cycle_probe") == [
        ["cycle_probe.first", "cycle_probe.second", "cycle_probe.third", "cycle_probe.first"]
    ]


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


MOST_METHODS = 40  # a class with more does everyone's work
MAIN_WINDOW = REPO_ROOT / "app" / "ui" / "shell" / "main_window.py"
MAIN_WINDOW_LINES = 400  # layout, menus and wiring; the work is done by its collaborators


def methods_per_class(root: Path) -> dict[str, int]:
    """{module.Class: the functions defined in its body (properties and their setters included)} under root."""
    counts = {}
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                functions = [f for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
                counts[f"{module}.{node.name}"] = len(functions)
    return counts


def test_no_class_of_the_app_has_more_than_40_methods() -> None:
    counts = methods_per_class(REPO_ROOT / "app")
    assert {name: n for name, n in counts.items() if n > MOST_METHODS} == {}


def test_methods_are_counted_per_class_with_properties_and_nested_classes(tmp_path: Path) -> None:
    package = tmp_path / "probe"
    package.mkdir()
    (package / "parts.py").write_text(
        "class Outer:\n"
        "    def one(self) -> None: ...\n"
        "    @property\n"
        "    def two(self) -> int: return 2\n"
        "    async def three(self) -> None: ...\n"
        "    class Inner:\n"
        "        def four(self) -> None: ...\n"
        "    size = 5\n",
        encoding="utf-8",
    )
    assert methods_per_class(package) == {"probe.parts.Outer": 3, "probe.parts.Inner": 1}


def test_the_main_window_keeps_to_layout_menus_and_wiring_in_at_most_400_lines() -> None:
    assert len(MAIN_WINDOW.read_text(encoding="utf-8").splitlines()) <= MAIN_WINDOW_LINES
