"""The real bundle: build it with packaging/build.py, then run it as a user would (slow: about a minute).

Runs when PyInstaller is installed (`pip install -e '.[build]'`); run it alone with
`QT_QPA_PLATFORM=offscreen python -m pytest -m slow tests/test_packaging_bundle.py`.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from tests.packaging.test_packaging import _desktop_entry
from tests.repo import REPO_ROOT as ROOT

pytest.importorskip("PyInstaller", reason="building the bundle needs the build extra: pip install -e '.[build]'")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.requires_model,  # the bundle carries and loads the starter
    pytest.mark.timeout(1200),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the bundle is built and tested on Linux only"),
]

RUN_TIMEOUT_S = 180


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/Glassbox/ built from this checkout into a temporary folder, with the starter model inside."""
    out = tmp_path_factory.mktemp("bundle")
    started = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "packaging" / "build.py"),
            *("--dist", str(out / "dist"), "--work", str(out / "work")),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1100,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    print(f"bundle built in {time.perf_counter() - started:.0f} s; {result.stdout.strip().splitlines()[-1]}")
    return out / "dist" / "Glassbox"


def _run(command: list[str], home: Path, *, offscreen: bool = False) -> subprocess.CompletedProcess[str]:
    """Run a bundled command with its own GLASSBOX_HOME and none of this test run's Python settings."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["GLASSBOX_HOME"] = str(home)
    env["HOME"] = str(home)  # anything that ignores GLASSBOX_HOME still stays in the temporary folder
    if offscreen:
        env["QT_QPA_PLATFORM"] = "offscreen"
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)


def test_the_bundle_carries_llama_cpp_and_the_starter_model(bundle: Path) -> None:
    internal = bundle / "_internal"
    assert (internal / "llama_cpp" / "lib" / "libllama.so").is_file()
    assert (internal / "llama_cpp" / "lib" / "libggml.so").resolve().is_file()
    assert (internal / "models" / "SmolLM2-135M-Instruct.Q4_1.gguf").stat().st_size > 90_000_000
    assert (internal / "resources" / "icons" / "glassbox.svg").is_file()


def test_the_bundle_leaves_out_what_the_app_does_not_use(bundle: Path) -> None:
    names = [path.relative_to(bundle).as_posix() for path in bundle.rglob("*")]
    unused = ("libQt6Qml", "libQt6Quick", "libQt6Pdf", "libQt6Network", "libQt6Test", "tkinter", "libtk")
    assert [name for name in names if any(part in name for part in unused)] == []
    assert not (bundle / "_internal" / "PySide6" / "Qt" / "qml").exists()
    assert not [path for path in bundle.rglob("*") if path.is_symlink() and not path.exists()], "dangling links"


def test_the_bundled_selftest_loads_the_starter_model_and_generates_a_reply(bundle: Path, tmp_path: Path) -> None:
    result = _run([str(bundle / "Glassbox"), "selftest"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "selftest ok: SmolLM2-135M-Instruct.Q4_1.gguf" in result.stdout
    reply = next(line for line in result.stdout.splitlines() if line.startswith("reply ("))
    assert int(reply.removeprefix("reply (").split(" ")[0]) > 0 and reply.split(": ", 1)[1].strip()


def test_the_bundled_gui_shows_the_main_window_and_exits_cleanly(bundle: Path, tmp_path: Path, qtbot: QtBot) -> None:
    screenshot = tmp_path / "window.png"
    result = _run([str(bundle / "Glassbox"), "gui", "--screenshot", str(screenshot)], tmp_path, offscreen=True)
    assert result.returncode == 0, result.stderr
    assert "Fatal Python error" not in result.stderr and "Traceback" not in result.stderr
    _assert_shows_a_window(screenshot)
    log = (tmp_path / "logs" / "glassbox.log").read_text(encoding="utf-8")
    assert "starting" in log


def test_the_installed_menu_entry_starts_the_bundle(bundle: Path, tmp_path: Path, qtbot: QtBot) -> None:
    home = tmp_path / "home"
    install = _run(["sh", str(bundle / "install.sh")], home)
    assert install.returncode == 0, install.stderr
    entry = _desktop_entry(home / ".local" / "share" / "applications" / "glassbox.desktop")
    assert Path(entry["TryExec"]).is_relative_to(home / ".local" / "opt" / "glassbox")
    # The entry's own command line, plus options that make the window save itself and close.
    screenshot = tmp_path / "from-menu.png"
    launched = _run([*shlex.split(entry["Exec"]), "gui", "--screenshot", str(screenshot)], home, offscreen=True)
    assert launched.returncode == 0, launched.stderr
    _assert_shows_a_window(screenshot)
    uninstall = _run(["sh", str(home / ".local" / "opt" / "glassbox" / "install.sh"), "--uninstall"], home)
    assert uninstall.returncode == 0, uninstall.stderr
    assert not (home / ".local" / "opt" / "glassbox").exists()


def _assert_shows_a_window(screenshot: Path) -> None:
    """The PNG the app saved of its main window: window-sized and not a blank fill."""
    image = QImage(str(screenshot))
    assert not image.isNull(), f"no screenshot at {screenshot}"
    assert image.width() >= 600 and image.height() >= 400
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    assert len(colours) > 20, "the screenshot is (nearly) one colour: no widgets were drawn"
