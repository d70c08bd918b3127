"""How Glassbox opens a SQLite database: one policy for every owner of a table in it.

The chat store and the documents index keep their tables in the same file (chats.sqlite3),
each with a connection of its own, so they open it the same way:

- a busy timeout of BUSY_TIMEOUT_S: a statement that meets another connection's lock waits
  for it rather than failing at once;
- `PRAGMA quick_check` first: damage inside a file whose header is intact is found at open,
  not in the middle of a later write;
- WAL (readers never wait for the writer) with `synchronous=NORMAL` (a committed write
  survives the process being killed), and foreign keys on;
- the owner's `prepare` (its schema) last. Two processes opening the same new file race on
  the switch to WAL and on the first schema write, and SQLite answers one of them "database
  is locked" at once instead of calling its busy handler, so the whole open is tried again
  with a growing pause for OPEN_PATIENCE_S.

A damaged file (`open_or_set_aside`) is renamed, with its -wal and -shm files, to
`<name>.damaged-<date>-<time>` next to it, and a new, empty one is opened in its place: nothing
is deleted, and the owner says so to the user. A file that is locked, read-only or on a full
disk is not damaged, and is left alone.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 5.0  # how long one statement waits for another connection's lock
OPEN_PATIENCE_S = 10.0  # the WAL switch and the first schema write can fail busy without waiting: tried this long
OPEN_RETRY_PAUSE_S = 0.05  # the first pause between attempts; it grows with each one, up to half a second
DAMAGE_LINES = 5  # how many of quick_check's findings a message names

Prepare = Callable[[sqlite3.Connection, Path], None]  # the owner's schema, on a connection to that path


class DamagedDatabase(sqlite3.DatabaseError):
    """`PRAGMA quick_check` found damage inside a file whose header is intact."""


@dataclass(frozen=True)
class SetAside:
    """A damaged file that was renamed, and why it could not be read."""

    path: Path  # where the damaged file is now
    reason: str


def connect(path: Path, prepare: Prepare) -> sqlite3.Connection:
    """Open `path` under the policy; raises sqlite3 errors (`is_busy` tells a lock that stayed)."""
    deadline = time.monotonic() + OPEN_PATIENCE_S
    attempt = 1
    while True:
        try:
            return _connect_once(path, prepare)
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
            log.debug("%s busy at open (attempt %d): %s", path.name, attempt, error)
            time.sleep(min(OPEN_RETRY_PAUSE_S * attempt, 0.5))
            attempt += 1


def open_or_set_aside(path: Path, prepare: Prepare) -> tuple[sqlite3.Connection, SetAside | None]:
    """Open `path`; when the file is damaged, set it aside and open a new, empty one (and say which)."""
    try:
        return connect(path, prepare), None
    except sqlite3.DatabaseError as error:
        if not is_damage(error):
            raise  # locked, read-only, unable to open, disk full or I/O: the file itself is not damaged
        aside = set_aside(path)
        return connect(path, prepare), SetAside(aside, str(error))


def is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def is_damage(error: sqlite3.DatabaseError) -> bool:
    """The file is not a database or is malformed (SQLite's CORRUPT and NOTADB), or quick_check found damage;
    never a lock, a full disk, a constraint or a mistake in a statement (sqlite3's subclasses say those)."""
    return type(error) is sqlite3.DatabaseError or isinstance(error, DamagedDatabase)


def set_aside(path: Path) -> Path:
    """Rename the database and its -wal and -shm files to `<name>.damaged-<date>-<time>`; the new name."""
    aside = path.with_name(f"{path.name}.damaged-{datetime.now():%Y%m%d-%H%M%S}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{aside}{suffix}"))
    return aside


def _connect_once(path: Path, prepare: Prepare) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    try:
        db.row_factory = sqlite3.Row
        damage = [str(row[0]) for row in db.execute(f"PRAGMA quick_check({DAMAGE_LINES})").fetchall()]
        if damage != ["ok"]:
            raise DamagedDatabase(fill(N_("damaged pages: {damage}"), damage="; ".join(damage)))
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            log.warning("SQLite would not use WAL for %s (journal mode %s); writes stay safe but slower", path, mode)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        prepare(db, path)
    except BaseException:
        db.close()
        raise
    return db
