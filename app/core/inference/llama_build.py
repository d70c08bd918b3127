"""Which llama.cpp this process runs: what a replay record names, and what a remembered batch probe is kept under."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import llama_cpp


@functools.cache
def llama_build() -> str:
    """The ggml library version llama-cpp-python ships (from its file name, where the platform
    puts it there) and the build's system info line (backends and CPU features compiled in)."""
    system = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    versions = sorted(
        match.group(1)
        for path in (Path(llama_cpp.__file__).parent / "lib").glob("libggml-base*")
        if (match := re.search(r"(\d+\.\d+\.\d+)", path.name))
    )
    return f"ggml {versions[-1]}; {system}" if versions else system
