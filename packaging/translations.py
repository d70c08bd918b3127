"""The translation pipeline: `.ts` sources from the code (pyside6-lupdate), `.qm` catalogs from them (lrelease).

    python packaging/translations.py update    # after changing user-visible text: new entries to translate
    python packaging/translations.py compile   # after translating: the .qm files the app loads

The sources are `resources/translations/glassbox_<locale>.ts` (edit them with
`pyside6-linguist` or any editor); the compiled catalogs go to `app/ui/shell/locale/`, where
they are package data for the wheel and copied into the PyInstaller bundle. Both are
committed; `build.py` compiles again before bundling and tests/packaging/test_translations.py
fails when a committed catalog differs from its source.

Text composed in `app/core` (Qt-free) is marked with `N_("...")`: `update` reads those marks
(an AST walk, so a template split over several literals is one entry) and hands them to lupdate
as `QCoreApplication.translate("CoreText", ...)` calls in a generated file, so they land in the
`.ts` beside the UI's texts. The UI translates a core text by its template
(`app/ui/widgets/core_text.py`), so the `.qm` is all it needs.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import PySide6

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "resources" / "translations"
CATALOGS = ROOT / "app" / "ui" / "shell" / "locale"
TOOLS = Path(PySide6.__file__).resolve().parent  # lupdate and lrelease ship inside PySide6-Essentials
CORE_CONTEXT = "CoreText"  # app.core.support.user_text.CONTEXT (not imported: this script runs without the app)
CORE_MARK = "N_"


class TranslationError(Exception):
    pass


def ts_files() -> list[Path]:
    return sorted(SOURCES.glob("glassbox_*.ts"))


def python_sources() -> list[Path]:
    """Every module of the app: tr() lives in app/ui, QCoreApplication.translate may appear anywhere."""
    return sorted((ROOT / "app").rglob("*.py"))


def core_texts(files: list[Path] | None = None) -> list[str]:
    """Every template marked with `N_("...")` in app/core, once each, in the order they appear."""
    found: dict[str, None] = {}
    for path in files if files is not None else sorted((ROOT / "app" / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == CORE_MARK
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found[node.args[0].value] = None
    return list(found)


def core_texts_stub(folder: Path) -> Path:
    """A Python file lupdate reads: one translate() call per core template."""
    stub = folder / "core_texts.py"
    lines = [f"QCoreApplication.translate({CORE_CONTEXT!r}, {text!r})" for text in core_texts()]
    stub.write_text("from PySide6.QtCore import QCoreApplication\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return stub


def _run(command: list[str]) -> str:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise TranslationError(
            f"{Path(command[0]).name} failed ({result.returncode}): {result.stderr or result.stdout}"
        )
    return result.stdout


def update(ts: Path) -> str:
    """Bring `ts` up to date with the code: new texts become unfinished entries, vanished ones are dropped."""
    with tempfile.TemporaryDirectory() as folder:
        files = [str(path) for path in [*python_sources(), core_texts_stub(Path(folder))]]
        return _run([str(TOOLS / "lupdate"), *files, "-ts", str(ts), "-no-obsolete", "-locations", "none"])


def translated_core_texts(ts: Path) -> list[str]:
    """The core templates `ts` has a finished translation for."""
    texts = []
    for context in ET.parse(ts).getroot().iter("context"):
        if context.findtext("name") != CORE_CONTEXT:
            continue
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is not None and not translation.get("type") and (translation.text or "").strip():
                texts.append(message.findtext("source", ""))
    return sorted(texts)


def replace_whole(target: Path, write: Callable[[Path], None]) -> None:
    """`write(partial)` a file beside target, then put it in target's place in one step: the app or a test
    reading the committed catalog while `build.py` compiles it again never meets half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        write(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def compile_catalog(ts: Path, qm: Path) -> None:
    replace_whole(qm, lambda partial: _run([str(TOOLS / "lrelease"), str(ts), "-qm", str(partial)]))


def catalog_for(ts: Path) -> Path:
    return CATALOGS / ts.with_suffix(".qm").name


def compile_all() -> list[Path]:
    compiled = []
    for ts in ts_files():
        compile_catalog(ts, catalog_for(ts))
        compiled.append(catalog_for(ts))
    return compiled


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        for ts in ts_files():
            print(update(ts), end="")
        return 0
    if argv[:1] == ["compile"]:
        for qm in compile_all():
            print(f"compiled {qm.relative_to(ROOT)}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
