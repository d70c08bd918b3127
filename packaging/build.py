"""Build the Glassbox desktop bundle: `python packaging/build.py [--no-starter-model] [--tarball]`.

Runs PyInstaller on packaging/glassbox.spec and produces `dist/Glassbox/` (a onedir bundle: the
`Glassbox` executable beside `_internal/`). On Linux the folder is also an AppImage-style
directory (AppRun, glassbox.desktop, glassbox.png, install.sh at its top), and --tarball packs
it as `dist/Glassbox-<version>-linux-<arch>.tar.gz`. On Windows, --installer compiles
packaging/windows/glassbox.iss with Inno Setup; on macOS, --dmg wraps Glassbox.app in a disk
image (packaging/macos/make_dmg.sh).

Install the build tools first: `pip install -e '.[build,starter]'` (PyInstaller bundles what the
running interpreter has installed).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import shutil
import struct
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "packaging" / "glassbox.spec"
DIST = ROOT / "dist"
WORK = ROOT / "build" / "pyinstaller"
BUNDLE_NAME = "Glassbox"

sys.path.insert(0, str(ROOT / "packaging"))
import bundle_rules  # noqa: E402
import translations  # noqa: E402


class BuildError(Exception):
    """A reason the build cannot go on; printed as one line, exit status 1."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python packaging/build.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--starter-model",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="put the starter model (98 MB) into the bundle so it chats with no download (default: yes)",
    )
    parser.add_argument(
        "--tarball", action="store_true", help="Linux: also pack dist/Glassbox-<version>-linux-<arch>.tar.gz"
    )
    parser.add_argument("--installer", action="store_true", help="Windows: also compile the Inno Setup installer")
    parser.add_argument("--dmg", action="store_true", help="macOS: also make dist/Glassbox-<version>-macos.dmg")
    parser.add_argument("--clean", action="store_true", help="discard PyInstaller's cache first")
    parser.add_argument("--dist", type=Path, default=DIST, help="where the bundle goes (default: dist/)")
    parser.add_argument("--work", type=Path, default=WORK, help="PyInstaller's cache (default: build/pyinstaller/)")
    args = parser.parse_args(argv)
    try:
        build(args)
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 1
    return 0


def build(args: argparse.Namespace) -> None:
    check_build_environment()
    try:
        for catalog in translations.compile_all():  # the interface translations the bundle carries
            print(f"compiled {catalog.relative_to(ROOT)}")
    except translations.TranslationError as error:
        raise BuildError(str(error)) from error
    version = bundle_rules.app_version(ROOT)
    started = time.perf_counter()
    dist, work = args.dist.resolve(), args.work.resolve()
    run_pyinstaller(dist, work, starter_model=args.starter_model, clean=args.clean)
    bundle = dist / BUNDLE_NAME
    if sys.platform.startswith("linux"):
        stripped = strip_debug_info(bundle)
        add_linux_integration(bundle)
        print(f"stripped debug info from {stripped} files")
    print(f"built {bundle} in {time.perf_counter() - started:.0f} s")
    print(size_report(bundle))
    if args.tarball:
        require_platform("--tarball", "linux")
        print(f"wrote {make_tarball(bundle, version)}")
    if args.installer:
        require_platform("--installer", "win32")
        print(f"wrote {make_windows_installer(dist, version)}")
    if args.dmg:
        require_platform("--dmg", "darwin")
        print(f"wrote {make_dmg(dist, version)}")


def check_build_environment() -> None:
    for module, hint in (
        ("PyInstaller", "pip install -e '.[build]'"),
        ("llama_cpp", "pip install -e ."),
        ("PySide6", "pip install -e ."),
    ):
        try:
            __import__(module)
        except ImportError as error:
            raise BuildError(f"{module} is not importable in {sys.executable} ({error}); run `{hint}`") from error
    try:
        importlib.metadata.distribution("glassbox")
    except importlib.metadata.PackageNotFoundError as error:
        raise BuildError(
            "Glassbox itself is not installed in this environment; run `pip install -e '.[build,starter]'`"
        ) from error
    missing = [
        name
        for name in ("glassbox.svg", "glassbox-256.png", "glassbox.ico", "glassbox.icns")
        if not (ROOT / "resources" / "icons" / name).is_file()
    ]
    if missing:
        raise BuildError(
            f"icons missing in resources/icons: {', '.join(missing)}; run `python packaging/render_icons.py`"
        )


def run_pyinstaller(dist: Path, work: Path, starter_model: bool, clean: bool) -> None:
    command = [
        sys.executable,
        "-m",
        "PyInstaller",
        str(SPEC),
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        str(dist),
        "--workpath",
        str(work),
    ]
    if clean:
        command.append("--clean")
    command += ["--", "--starter-model" if starter_model else "--no-starter-model"]
    print("running", " ".join(command), flush=True)
    result = subprocess.run(command, cwd=ROOT)
    if result.returncode != 0:
        raise BuildError(f"PyInstaller failed with exit status {result.returncode} (its output is above)")


def require_platform(option: str, platform_prefix: str) -> None:
    if not sys.platform.startswith(platform_prefix):
        raise BuildError(f"{option} works on {platform_prefix} only; this is {sys.platform}")


# ---- Linux ------------------------------------------------------------------------------------


def has_debug_info(path: Path) -> bool:
    """Whether an ELF file carries `.debug_*` sections (read from its section headers; False for non-ELF)."""
    with path.open("rb") as file:
        ident = file.read(16)
        if len(ident) < 16 or ident[:4] != b"\x7fELF":
            return False
        wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
        header = file.read(48 if wide else 36)
        if wide:
            (shoff,) = struct.unpack_from(order + "Q", header, 24)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", header, 42)
        else:
            (shoff,) = struct.unpack_from(order + "I", header, 16)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", header, 30)
        if shoff == 0 or shnum == 0 or shstrndx >= shnum:
            return False

        def section(index: int) -> tuple[int, int, int]:
            """(name offset, file offset, size) of one section header."""
            file.seek(shoff + index * shentsize)
            raw = file.read(shentsize)
            if wide:
                (name,) = struct.unpack_from(order + "I", raw, 0)
                offset, size = struct.unpack_from(order + "QQ", raw, 24)
            else:
                (name,) = struct.unpack_from(order + "I", raw, 0)
                offset, size = struct.unpack_from(order + "II", raw, 16)
            return name, offset, size

        _name, strings_at, strings_size = section(shstrndx)
        file.seek(strings_at)
        names = file.read(strings_size)
        for index in range(shnum):
            start = section(index)[0]
            if names[start : names.find(b"\0", start)].startswith(b".debug_"):
                return True
    return False


def strip_debug_info(bundle: Path) -> int:
    """`strip --strip-debug` the files that carry debug info (the Python build's libpython and extensions).

    Only those: rewriting a library that auditwheel patched (numpy's OpenBLAS) breaks it.
    Returns how many files were stripped; 0 with a note when binutils' strip is not installed.
    """
    strip = shutil.which("strip")
    if strip is None:
        print("note: `strip` (binutils) is not installed; the bundle keeps its debug info")
        return 0
    stripped = 0
    for path in sorted(bundle.rglob("*")):
        if path.is_file() and not path.is_symlink() and has_debug_info(path):
            subprocess.run([strip, "--strip-debug", str(path)], check=True)
            stripped += 1
    return stripped


def add_linux_integration(bundle: Path) -> None:
    """Make the bundle an AppImage-style directory with its installer: AppRun, .desktop, icon, install.sh."""
    resources = bundle / "_internal" / "resources"
    shutil.copy2(ROOT / "packaging" / "linux" / "install.sh", bundle / "install.sh")
    shutil.copy2(resources / "glassbox.desktop", bundle / "glassbox.desktop")
    shutil.copy2(resources / "icons" / "glassbox-256.png", bundle / "glassbox.png")
    app_run = bundle / "AppRun"
    if app_run.is_symlink() or app_run.exists():
        app_run.unlink()
    app_run.symlink_to(BUNDLE_NAME)


def make_tarball(bundle: Path, version: str) -> Path:
    """dist/Glassbox-<version>-linux-<arch>.tar.gz with the bundle as Glassbox-<version>/ (links kept)."""
    name = f"Glassbox-{version}-linux-{platform.machine()}"
    target = bundle.parent / f"{name}.tar.gz"
    with tarfile.open(target, "w:gz", compresslevel=6) as archive:
        archive.add(bundle, arcname=name)
    return target


# ---- Windows and macOS (not built in this project's CI; see packaging/README.md) ----------------


def make_windows_installer(dist: Path, version: str) -> Path:
    compiler = shutil.which("iscc") or shutil.which("ISCC") or _program_files_iscc()
    if compiler is None:
        raise BuildError("Inno Setup's compiler (ISCC.exe) was not found: install Inno Setup 6 and retry")
    script = ROOT / "packaging" / "windows" / "glassbox.iss"
    subprocess.run(
        [compiler, f"/DAppVersion={version}", f"/DSourceDir={dist / BUNDLE_NAME}", f"/DOutputDir={dist}", str(script)],
        check=True,
    )
    return dist / f"Glassbox-{version}-windows-setup.exe"


def _program_files_iscc() -> str | None:
    for variable in ("ProgramFiles(x86)", "ProgramFiles"):
        candidate = Path(os.environ.get(variable, "")) / "Inno Setup 6" / "ISCC.exe"
        if candidate.is_file():
            return str(candidate)
    return None


def make_dmg(dist: Path, version: str) -> Path:
    target = dist / f"Glassbox-{version}-macos-{platform.machine()}.dmg"
    subprocess.run(
        ["sh", str(ROOT / "packaging" / "macos" / "make_dmg.sh"), str(dist / "Glassbox.app"), str(target)], check=True
    )
    return target


# ---- report -----------------------------------------------------------------------------------


def tree_size(path: Path) -> int:
    """Bytes of the regular files under `path` (links counted once, as links)."""
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def size_report(bundle: Path) -> str:
    total = tree_size(bundle)
    models = bundle / "_internal" / bundle_rules.BUNDLED_MODELS_DIR
    model_bytes = tree_size(models) if models.is_dir() else 0
    line = f"bundle size: {total / 1e6:.0f} MB"
    if model_bytes:
        line += f" ({(total - model_bytes) / 1e6:.0f} MB without the starter model's {model_bytes / 1e6:.0f} MB)"
    else:
        line += " (no starter model inside)"
    return line


if __name__ == "__main__":
    sys.exit(main())
