"""Settled rounds moved out of the journal into a sealed archive file (docs/journal.md,
"Archive").

The chain runs over every table in seq order, so an archive is always a prefix
of what the journal still holds: records ``first`` to ``last``, whole. ``last``
is the latest record such that every record up to it is older than the date
given, no table has a round in play at it (between a ``round_opened`` and its
``round_settled``, which a void is too), the broker acknowledged every message
up to it, and each table keeps what its next start reads: its snapshot's record
and the one before it (``table_recovery`` checks both hashes), its last
message (the next message's number) and its last ``round_settled`` (the
retained result).

The archive is an SQLite file with the journal's schema, the records and their
outbox messages as they were, and a ``seal``: the range, the chain's hash before
it and at its end. Written beside its name, its chain checked, fsync'd, made
read-only and renamed; only then does the live journal, in one transaction,
note the archive (range, hashes, the file's name and SHA-256) and delete the
records. The station must be stopped: archiving takes the writer's lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dealer_station.clock import iso, utc_now
from dealer_station.durable import fsync_path
from dealer_station.journal import SCHEMA, Journal
from dealer_station.journal_chain import GENESIS, Digest, walk

SEAL = """
CREATE TABLE seal (
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    previous_hash TEXT NOT NULL,  -- the hash of record first_seq - 1 (genesis: zeros)
    head_hash TEXT NOT NULL,      -- the hash of record last_seq
    records INTEGER NOT NULL,
    at TEXT NOT NULL
);
"""
_RECORD = "seq, table_id, at, source, by, why, kind, body, status, reason, detail, hash"
_MESSAGE = "table_id, msg_seq, journal_seq, topic, payload"


class ArchiveError(Exception):
    """The archive was not made; the journal is as it was."""


class NothingToArchive(ArchiveError):
    """No record before the date can go without cutting what must stay."""


@dataclass(frozen=True, slots=True)
class Seal:
    """An archive: its records' range, the chain's hash before and at its end."""

    first_seq: int
    last_seq: int
    previous_hash: str
    head_hash: str
    file: str = ""
    sha256: str = ""


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _cut(db: sqlite3.Connection, before: str, first: int) -> tuple[int, str]:
    """The last record that may go, and what bounds it."""
    bounds: list[tuple[int, str]] = []

    def bound(seq: int | None, why: str) -> None:
        if seq is not None:
            bounds.append((int(seq), why))

    (newer,) = db.execute("SELECT MIN(seq) FROM journal WHERE at >= ?", (before,)).fetchone()
    bound(newer, f"record {newer} is from {before} or later")
    (last,) = db.execute("SELECT MAX(seq) FROM journal").fetchone()
    bound(None if last is None else last + 1, "the journal's end")
    for table in [r[0] for r in db.execute("SELECT DISTINCT table_id FROM journal")]:
        snap = db.execute("SELECT seq FROM snapshot WHERE table_id = ?", (table,)).fetchone()
        if snap is None:
            bound(first, f"table {table} has no snapshot: a start replays all its records")
        else:
            bound(snap[0] - 1, f"table {table}'s snapshot (record {snap[0]}) and the one before")
        (message,) = db.execute(
            "SELECT MAX(journal_seq) FROM outbox WHERE table_id = ?", (table,)
        ).fetchone()
        bound(message, f"table {table}'s last message")
        settled = db.execute(
            "SELECT journal_seq FROM outbox WHERE table_id = ? AND instr(payload, ?) > 0"
            " ORDER BY msg_seq DESC LIMIT 1",
            (table, '"type":"round_settled"'),
        ).fetchone()
        bound(None if settled is None else settled[0], f"table {table}'s last settlement")
        (unacked,) = db.execute(
            "SELECT MIN(journal_seq) FROM outbox WHERE table_id = ? AND msg_seq >"
            " COALESCE((SELECT msg_seq FROM acked WHERE table_id = ?), 0)",
            (table, table),
        ).fetchone()
        bound(unacked, f"table {table}'s messages not yet acknowledged by the broker")
    limit, why = min(bounds)
    # No round in play at the cut: step back to before the round that spans it,
    # until no table has one (a step back for one table may land in another's).
    cut = limit - 1
    tables = [r[0] for r in db.execute("SELECT DISTINCT table_id FROM outbox")]
    moved = True
    while moved and cut > 0:
        moved = False
        for table in tables:
            opened = _round_in_play(db, table, cut)
            if opened is not None:
                cut, why = opened - 1, f"table {table}'s round opened at record {opened} is in play"
                moved = True
    return cut, why


def _round_in_play(db: sqlite3.Connection, table: str, at: int) -> int | None:
    """The record that opened the table's round in play after record ``at``, if
    one is: its last ``round_opened`` up to there, with no ``round_settled``
    after it (by message number: one record may settle a round and open the
    next) up to there."""
    opened = db.execute(
        "SELECT journal_seq, msg_seq FROM outbox WHERE table_id = ? AND journal_seq <= ?"
        ' AND instr(payload, \'"type":"round_opened"\') > 0 ORDER BY msg_seq DESC LIMIT 1',
        (table, at),
    ).fetchone()
    if opened is None:
        return None
    settled = db.execute(
        "SELECT 1 FROM outbox WHERE table_id = ? AND msg_seq > ? AND journal_seq <= ?"
        ' AND instr(payload, \'"type":"round_settled"\') > 0 LIMIT 1',
        (table, opened[1], at),
    ).fetchone()
    return None if settled is not None else int(opened[0])


def seals(journal: Journal) -> list[Seal]:
    """The archives the journal's records went to, in order (none in a journal
    from before archives, which a read-only reader does not give the table)."""
    db = journal.connection()
    if db.execute("SELECT 1 FROM main.sqlite_master WHERE name = 'archive'").fetchone() is None:
        return []
    rows = db.execute(
        "SELECT first_seq, last_seq, previous_hash, head_hash, file, sha256 FROM main.archive"
        " ORDER BY first_seq"
    )
    return [Seal(int(a), int(b), str(p), str(h), str(f), str(d)) for a, b, p, h, f, d in rows]


def archive(journal_path: Path, before: str, to: Path) -> Seal:
    """Move the settled rounds before ``before`` (ISO UTC) into the file ``to``."""
    if to.exists():
        raise ArchiveError(f"{to} exists: an archive is never overwritten")
    journal = Journal(journal_path)  # the lock: JournalInUse while a station runs
    try:
        return _archive(journal, before, to)
    finally:
        journal.close()


def _archive(journal: Journal, before: str, to: Path) -> Seal:
    db = journal.connection()
    done = seals(journal)
    first, previous = (
        (1, GENESIS.hex()) if not done else (done[-1].last_seq + 1, done[-1].head_hash)
    )
    last, why = _cut(db, before, first)
    if last < first:
        raise NothingToArchive(f"nothing to archive before {before}: {why}")
    partial = to.with_name(f".{to.name}.partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    try:
        seal = _write(db, partial, first, last, previous)
        fsync_path(partial)
        os.chmod(partial, 0o444)
        os.rename(partial, to)
        fsync_path(to.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
    sealed = Seal(first, last, previous, seal, to.name, file_sha256(to))
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(
            "INSERT INTO archive (first_seq, last_seq, previous_hash, head_hash, file, sha256, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (first, last, previous, seal, to.name, sealed.sha256, iso(utc_now())),
        )
        db.execute("DELETE FROM outbox WHERE journal_seq <= ?", (last,))
        db.execute("DELETE FROM journal WHERE seq <= ?", (last,))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return sealed


def _write(db: sqlite3.Connection, partial: Path, first: int, last: int, previous: str) -> str:
    """Write records first..last into the archive file; return the chain's head."""
    target = sqlite3.connect(partial, isolation_level=None)
    try:
        target.executescript(SCHEMA + SEAL)
        target.execute("BEGIN")
        target.executemany(
            f"INSERT INTO journal ({_RECORD}) VALUES ({', '.join('?' * 12)})",
            db.execute(f"SELECT {_RECORD} FROM journal WHERE seq BETWEEN ? AND ?", (first, last)),
        )
        target.executemany(
            f"INSERT INTO outbox ({_MESSAGE}) VALUES (?, ?, ?, ?, ?)",
            db.execute(
                f"SELECT {_MESSAGE} FROM outbox WHERE journal_seq BETWEEN ? AND ?", (first, last)
            ),
        )
        target.execute("COMMIT")
        written = Journal(partial, read_only=True)
        try:
            found = walk(written.rows(), start=Digest(first - 1, previous))
        finally:
            written.close()
        if found.broken is not None or found.head is None or found.head.seq != last:
            where = found.broken.why if found.broken else "records missing"
            raise ArchiveError(f"the journal's chain does not hold: {where}: archive nothing")
        target.execute(
            "INSERT INTO seal VALUES (?, ?, ?, ?, ?, ?)",
            (first, last, previous, found.head.hash, found.records, iso(utc_now())),
        )
        return found.head.hash
    finally:
        target.close()


def chain_start(journal: Journal) -> Digest | None:
    """Where the journal's own chain starts: its last archive's head, or None
    (from the genesis hash) if it has none."""
    archived = seals(journal)
    return Digest(archived[-1].last_seq, archived[-1].head_hash) if archived else None


def mismatches(journal: Journal, archives: Sequence[Path]) -> list[str]:
    """What does not match between the archives given, in order, and those the
    journal notes: one not given, one changed since it was sealed (its SHA-256),
    one the journal does not name."""
    noted = seals(journal)
    problems = []
    for number, seal in enumerate(noted):
        what = f"records {seal.first_seq} to {seal.last_seq}"
        if number >= len(archives):
            problems.append(f"{what} are archived in {seal.file}: give it with --archive")
            continue
        path = archives[number]
        if not path.is_file():
            problems.append(f"{path}: no such file ({what} are archived in {seal.file})")
            continue
        found = file_sha256(path)
        if found != seal.sha256:
            problems.append(
                f"ARCHIVE CHANGED: {path} has SHA-256 {found}; the journal noted {seal.sha256} "
                f"for {what} ({seal.file}) when they were archived"
            )
    problems.extend(
        f"{extra}: the journal notes no archive beyond {len(noted)}"
        for extra in archives[len(noted) :]
    )
    return problems
