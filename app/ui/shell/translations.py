"""The interface language: Glassbox's own catalog and Qt's, installed before any window is built.

The catalogs are compiled `.qm` files in the `locale/` folder beside this module, so they
travel as package data: a source checkout, an installed wheel and the PyInstaller bundle
(whose spec copies the folder to the same place) all find them through `__file__`. Their
source, `resources/translations/glassbox_<locale>.ts`, is what translators edit;
`packaging/translations.py` updates it from the code and compiles it here.

Qt's own `qtbase_<locale>.qm` (standard buttons, the file and colour dialogs) ships with
PySide6 and is loaded from Qt's translations folder.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.core.settings import Language

log = logging.getLogger(__name__)

CATALOG_DIR = Path(__file__).resolve().parent / "locale"
CATALOG_PREFIX = "glassbox_"
TRANSLATED = (Language.SIMPLIFIED_CHINESE,)  # languages with a catalog; English is the source text


def catalog_file(language: Language) -> Path:
    return CATALOG_DIR / f"{CATALOG_PREFIX}{language.value}.qm"


def resolve_language(language: Language, system: QLocale | None = None) -> Language:
    """The language to show: the chosen one, or for SYSTEM the first of the OS's UI languages Glassbox has."""
    if language is not Language.SYSTEM:
        return language
    for name in (system or QLocale.system()).uiLanguages():  # most preferred first, e.g. zh-Hant-TW, zh-TW, zh
        locale = QLocale(name)
        if locale.language() is QLocale.Language.Chinese:
            # Traditional characters (Taiwan, Hong Kong, Macau) have no catalog: their readers get the source text
            traditional = locale.script() is QLocale.Script.TraditionalHanScript
            return Language.ENGLISH if traditional else Language.SIMPLIFIED_CHINESE
        if locale.language() is QLocale.Language.English:
            return Language.ENGLISH
    return Language.ENGLISH


def install_translators(app: QCoreApplication, language: Language) -> Language:
    """Install the catalogs for `language` (SYSTEM resolved from the OS locale); returns the language shown.

    English needs no catalog. A missing or unreadable catalog is logged and the English text
    stays: a broken translation never keeps the window from opening.
    """
    shown = resolve_language(language)
    for translator in app.findChildren(QTranslator, "glassbox-translator"):
        app.removeTranslator(translator)
        translator.deleteLater()
    if shown is Language.ENGLISH:
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        return shown
    locale = QLocale(shown.value)
    QLocale.setDefault(locale)  # numbers and dates in the interface follow the language
    qt_folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    for prefix, folder, required in (
        (CATALOG_PREFIX, str(CATALOG_DIR), True),
        ("qtbase_", qt_folder, False),
    ):
        translator = QTranslator(app)
        translator.setObjectName("glassbox-translator")
        if translator.load(f"{prefix}{shown.value}", folder):
            app.installTranslator(translator)
        elif required:
            log.error("The %s catalog was not found in %s; the interface stays in English", shown.value, folder)
            return Language.ENGLISH
        else:
            log.info("Qt's own %s catalog is not in %s; standard buttons stay in English", shown.value, folder)
    return shown
