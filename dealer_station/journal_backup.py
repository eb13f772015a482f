"""A checked copy of the journal while the station writes it (docs/journal.md,
"Backup and restore").

SQLite's online backup API copies the database page by page from a read-only
connection: no lock file, no write, so the station is never refused or held
up. The copy is the journal as it stood at one instant (``Journal.copy_into``):
in WAL mode the writer goes on meanwhile, its WAL only growing until the copy is
done. Between steps the copy pauses, giving the SD card back to the station's
fsyncs.

The copy is written beside its final name, checked (``PRAGMA
integrity_check``, then the hash chain, ``journal_chain.walk``), fsync'd and
only then renamed into place: a backup in the directory is whole and checked,
or not there. The newest ``keep`` backups of that journal stay.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from dealer_station.clock import utc_now
from dealer_station.durable import fsync_path
from dealer_station.journal import Journal
from dealer_station.journal_archive import chain_start
from dealer_station.journal_chain import Digest, walk

# Pages (4 KiB each by default) a step copies, and the pause after each: 4 MiB
# at a time, about a second per 100 MB of journal spent waiting for the station.
STEP_PAGES = 1024
STEP_PAUSE_S = 0.01

# A backup's name: the journal's stem, the UTC time of the copy, to the
# microsecond so that two backups in one second do not collide; sorts by time.
_STAMP = "%Y%m%dT%H%M%S%fZ"


class BackupError(Exception):
    """The backup was not made; nothing was left in the backup directory."""


class NotAJournal(BackupError):
    """The source is no file, or no SQLite database with a journal in it."""


class NoDirectory(BackupError):
    """The backup directory does not exist (it is not made: a typo would
    otherwise fill the journal's own disk)."""


class DiskFull(BackupError):
    """The backup directory's disk filled up during the copy."""


class CopyNotWhole(BackupError):
    """The copy failed its integrity check or its hash chain does not hold."""


@dataclass(frozen=True, slots=True)
class Backup:
    """A backup made: its file, the last record it holds, what it pruned."""

    path: Path
    head: Digest | None  # None: the journal had no record yet
    records: int
    removed: tuple[Path, ...]


Pause = Callable[[int, int], None]


def _pause(remaining: int, total: int) -> None:
    time.sleep(STEP_PAUSE_S)


def backup_name(journal: Path, at: datetime) -> str:
    return f"{journal.stem}-{at.strftime(_STAMP)}.sqlite3"


def backups_of(journal: Path, directory: Path) -> list[Path]:
    """The backups of ``journal`` in ``directory``, oldest first."""
    prefix = f"{journal.stem}-"
    return sorted(p for p in directory.glob(f"{prefix}*Z.sqlite3") if p.name[len(prefix)].isdigit())


def _is_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    # sqlite3 exposes the code from Python 3.11 on: SQLITE_FULL is 13.
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def _open_source(journal: Path) -> Journal:
    if not journal.is_file():
        raise NotAJournal(f"{journal}: no such file")
    source = Journal(journal, read_only=True)
    try:
        source.tables()
    except sqlite3.DatabaseError as exc:
        source.close()
        raise NotAJournal(f"{journal}: not a journal ({exc})") from None
    return source


def _copy(source: Journal, partial: Path, pages: int, pause: Pause) -> None:
    target = sqlite3.connect(partial, isolation_level=None)
    try:
        source.copy_into(target, pages, pause)
        # A backup is one self-contained file: no WAL beside it to lose on a copy.
        target.execute("PRAGMA journal_mode=DELETE")
        found = target.execute("PRAGMA integrity_check").fetchall()
        if found != [("ok",)]:
            problems = "; ".join(str(r[0]) for r in found[:5])
            raise CopyNotWhole(f"the copy fails SQLite's integrity check: {problems}")
    finally:
        target.close()


def _check_chain(partial: Path) -> tuple[Digest | None, int]:
    copy = Journal(partial, read_only=True)
    try:
        if not copy.has_chain():
            raise CopyNotWhole(
                "the journal is not chained yet (written before the hash chain): start the "
                "station once, which chains it, then back it up"
            )
        found = walk(copy.rows(), start=chain_start(copy))
    finally:
        copy.close()
    if found.broken is not None:
        raise CopyNotWhole(
            f"the copy's hash chain breaks at record {found.broken.seq} ({found.broken.what}): "
            f"{found.broken.why}; the journal itself is in doubt: run `dealer-station journal "
            "verify` on it"
        )
    return found.head, found.records


def backup(
    journal: Path,
    directory: Path,
    keep: int,
    *,
    pages: int = STEP_PAGES,
    pause: Pause = _pause,
) -> Backup:
    """Copy ``journal`` into ``directory``, check the copy, keep the newest
    ``keep`` backups of it. ``pause(remaining, total)`` runs after each step of
    ``pages`` pages."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    if not directory.is_dir():
        raise NoDirectory(f"{directory}: no such directory")
    at = utc_now()
    final = directory / backup_name(journal, at)
    partial = directory / f".{final.name}.partial"
    source = _open_source(journal)
    try:
        _copy(source, partial, pages, pause)
        head, records = _check_chain(partial)
        fsync_path(partial)
        os.rename(partial, final)
        fsync_path(directory)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        if _is_full(exc):
            raise DiskFull(f"{directory}: no space left for the copy of {journal}") from None
        if isinstance(exc, sqlite3.Error):
            raise BackupError(f"copying {journal} into {directory}: {exc}") from None
        raise
    finally:
        source.close()
    removed = tuple(backups_of(journal, directory)[:-keep])
    for old in removed:
        old.unlink()
    return Backup(final, head, records, removed)
