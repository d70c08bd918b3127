"""Every text a person reads can be translated: the UI's through tr(), the core's marked with N_()."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.text_scanner import core_breaches, core_error_classes, ui_breaches
from tests.repo import REPO_ROOT

APP = REPO_ROOT / "app"
# Shown as they are in every language, each for its reason.
NOT_WORDS = {
    ("app/ui/servers/dialog.py", "'http://gpu-box:8000'"),  # an example address in an empty field
}


def _core_sources() -> list[Path]:
    """The core, less the API server: it answers programs, in the English of OpenAI's error shape."""
    return [path for path in sorted((APP / "core").rglob("*.py")) if "server" not in path.relative_to(APP).parts]


def test_no_ui_text_bypasses_tr() -> None:
    breaches = [
        str(breach)
        for path in sorted((APP / "ui").rglob("*.py"))
        for breach in ui_breaches(path)
        if (str(path.relative_to(REPO_ROOT)), breach.text) not in NOT_WORDS
    ]
    assert breaches == []  # wrap each in self.tr() (or QCoreApplication.translate outside a QObject)


def test_every_core_text_a_person_reads_is_marked() -> None:
    sources = _core_sources()
    errors = core_error_classes(path.read_text(encoding="utf-8") for path in sources)
    assert {"EngineError", "DownloadError", "InvalidSetting", "ChatStoreError"} <= errors
    breaches = [str(breach) for path in sources for breach in core_breaches(path, errors)]
    assert breaches == []  # compose it as fill(N_("... {name} ..."), name=...)


UI_SAMPLE = """
class Panel(QWidget):
    def __init__(self):
        self.title = QLabel("Model settings", self)
        self.button.setToolTip(f"Stop after {n} tokens")
        self.fine = QLabel(self.tr("Model settings"), self)
        self.status.setText(fill("Loaded {name}", name=name) if ready else self.tr("Waiting"))
        self.menu.addAction("Quit")
        self.picker.addItem(self.tr("All sources"), "app")
        QMessageBox.warning(self, self.tr("Oops"), "Something went wrong")
        raise ChatStoreError("The chat was not saved.")
        raise TypeError(f"not a {kind}")

class Worker(QObject):
    def run(self):
        self.failed.emit(f"Nothing could be retrieved for this reply: {error}")
        self.failed.emit("import", str(error))
        self.failed.emit("import", fill(self.tr("Importing {name} was cancelled."), name=name))
        self.progress.emit("verify done", 1, 2)
        message.warning("The index is busy")
        message.info(self.tr("The language changes when Glassbox starts again."))
        self.banner.show_error(f"Diagnostics could not be gathered: {error}")
"""


def test_the_ui_scanner_catches_text_that_bypasses_tr(tmp_path: Path) -> None:
    found = {breach.text for breach in ui_breaches(tmp_path / "panel.py", UI_SAMPLE)}
    assert found == {
        "'Model settings'",
        "f'Stop after {n} tokens'",
        "'Loaded {name}'",
        "'Quit'",
        "'Something went wrong'",
        "'The chat was not saved.'",
        "f'Nothing could be retrieved for this reply: {error}'",
        "'The index is busy'",
        "f'Diagnostics could not be gathered: {error}'",
    }


CORE_SAMPLE = '''
class LoadError(Exception):
    pass

class BadValue(LoadError):
    pass

def load(path):
    raise LoadError(f"Loading {path.name} failed.")

def check(value):
    raise BadValue("n_ctx", "The context length must be positive.")

def returned(base, error):
    return LoadError("dns", f"{base}: the host name was not found; check the URL.")

def fine_too(error, where):
    return LoadError(describe_os_error(error, where), "file system")

def fine(path):
    raise LoadError(fill(N_("Loading {name} failed."), name=path.name))
    raise BadValue("n_ctx", N_("The context length must be positive."))
    raise ValueError(f"internal: {path}")

def read(data, notices):
    notices.append(f"Unknown theme {data['theme']!r}; the system's colours are used.")
    notices.append(fill(N_("Unknown language {value}."), value=data["language"]))

TEMPERATURE = FieldSpec("temperature", "Temperature", "float", 0, 2, N_("How adventurous each token is."))

class Remote:
    def _cut_message(self) -> str:
        return f"{self.base} stopped sending before the reply was complete; try again."

def stages(report, checked):
    report.stages.append(LoadStage("check file", checked, "GGUF header and tensor table"))
    report.stages.append(LoadStage("prepare", checked, detail=f"{layers} layers on GPU"))
    report.stages.append(LoadStage("chat template", checked, N_("GGUF header and tensor table")))

class Step:
    def message(self) -> str:
        """What happened."""
        if self.done:
            return N_("Done.")
        return f"Retrying with {self.layers} GPU layers."
'''


def test_the_core_scanner_catches_unmarked_text(tmp_path: Path) -> None:
    errors = core_error_classes([CORE_SAMPLE])
    assert errors == {"LoadError", "BadValue"}
    found = {breach.text for breach in core_breaches(tmp_path / "step.py", errors, CORE_SAMPLE)}
    assert found == {
        "f'Loading {path.name} failed.'",
        "'The context length must be positive.'",
        "f'Retrying with {self.layers} GPU layers.'",
        "f'{base}: the host name was not found; check the URL.'",
        "f'{self.base} stopped sending before the reply was complete; try again.'",
        "'Temperature'",
        "'GGUF header and tensor table'",
        "f'{layers} layers on GPU'",
        "f\"Unknown theme {data['theme']!r}; the system's colours are used.\"",
    }
