"""Versions and licences of Glassbox and the parts it ships with, for the About dialog and bug reports.

Versions come from the running code (llama.cpp's own version calls) and from package metadata,
which the PyInstaller bundle carries too (glassbox.spec: copy_metadata(recursive=True)).
Qt's runtime version is passed in by the UI, because this module never imports Qt.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import logging
import platform
import re
import sys
from dataclasses import dataclass

from app import __version__
from app.core.models.starter import STARTER_DISTRIBUTION, STARTER_FILENAME, STARTER_LICENSE, find_starter_model
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

UNKNOWN = "unknown"
APP_DISTRIBUTION = "glassbox"
APP_LICENSE = "MIT"


@dataclass(frozen=True)
class Component:
    """One part of Glassbox as shipped: what it is, which version, under which licence."""

    name: str
    version: str
    license: str
    url: str
    role: str = ""


@dataclass(frozen=True)
class LlamaBuildInfo:
    """What llama.cpp says about the build that is loaded in this process."""

    llama_cpp_python: str
    llama_cpp: str
    ggml: str
    ggml_commit: str
    system_info: str
    gpu_offload: bool


def llama_build_info() -> LlamaBuildInfo:
    import llama_cpp

    return LlamaBuildInfo(
        llama_cpp_python=getattr(llama_cpp, "__version__", UNKNOWN),
        llama_cpp=_decoded(llama_cpp.llama_version()),
        ggml=_ggml_string("ggml_version"),
        ggml_commit=_ggml_string("ggml_commit"),
        system_info=_decoded(llama_cpp.llama_print_system_info()).strip(" |"),
        gpu_offload=bool(llama_cpp.llama_supports_gpu_offload()),
    )


def _ggml_string(function: str) -> str:
    """ggml_version()/ggml_commit() from libggml; llama-cpp-python has no binding for them."""
    try:
        from llama_cpp import _ggml

        getter = getattr(_ggml.libggml, function)
        getter.argtypes, getter.restype = [], ctypes.c_char_p
        return _decoded(getter())
    except (ImportError, AttributeError, OSError) as error:
        log.debug("no %s in this libggml: %s", function, error)
        return UNKNOWN


def _decoded(value: bytes | str | None) -> str:
    if value is None:
        return UNKNOWN
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def package_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return UNKNOWN


def main_components(qt_version: str) -> list[Component]:
    """The parts that make Glassbox what it is, with the licences they are distributed under."""
    llama = llama_build_info()
    components = [
        Component("Glassbox", __version__, APP_LICENSE, "", N_("this application")),
        Component("Python", platform.python_version(), "PSF-2.0", "https://www.python.org/", N_("runtime")),
        Component("Qt", qt_version, "LGPL-3.0-only", "https://www.qt.io/", N_("user interface toolkit")),
        Component(
            "PySide6 (Qt for Python)",
            package_version("PySide6-Essentials"),
            "LGPL-3.0-only",
            "https://pyside.org/",
            N_("Qt bindings"),
        ),
        Component(
            "llama.cpp",
            f"{llama.llama_cpp} (ggml {llama.ggml}, {llama.ggml_commit})",
            "MIT",
            "https://github.com/ggml-org/llama.cpp",
            N_("inference engine"),
        ),
        Component(
            "llama-cpp-python",
            llama.llama_cpp_python,
            "MIT",
            "https://github.com/abetlen/llama-cpp-python",
            N_("llama.cpp bindings"),
        ),
    ]
    if find_starter_model() is not None:
        components.append(
            Component(
                "SmolLM2-135M-Instruct by Hugging Face",
                f"{STARTER_FILENAME} ({STARTER_DISTRIBUTION} {package_version(STARTER_DISTRIBUTION)})",
                STARTER_LICENSE,
                "https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct",
                N_("starter model"),
            )
        )
    return components


def python_packages(root: str = APP_DISTRIBUTION) -> list[Component]:
    """Every installed package in the run-time requirement closure of `root` (extras left out), by name."""
    found: dict[str, Component] = {}
    pending = [root]
    while pending:
        name = _normalized(pending.pop())
        if name in found:
            continue
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a platform-specific requirement (pywin32-ctypes on Linux …) that is not installed
        metadata = distribution.metadata
        found[name] = Component(
            name=metadata["Name"] or name,
            version=distribution.version,
            license=license_of(metadata),
            url=_home_page(metadata),
        )
        pending += [_requirement_name(line) for line in distribution.requires or () if "extra ==" not in line]
    found.pop(_normalized(root), None)
    return sorted(found.values(), key=lambda component: component.name.lower())


def license_of(metadata: importlib.metadata.PackageMetadata) -> str:
    """The licence a package declares: its SPDX expression, a short License field, or its classifiers."""
    expression = _field(metadata, "License-Expression")
    if expression:
        return expression.strip()
    text = _field(metadata, "License").strip()
    if text and "\n" not in text and len(text) <= 60:
        return text
    classifiers = [
        line.split("::")[-1].strip()
        for line in metadata.get_all("Classifier") or ()
        if line.startswith("License ::") and line.count("::") >= 2
    ]
    if classifiers:
        return " / ".join(classifiers)
    return "see the package's licence file"


def _home_page(metadata: importlib.metadata.PackageMetadata) -> str:
    for entry in metadata.get_all("Project-URL") or ():
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository", "source code"):
            return url.strip()
    return _field(metadata, "Home-page").strip()


def _field(metadata: importlib.metadata.PackageMetadata, name: str) -> str:
    """A metadata field, or "" when the package leaves it out."""
    values = metadata.get_all(name)
    return values[0] if values else ""


def _requirement_name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return match[1] if match else requirement


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def system_report(qt_version: str, qt_platform: str) -> str:
    """A plain-text block to paste into a bug report."""
    llama = llama_build_info()
    frozen = "PyInstaller bundle" if getattr(sys, "frozen", False) else "Python environment"
    lines = [
        f"Glassbox {__version__} ({frozen})",
        f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.platform()}",
        f"Qt {qt_version}, PySide6 {package_version('PySide6-Essentials')}, platform plugin {qt_platform}",
        f"llama-cpp-python {llama.llama_cpp_python}; llama.cpp {llama.llama_cpp}; "
        f"ggml {llama.ggml} ({llama.ggml_commit})",
        f"GPU offload: {'available' if llama.gpu_offload else 'not available (CPU-only build)'}",
        f"llama.cpp system info: {llama.system_info}",
    ]
    return "\n".join(lines)
