"""The translation pipeline: `.ts` sources from the code (pyside6-lupdate), `.qm` catalogs from them (lrelease).

    python packaging/translations.py update    # after changing user-visible text: new entries to translate
    python packaging/translations.py compile   # after translating: the .qm files the app loads

The sources are `resources/translations/glassbox_<locale>.ts` (edit them with
`pyside6-linguist` or any editor); the compiled catalogs go to `app/ui/shell/locale/`, where
they are package data for the wheel and copied into the PyInstaller bundle. Both are
committed; `build.py` compiles again before bundling and tests/packaging/test_translations.py
fails when a committed catalog differs from its source.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import PySide6

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "resources" / "translations"
CATALOGS = ROOT / "app" / "ui" / "shell" / "locale"
TOOLS = Path(PySide6.__file__).resolve().parent  # lupdate and lrelease ship inside PySide6-Essentials


class TranslationError(Exception):
    pass


def ts_files() -> list[Path]:
    return sorted(SOURCES.glob("glassbox_*.ts"))


def python_sources() -> list[Path]:
    """Every module of the app: tr() lives in app/ui, QCoreApplication.translate may appear anywhere."""
    return sorted((ROOT / "app").rglob("*.py"))


def _run(command: list[str]) -> str:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise TranslationError(
            f"{Path(command[0]).name} failed ({result.returncode}): {result.stderr or result.stdout}"
        )
    return result.stdout


def update(ts: Path) -> str:
    """Bring `ts` up to date with the code: new texts become unfinished entries, vanished ones are dropped."""
    files = [str(path) for path in python_sources()]
    return _run([str(TOOLS / "lupdate"), *files, "-ts", str(ts), "-no-obsolete", "-locations", "none"])


def compile_catalog(ts: Path, qm: Path) -> None:
    qm.parent.mkdir(parents=True, exist_ok=True)
    _run([str(TOOLS / "lrelease"), str(ts), "-qm", str(qm)])


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
