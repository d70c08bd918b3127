"""A bounded fuzz test: damaged copies of the starter model are refused cleanly, or load without crashing.

Seeded mutations of the header (scalar values, array lengths, random bytes) and of the tensor
table (dimensions, types, data offsets), and truncations. Each damaged file is either refused
by `check_model_file` or, when accepted, loaded and decoded by a child process
(`load_probe.py`); that process must never die from a signal (an abort or a segfault in
llama.cpp): whatever llama.cpp would abort on has to be refused first.

One working copy is patched and restored in turn, and one child process loads every accepted
file, so the test costs one copy of the model and one interpreter start.
"""

from __future__ import annotations

import math
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from app.bench.synthetic_gguf import HeaderLayout, header_layout
from app.core.models.validation import ModelFileError, check_model_file

SEED = 11
MUTATIONS = 48
TRUNCATIONS = 8
PROBE_TIMEOUT_S = 120


@dataclass(frozen=True)
class Mutation:
    what: str
    position: int
    data: bytes


def _int_values(fmt: str, current: int, rng: random.Random) -> list[int]:
    bits = struct.calcsize(fmt) * 8
    signed = fmt[-1].islower()
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    values = [0, 1, high, low, current + 1, current - 1, current * 2, rng.randint(low, high)]
    return [v for v in values if low <= v <= high]


def _mutations(layout: HeaderLayout, original: bytes, rng: random.Random) -> Iterator[Mutation]:
    """An endless, seeded stream of header and tensor-table damage."""
    fields = [f for f in layout.fields.values() if f.format != "<?"]
    while True:
        kind = rng.choice(["value", "value", "array length", "dims", "dims", "type", "offset", "bytes"])
        if kind == "value":
            field = rng.choice(fields)
            (current,) = struct.unpack_from(field.format, original, field.position)
            if field.format in ("<f", "<d"):
                value: float = rng.choice([math.nan, math.inf, -math.inf, -1.0, 0.0, 1e30, current * 10])
            else:
                value = rng.choice(_int_values(field.format, current, rng))
            yield Mutation(f"{field.key} = {value}", field.position, struct.pack(field.format, value))
        elif kind == "array length":
            key, position = rng.choice(sorted(layout.array_lengths.items()))
            (count,) = struct.unpack_from("<Q", original, position)
            value = rng.choice([0, 1, count - 1, count + 1, count // 2, 2**63])
            yield Mutation(f"{key} has {value} items", position, struct.pack("<Q", value))
        elif kind == "dims":
            tensor = rng.choice(layout.tensors)
            axis = rng.randrange(tensor.n_dims)
            position = tensor.dims_position + 8 * axis
            (dim,) = struct.unpack_from("<Q", original, position)
            value = rng.choice([0, 1, dim + 1, dim - 1, dim * 2, dim // 2, 2**40, 2**63])
            yield Mutation(f"{tensor.name} dimension {axis} = {value}", position, struct.pack("<Q", value))
        elif kind == "type":
            tensor = rng.choice(layout.tensors)
            value = rng.choice([0, 1, 2, 8, 12, 14, 24, 30, rng.randrange(0, 64), 2**32 - 1])
            yield Mutation(f"{tensor.name} type = {value}", tensor.type_position, struct.pack("<I", value))
        elif kind == "offset":
            tensor = rng.choice(layout.tensors)
            (offset,) = struct.unpack_from("<Q", original, tensor.offset_position)
            value = rng.choice([0, offset + 1, offset + 32, offset - 32, 2**40, 2**64 - 1])
            value = min(max(value, 0), 2**64 - 1)
            yield Mutation(f"{tensor.name} offset = {value}", tensor.offset_position, struct.pack("<Q", value))
        else:
            position = rng.randrange(layout.end)
            data = bytes(rng.randrange(256) for _ in range(rng.choice([1, 2, 4, 8])))
            yield Mutation(f"{len(data)} random bytes at {position}", position, data)


class LoadProbe:
    """One child process that loads the files it is given; it survives clean failures, not crashes."""

    def __init__(self, log: IO[str]) -> None:
        self._log = log
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.core.models.load_probe"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,  # a file, never a pipe left unread
            text=True,
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        )

    def load(self, path: Path, what: str) -> str:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(f"{path}\n")
        self._process.stdin.flush()
        answer = self._process.stdout.readline().strip()
        if not answer:
            code = self._process.wait(PROBE_TIMEOUT_S)
            self._log.flush()
            tail = Path(self._log.name).read_text(errors="replace")[-2000:]
            cause = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            pytest.fail(f"the engine process died ({cause}) loading an accepted file ({what}):\n{tail}")
        return answer

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait(PROBE_TIMEOUT_S)


@pytest.fixture
def probe(tmp_path: Path) -> Iterator[LoadProbe]:
    with (tmp_path / "probe.log").open("w") as log:
        loader = LoadProbe(log)
        try:
            yield loader
        finally:
            loader.close()


def _accepted(path: Path) -> bool:
    try:
        check_model_file(path)
    except ModelFileError as error:
        assert error.reason  # refused with a reason, by the one error type the callers handle
        return False
    return True


def test_damaged_headers_and_tensor_tables_are_refused_or_load_without_crashing(
    starter_model: Path, tmp_path: Path, probe: LoadProbe
) -> None:
    work = tmp_path / "mutant.gguf"
    shutil.copyfile(starter_model, work)
    layout = header_layout(starter_model)
    with starter_model.open("rb") as source:
        original = source.read(layout.end)  # every mutation lies inside the header and tensor table
    rng = random.Random(SEED)
    outcomes: dict[str, list[str]] = {"refused": [], "loaded": [], "failed": []}
    stream = _mutations(layout, original, rng)
    with work.open("r+b") as handle:
        for _ in range(MUTATIONS):
            mutation = next(stream)
            handle.seek(mutation.position)
            handle.write(mutation.data)
            handle.flush()
            if _accepted(work):
                answer = probe.load(work, mutation.what)
                outcomes[answer.split()[0]].append(f"{mutation.what}: {answer}")
            else:
                outcomes["refused"].append(mutation.what)
            handle.seek(mutation.position)
            handle.write(original[mutation.position : mutation.position + len(mutation.data)])
            handle.flush()

    size = work.stat().st_size
    cuts = sorted({rng.randrange(size) for _ in range(TRUNCATIONS - 2)} | {layout.end // 2, size - 1}, reverse=True)
    for cut in cuts:  # shortest last, so one copy serves every cut
        os.truncate(work, cut)
        if _accepted(work):
            answer = probe.load(work, f"cut at {cut} of {size} bytes")
            outcomes[answer.split()[0]].append(f"cut at {cut}: {answer}")
        else:
            outcomes["refused"].append(f"cut at {cut}")
    print({kind: len(items) for kind, items in outcomes.items()}, *outcomes["loaded"], *outcomes["failed"], sep="\n")
    assert len(outcomes["refused"]) + len(outcomes["loaded"]) + len(outcomes["failed"]) == MUTATIONS + len(cuts)
    # What llama.cpp refused, it refused in the error the window and the CLI word for the user.
    assert all(": failed ModelFileError: " in failure for failure in outcomes["failed"]), outcomes["failed"]
