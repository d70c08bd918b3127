"""Batch probes remembered from one load to the next.

The probe (exact_batch.py) decodes about a dozen tokens at every load with speculative decoding
on Auto: a fraction of a second for a small model, seconds for a large one on the CPU. What it
finds depends only on the model file, the load settings that change how a batch is computed and
the llama.cpp build, so the answer is kept in the cache folder under those and read back when the
same model loads the same way again. Costs are timings of one probe, rough already; a remembered
one is as good. A cache that cannot be read or written is no error: the model is probed again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict

import llama_cpp

from app.core.inference.cache_records import CacheRecords
from app.core.inference.exact_batch import BatchProbe
from app.core.inference.llama_build import llama_build
from app.core.types.load import LoadConfig

PROBES = CacheRecords("batch_probes.json", 64, "batch probes")
# LoadConfig's fields that change nothing in how a batch is computed; every other field (a new one
# too, until it is named here) is part of the key.
NOT_COMPUTE = frozenset({"speculative", "draft_model", "mmproj", "reasoning", "chat_template", "chat_template_text"})


def probe_key(config: LoadConfig, n_threads: int) -> str:
    """What a probe of this load is kept under: the file as it is now, the settings and the build.
    Raises OSError when the file cannot be read."""
    stat = config.model_path.stat()
    settings = {name: str(value) for name, value in asdict(config).items() if name not in NOT_COMPUTE}
    facts = {
        "file": [str(config.model_path.resolve()), stat.st_size, stat.st_mtime_ns],
        "settings": {**settings, "n_threads": n_threads},
        "build": [llama_cpp.__version__, llama_build()],
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


def remembered_probe(key: str) -> BatchProbe | None:
    """The probe kept under `key`, if any."""
    entry = PROBES.get(key)
    if not isinstance(entry, dict):
        return None
    try:
        cost = {int(size): float(value) for size, value in entry["cost"].items()}
        return BatchProbe(bool(entry["exact"]), cost)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def remember_probe(key: str, probe: BatchProbe) -> None:
    """Keep `probe` under `key`."""
    PROBES.put(key, {"exact": probe.exact, "cost": {str(size): value for size, value in probe.cost.items()}})
