"""Records kept in the cache folder from one run to the next: what only costs time to find again.

One JSON object per file, entries under keys, the newest `kept` of them. The file is written whole
and then put in place, so two processes writing at once leave one whole file. A file that cannot be
read or written is no error: what it would have held is found again, and the log says why.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.paths import app_paths

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CacheRecords:
    file_name: str  # in the cache folder
    kept: int  # entries kept, the newest
    what: str  # what the entries are, for the log: "batch probes"

    def get(self, key: str) -> Any:
        """The entry kept under `key`, as JSON gave it back; None when there is none."""
        return self._read().get(key)

    def put(self, key: str, entry: Any) -> None:
        """Keep `entry` (plain JSON) under `key`, with the newest others."""
        entries = {name: kept for name, kept in self._read().items() if name != key}
        entries[key] = entry
        kept = dict(list(entries.items())[-self.kept :])
        path = self.path()
        written: Path | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.stem}-", delete=False) as handle:
                written = Path(handle.name)
                json.dump(kept, handle)
            os.replace(written, path)
        except OSError as error:
            log.info("The %s are not kept (%s): they are found again next time", self.what, error)
            if written is not None:
                written.unlink(missing_ok=True)

    def path(self) -> Path:
        return app_paths().cache / self.file_name

    def _read(self) -> dict[str, Any]:
        try:
            entries = json.loads(self.path().read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.info("The kept %s cannot be read (%s): they are found again", self.what, error)
            return {}
        return entries if isinstance(entries, dict) else {}
