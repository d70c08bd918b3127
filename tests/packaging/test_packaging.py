"""Packaging without a build: what the bundle keeps and drops, the icons, the desktop entry and install.sh.

The real bundle is built and run by tests/test_packaging_bundle.py (slow).
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import re
import shlex
import stat
import struct
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from PySide6.QtGui import QImage, QImageReader
from pytestqt.qtbot import QtBot

import app
from app.core.models import starter
from tests.repo import REPO_ROOT as ROOT

PACKAGING = ROOT / "packaging"
ICONS = ROOT / "resources" / "icons"
DESKTOP_FILE = ROOT / "resources" / "glassbox.desktop"
sys.path.insert(0, str(PACKAGING))

import bundle_rules  # noqa: E402  (packaging/bundle_rules.py)
import render_icons  # noqa: E402


def _load_build_script() -> ModuleType:
    """packaging/build.py under its own name: `build` would clash with the PyPA package of that name."""
    spec = importlib.util.spec_from_file_location("glassbox_build_script", PACKAGING / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build_script()

needs_posix_shell = pytest.mark.skipif(sys.platform == "win32", reason="install.sh is a POSIX shell script")


# ---- one version source ---------------------------------------------------------------------


def test_the_version_comes_from_app_init_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert bundle_rules.app_version(ROOT) == app.__version__
    with pytest.raises(SystemExit):
        from app.main import main

        main(["--version"])
    assert capsys.readouterr().out.strip() == f"Glassbox {app.__version__}"


def test_no_installer_recipe_writes_the_version_down() -> None:
    for recipe in (PACKAGING / "windows" / "glassbox.iss", PACKAGING / "glassbox.spec", DESKTOP_FILE):
        assert app.__version__ not in recipe.read_text(encoding="utf-8"), recipe
    assert "AppVersion={#AppVersion}" in (PACKAGING / "windows" / "glassbox.iss").read_text(encoding="utf-8")


def test_windows_version_resource_numbers_come_from_the_release_part() -> None:
    assert bundle_rules.windows_version_numbers("0.1.0") == (0, 1, 0, 0)
    assert bundle_rules.windows_version_numbers("1.2.3rc1") == (1, 2, 3, 0)
    assert bundle_rules.windows_version_numbers("2.0.0.dev3") == (2, 0, 0, 0)


def test_the_windows_version_file_names_the_app_version(tmp_path: Path) -> None:
    text = Path(bundle_rules.windows_version_file(tmp_path, "1.4.2")).read_text(encoding="utf-8")
    assert "filevers=(1, 4, 2, 0)" in text and "StringStruct('ProductVersion', '1.4.2')" in text


# ---- the starter model inside ---------------------------------------------------------------


def test_a_bundled_starter_model_is_found_where_the_spec_puts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundled = tmp_path / bundle_rules.BUNDLED_MODELS_DIR / starter.STARTER_FILENAME
    bundled.parent.mkdir()
    bundled.write_bytes(b"GGUF")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert starter.find_starter_model() == bundled


def test_the_spec_bundles_the_installed_starter_model() -> None:
    found = starter.find_starter_model()
    assert found is not None and bundle_rules.starter_model_file() == found


# ---- what the bundle keeps and drops --------------------------------------------------------


def test_llama_libraries_are_kept_with_the_projector_library_but_not_link_time_files() -> None:
    keep = bundle_rules.keep_llama_library
    assert keep("libllama.so") and keep("libggml-cpu.so") and keep("llama.dll") and keep("libggml.dylib")
    assert keep("libmtmd.so") and keep("mtmd.dll")  # images, through a vision model's projector
    assert not keep("llava.lib") and not keep("ggml.exp")


def test_llama_collected_libraries_are_found_in_the_build_environment() -> None:
    names = {Path(src).name for src, dest in bundle_rules.llama_binaries()}
    assert {dest for _src, dest in bundle_rules.llama_binaries()} == {bundle_rules.LLAMA_LIB_DIR}
    assert any("llama" in name for name in names) and any("ggml" in name for name in names)
    assert any("mtmd" in name for name in names)


def test_the_name_ctypes_opens_becomes_a_link_to_the_soname_copy() -> None:
    binaries = [
        ("llama_cpp/lib/libggml.so", "/wheel/libggml.so", "BINARY"),
        ("llama_cpp/lib/libggml.so.0", "/wheel/libggml.so.0", "BINARY"),
        ("llama_cpp/lib/libllama.so", "/wheel/libllama.so", "BINARY"),
        ("libggml.so.0", "llama_cpp/lib/libggml.so.0", "SYMLINK"),
    ]
    assert bundle_rules.with_llama_links(binaries) == [
        ("llama_cpp/lib/libggml.so", "libggml.so.0", "SYMLINK"),
        ("llama_cpp/lib/libggml.so.0", "/wheel/libggml.so.0", "BINARY"),
        ("llama_cpp/lib/libllama.so", "/wheel/libllama.so", "BINARY"),  # nothing links libllama.so.0: kept as is
        ("libggml.so.0", "llama_cpp/lib/libggml.so.0", "SYMLINK"),
    ]


def test_unused_qt_plugins_go_and_so_do_the_libraries_only_they_needed() -> None:
    qt = "PySide6/Qt"
    binaries = [
        ("PySide6/QtWidgets.abi3.so", "/src/QtWidgets.abi3.so", "EXTENSION"),
        (f"{qt}/lib/libQt6Widgets.so.6", "/src/libQt6Widgets.so.6", "BINARY"),
        (f"{qt}/lib/libQt6Gui.so.6", "/src/libQt6Gui.so.6", "BINARY"),
        (f"{qt}/lib/libQt6Network.so.6", "/src/libQt6Network.so.6", "BINARY"),
        (f"{qt}/plugins/platforms/libqxcb.so", "/src/libqxcb.so", "BINARY"),
        (f"{qt}/plugins/platforms/libqvnc.so", "/src/libqvnc.so", "BINARY"),
        (f"{qt}/plugins/imageformats/libqpdf.so", "/src/libqpdf.so", "BINARY"),
        (f"{qt}/lib/libQt6Pdf.so.6", "/src/libQt6Pdf.so.6", "BINARY"),
        ("llama_cpp/lib/libllama.so", "/src/libllama.so", "BINARY"),
        ("llama_cpp/lib/libggml-base.so.0", "/src/libggml-base.so.0", "BINARY"),
        ("libgomp.so.1", "/src/libgomp.so.1", "BINARY"),
        ("libQt6Network.so.6", f"{qt}/lib/libQt6Network.so.6", "SYMLINK"),
        ("libQt6Gui.so.6", f"{qt}/lib/libQt6Gui.so.6", "SYMLINK"),
    ]
    needs = {
        "/src/QtWidgets.abi3.so": ["libQt6Widgets.so.6"],
        "/src/libQt6Widgets.so.6": ["libQt6Gui.so.6"],
        "/src/libqxcb.so": ["libQt6Gui.so.6"],
        "/src/libqvnc.so": ["libQt6Network.so.6", "libQt6Gui.so.6"],
        "/src/libqpdf.so": ["libQt6Pdf.so.6"],
        "/src/libllama.so": ["libggml-base.so.0"],
        "/src/libggml-base.so.0": ["libgomp.so.1"],
    }
    datas = [
        (f"{qt}/translations/qtbase_de.qm", "/src/qtbase_de.qm", "DATA"),
        (f"{qt}/translations/qtdeclarative_de.qm", "/src/qtdeclarative_de.qm", "DATA"),
        ("resources/icons/glassbox.svg", "/src/glassbox.svg", "DATA"),
        ("libQt6Pdf.so.6", f"{qt}/lib/libQt6Pdf.so.6", "SYMLINK"),
    ]
    kept_binaries, kept_datas = bundle_rules.pruned(binaries, datas, imports_of=lambda path: needs.get(path, []))
    assert [entry[0] for entry in kept_binaries] == [
        "PySide6/QtWidgets.abi3.so",
        f"{qt}/lib/libQt6Widgets.so.6",
        f"{qt}/lib/libQt6Gui.so.6",
        f"{qt}/plugins/platforms/libqxcb.so",
        "llama_cpp/lib/libllama.so",
        "llama_cpp/lib/libggml-base.so.0",
        "libgomp.so.1",
        "libQt6Gui.so.6",
    ]
    assert [entry[0] for entry in kept_datas] == [f"{qt}/translations/qtbase_de.qm", "resources/icons/glassbox.svg"]


def test_qt_translations_other_than_qtbase_and_qml_modules_are_dropped_on_every_layout() -> None:
    unused = bundle_rules.is_unused_qt_data
    assert not unused("PySide6/Qt/translations/qtbase_fr.qm") and not unused("PySide6\\translations\\qtbase_fr.qm")
    assert unused("PySide6/Qt/translations/qtdeclarative_fr.qm") and unused("PySide6\\translations\\qt_help_fr.qm")
    assert unused("PySide6/Qt/qml/QtQuick/Controls/qmldir") and unused("PySide6\\qml\\QtQml\\qmldir")
    assert not unused("resources/translations/glassbox_fr.qm")


def test_windows_gets_the_openmp_runtime_the_llama_dlls_link_beside_them(tmp_path: Path) -> None:
    lib, system32 = tmp_path / "llama_cpp" / "lib", tmp_path / "System32"
    lib.mkdir(parents=True)
    system32.mkdir()
    for dll in ("ggml-cpu.dll", "llama.dll"):
        (lib / dll).write_bytes(b"MZ")
    (system32 / "vcomp140.dll").write_bytes(b"MZ")
    links = {str(lib / "ggml-cpu.dll"): ["KERNEL32.dll", "VCOMP140.DLL", "ggml-base.dll"], str(lib / "llama.dll"): []}
    found = bundle_rules.windows_openmp_runtime(lib, imports_of=lambda dll: links[dll], search=[lib, system32])
    assert found == [(str(system32 / "vcomp140.dll"), bundle_rules.LLAMA_LIB_DIR)]
    links[str(lib / "llama.dll")] = ["libomp140.x86_64.dll"]
    with pytest.raises(SystemExit, match=re.escape("libomp140.x86_64.dll")):
        bundle_rules.windows_openmp_runtime(lib, imports_of=lambda dll: links[dll], search=[lib, system32])


def test_the_platforms_the_app_runs_on_are_never_pruned() -> None:
    for plugin in (
        "libqxcb.so",
        "libqwayland.so",
        "libqoffscreen.so",
        "libqminimal.so",
        "qwindows.dll",
        "libqcocoa.dylib",
    ):
        assert not bundle_rules.is_unused_qt_plugin(f"PySide6/Qt/plugins/platforms/{plugin}"), plugin
    assert not bundle_rules.is_unused_qt_plugin("PySide6/Qt/plugins/imageformats/libqsvg.so")
    assert not bundle_rules.is_unused_qt_plugin("PySide6/Qt/plugins/iconengines/libqsvgicon.so")
    assert bundle_rules.is_unused_qt_plugin("PySide6\\Qt\\plugins\\platforms\\qdirect2d.dll")


def test_no_module_the_app_imports_is_excluded_from_the_bundle() -> None:
    imported: set[str] = set()
    for source in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    excluded = set(bundle_rules.EXCLUDED_MODULES)
    clashes = {name for name in imported if any(name == x or name.startswith(f"{x}.") for x in excluded)}
    assert clashes == set(), "the app imports modules that glassbox.spec leaves out of the bundle"
    assert {"PySide6.QtWidgets", "llama_cpp"} <= imported  # the scan sees the app's imports


# ---- Linux: debug info, AppImage-style folder, tarball -----------------------------------------


def _elf(path: Path, section_names: list[str]) -> Path:
    """A minimal little-endian ELF64 file whose section headers carry `section_names`."""
    names = b"\0" + b"".join(name.encode() + b"\0" for name in [*section_names, ".shstrtab"])
    count = len(section_names) + 2  # the null section, the named ones, .shstrtab
    strings_at, headers_at = 64, 64 + len(names)
    header = b"\x7fELF" + bytes([2, 1, 1]) + bytes(9)
    header += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, headers_at, 0, 64, 0, 0, 64, count, count - 1)
    sections = bytes(64)
    offset = 1
    for name in section_names:
        sections += struct.pack("<IIQQQQIIQQ", offset, 1, 0, 0, 0, 0, 0, 0, 1, 0)
        offset += len(name) + 1
    sections += struct.pack("<IIQQQQIIQQ", offset, 3, 0, 0, strings_at, len(names), 0, 0, 1, 0)
    path.write_bytes(header + names + sections)
    return path


def test_debug_info_is_recognised_from_the_elf_section_names(tmp_path: Path) -> None:
    assert build.has_debug_info(_elf(tmp_path / "debug.so", [".text", ".debug_info", ".debug_line"]))
    assert not build.has_debug_info(_elf(tmp_path / "stripped.so", [".text", ".dynsym"]))
    (tmp_path / "notes.txt").write_text("not an ELF file")
    assert not build.has_debug_info(tmp_path / "notes.txt")


def _fake_bundle(folder: Path, launcher_output: Path) -> Path:
    """A bundle-shaped folder whose `Glassbox` is a shell script writing its arguments to `launcher_output`."""
    bundle = folder / "Glassbox"
    resources = bundle / "_internal" / "resources"
    (resources / "icons").mkdir(parents=True)
    for icon in ICONS.iterdir():
        (resources / "icons" / icon.name).write_bytes(icon.read_bytes())
    (resources / "glassbox.desktop").write_text(DESKTOP_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    executable = bundle / "Glassbox"
    executable.write_text(f'#!/bin/sh\nprintf "%s\\n" "launched" "$@" > "{launcher_output}"\n')
    executable.chmod(executable.stat().st_mode | stat.S_IXUSR)
    (bundle / "_internal" / "libexample.so.1").write_bytes(b"library")
    (bundle / "_internal" / "libexample.so").symlink_to("libexample.so.1")
    build.add_linux_integration(bundle)
    return bundle


@needs_posix_shell
def test_the_bundle_becomes_an_appimage_style_folder(tmp_path: Path) -> None:
    bundle = _fake_bundle(tmp_path, tmp_path / "launched.txt")
    assert os.readlink(bundle / "AppRun") == "Glassbox"
    assert (bundle / "glassbox.desktop").read_text() == DESKTOP_FILE.read_text()
    assert (bundle / "glassbox.png").read_bytes() == (ICONS / "glassbox-256.png").read_bytes()
    assert os.access(bundle / "install.sh", os.X_OK)


@needs_posix_shell
def test_the_tarball_keeps_the_bundle_links_as_links(tmp_path: Path) -> None:
    bundle = _fake_bundle(tmp_path, tmp_path / "launched.txt")
    tarball = build.make_tarball(bundle, "9.8.7")
    assert tarball.parent == tmp_path and tarball.name.startswith("Glassbox-9.8.7-linux-")
    with tarfile.open(tarball) as archive:
        top = tarball.name.removesuffix(".tar.gz")
        link = archive.getmember(f"{top}/_internal/libexample.so")
        assert link.issym() and link.linkname == "libexample.so.1"
        assert archive.getmember(f"{top}/Glassbox").mode & stat.S_IXUSR


def test_the_size_report_separates_the_starter_model(tmp_path: Path) -> None:
    bundle = tmp_path / "Glassbox"
    (bundle / "_internal" / "models").mkdir(parents=True)
    (bundle / "_internal" / "models" / "model.gguf").write_bytes(bytes(3_000_000))
    (bundle / "Glassbox").write_bytes(bytes(2_000_000))
    assert build.size_report(bundle) == "bundle size: 5 MB (2 MB without the starter model's 3 MB)"
    (bundle / "_internal" / "models" / "model.gguf").unlink()
    assert build.size_report(bundle) == "bundle size: 2 MB (no starter model inside)"


# ---- install.sh ------------------------------------------------------------------------------


def _install_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "share"),
        "GLASSBOX_INSTALL_DIR": str(home / "apps" / "Glass box"),  # a space, as in many real paths
        "GLASSBOX_BIN_DIR": str(home / "bin"),
    }


def _run_install(bundle: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["sh", str(bundle / "install.sh"), *args], env=env, capture_output=True, text=True)


def _desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


@needs_posix_shell
def test_install_puts_the_app_into_the_applications_menu_and_its_entry_starts_it(tmp_path: Path) -> None:
    launched = tmp_path / "launched.txt"
    bundle = _fake_bundle(tmp_path / "unpacked", launched)
    home = tmp_path / "home"
    env = _install_env(home)
    result = _run_install(bundle, env)
    assert result.returncode == 0, result.stderr
    app_dir = Path(env["GLASSBOX_INSTALL_DIR"])
    assert (app_dir / "Glassbox").is_file() and (app_dir / "_internal" / "libexample.so").is_symlink()

    entry = _desktop_entry(home / "share" / "applications" / "glassbox.desktop")
    assert entry["TryExec"] == str(app_dir / "Glassbox")
    assert entry["Icon"] == "glassbox"
    for size in render_icons.PNG_SIZES:
        assert (home / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "glassbox.png").is_file()
    assert (home / "share" / "icons" / "hicolor" / "scalable" / "apps" / "glassbox.svg").is_file()

    # What a desktop does on a double click: run the Exec command line (quoted per the spec).
    subprocess.run(shlex.split(entry["Exec"]), check=True, env=env)
    assert launched.read_text().split("\n")[0] == "launched"
    subprocess.run([str(home / "bin" / "glassbox"), "selftest"], check=True, env=env)
    assert launched.read_text().split("\n")[:2] == ["launched", "selftest"]


@needs_posix_shell
def test_uninstall_removes_what_install_added_and_keeps_user_data(tmp_path: Path) -> None:
    bundle = _fake_bundle(tmp_path / "unpacked", tmp_path / "launched.txt")
    home = tmp_path / "home"
    env = _install_env(home)
    user_data = home / "share" / "Glassbox" / "models" / "mine.gguf"
    user_data.parent.mkdir(parents=True)
    user_data.write_bytes(b"GGUF")
    assert _run_install(bundle, env).returncode == 0
    result = _run_install(Path(env["GLASSBOX_INSTALL_DIR"]), env, "--uninstall")
    assert result.returncode == 0, result.stderr
    assert not Path(env["GLASSBOX_INSTALL_DIR"]).exists()
    assert not (home / "bin" / "glassbox").exists()
    assert not (home / "share" / "applications" / "glassbox.desktop").exists()
    assert not list((home / "share" / "icons").rglob("glassbox.*"))
    assert user_data.read_bytes() == b"GGUF"


@needs_posix_shell
def test_install_refuses_to_replace_a_folder_that_is_not_glassbox(tmp_path: Path) -> None:
    bundle = _fake_bundle(tmp_path / "unpacked", tmp_path / "launched.txt")
    env = _install_env(tmp_path / "home")
    precious = Path(env["GLASSBOX_INSTALL_DIR"]) / "thesis.txt"
    precious.parent.mkdir(parents=True)
    precious.write_text("years of work")
    result = _run_install(bundle, env)
    assert result.returncode == 1
    assert "is not a Glassbox installation" in result.stderr
    assert precious.read_text() == "years of work"


# ---- desktop entry and icons -----------------------------------------------------------------


def test_the_desktop_entry_is_complete_and_matches_the_running_app(qtbot: QtBot) -> None:
    entry = _desktop_entry(DESKTOP_FILE)
    assert entry["Type"] == "Application" and entry["Name"] == "Glassbox"
    assert entry["Exec"] == "glassbox"  # the pip-installed launcher; install.sh rewrites it to the bundle's path
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";") and entry["Keywords"].endswith(";")
    assert (ICONS / f"{entry['Icon']}.svg").is_file()
    from app.ui.shell.application import create_application

    application = create_application()
    assert application.desktopFileName() == DESKTOP_FILE.stem  # Wayland matches windows to entries by this
    assert entry["StartupWMClass"] == application.applicationName()  # X11 does by WM_CLASS
    assert not application.windowIcon().isNull()


def test_every_icon_size_is_rendered_from_the_svg(qtbot: QtBot) -> None:
    for size in render_icons.PNG_SIZES:
        committed = QImage(str(ICONS / render_icons.png_name(size)))
        assert (committed.width(), committed.height()) == (size, size)
        fresh = render_icons.render(ICONS / render_icons.SVG_NAME, size)
        assert _max_channel_difference(committed, fresh) <= 8, (
            f"{render_icons.png_name(size)} no longer matches glassbox.svg: run `python packaging/render_icons.py`"
        )
        assert committed.pixelColor(size // 2, size // 2).alpha() == 255  # the cube fills the middle
        assert committed.pixelColor(0, 0).alpha() == 0  # transparent corners


def _max_channel_difference(first: QImage, second: QImage) -> int:
    def channels(image: QImage) -> np.ndarray:
        image = image.convertToFormat(QImage.Format.Format_ARGB32)
        rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
        return rows[:, : image.width() * 4].astype(np.int16)

    return int(np.abs(channels(first) - channels(second)).max())


@pytest.mark.parametrize(
    ("file_name", "sizes"),
    [
        ("glassbox.ico", list(render_icons.ICO_SIZES)),
        ("glassbox.icns", [size for _kind, size in render_icons.ICNS_TYPES]),
    ],
)
def test_windows_and_macos_icon_files_hold_every_size(qtbot: QtBot, file_name: str, sizes: list[int]) -> None:
    reader = QImageReader(str(ICONS / file_name))
    read = []
    for index in range(reader.imageCount()):
        reader.jumpToImage(index)
        read.append(reader.read().width())
    assert read == sizes


def test_icon_files_are_written_byte_for_byte_from_the_pngs() -> None:
    pngs = {16: b"\x89PNG-sixteen", 256: b"\x89PNG-big"}
    ico = render_icons.ico_bytes(pngs)
    assert struct.unpack_from("<HHH", ico) == (0, 1, 2)
    width, _height, _colors, _reserved, _planes, _bits, length, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16)
    assert width == 0 and ico[offset : offset + length] == b"\x89PNG-big"  # 0 means 256 px
    icns = render_icons.icns_bytes({size: f"png{size}".encode() for _kind, size in render_icons.ICNS_TYPES})
    assert icns[:4] == b"icns" and struct.unpack_from(">I", icns, 4)[0] == len(icns)
    assert icns[8:12] == b"icp4" and icns[16:21] == b"png16"
