"""The journal: every input a table received, in order, on disk before anything
is published.

SQLite in WAL mode with ``synchronous=FULL``: a commit returns only after the WAL
is fsync'd, so an input the table acted on survives a power cut (docs/journal.md
says why this and not a cheaper setting). One database holds every table of the
station; each record names its table.

Beside each record, in the same transaction, the journal keeps the MQTT
messages the record caused (the *outbox*). They are a pure function of the
record, stored so that a message published again after a crash is the same
bytes with the same id. The publisher's cursor (``acked``) is the last message
the broker acknowledged; it only moves forward.

Every record carries a hash chaining it to the one before, over its columns
and its outbox messages (``journal_chain``; docs/journal.md gives the bytes): an
edited, inserted, deleted or moved record shows, and a published digest of the
chain's head proves the journal up to it was not rewritten later. The writer
keeps the head in memory and numbers the records itself, so the append reads
nothing; a journal written before the chain is chained at its writer's open.

One process writes a journal, for ever: opening one for writing takes an
exclusive lock on ``<journal>.lock`` before the database is touched, and a second
writer is refused (``JournalInUse``) having read and written nothing. Readers
(game recall, tools, tests looking at a running station) open it read-only and
need no lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shlex
import sqlite3
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer_station import journal_chain
from dealer_station.journal_chain import Row

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    at TEXT NOT NULL,
    source TEXT NOT NULL,
    by TEXT,
    why TEXT,
    kind TEXT NOT NULL,        -- event | device | alarm
    body TEXT NOT NULL,        -- JSON: the event (docs/events.md) or the notice
    status TEXT NOT NULL,      -- accepted | rejected | note
    reason TEXT,
    detail TEXT,
    hash TEXT                  -- hex SHA-256 chaining it to the record before (journal_chain)
);
CREATE INDEX IF NOT EXISTS journal_table ON journal (table_id, seq);
CREATE TABLE IF NOT EXISTS outbox (
    table_id TEXT NOT NULL,
    msg_seq INTEGER NOT NULL,
    journal_seq INTEGER NOT NULL REFERENCES journal (seq),
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (table_id, msg_seq)
);
-- A record's messages, for the hash chain's readers (journal_chain).
CREATE INDEX IF NOT EXISTS outbox_record ON outbox (journal_seq, msg_seq);
CREATE TABLE IF NOT EXISTS acked (
    table_id TEXT PRIMARY KEY,
    msg_seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshot (
    table_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,      -- the table's last record the state folds in
    format TEXT NOT NULL,      -- the code that wrote it: other code replays instead
    state BLOB NOT NULL,
    hash TEXT                  -- the hash of record seq: a start checks it still holds
);
-- Records chained when a journal written before the chain was opened, not when
-- they were written: a verify says so (docs/journal.md).
CREATE TABLE IF NOT EXISTS chain_migration (
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    at TEXT NOT NULL
);
-- The first answer to each client's Idempotency-Key (docs/api.md), written in
-- the transaction of the input it answered: a power cut keeps both or neither.
CREATE TABLE IF NOT EXISTS idempotency (
    table_id TEXT NOT NULL,
    principal TEXT NOT NULL,   -- the token's name: keys are per client
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL, -- the request's method, path and body
    journal_seq INTEGER NOT NULL REFERENCES journal (seq),
    answer TEXT NOT NULL,      -- JSON: the outcome as the client was told it
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, principal, key)
);
CREATE INDEX IF NOT EXISTS idempotency_age ON idempotency (table_id, at);
-- Records moved into a sealed archive file (journal_archive): the range, the
-- chain's hash before it and at its end, the file's name and SHA-256.
CREATE TABLE IF NOT EXISTS archive (
    first_seq INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    previous_hash TEXT NOT NULL,
    head_hash TEXT NOT NULL,
    file TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    at TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class Record:
    table: str
    at: str
    source: str
    kind: str
    body: dict[str, Any]
    status: str
    reason: str | None = None
    detail: str | None = None
    by: str | None = None
    why: str | None = None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class Answer:
    """The first answer to one client's idempotency key."""

    principal: str
    key: str
    fingerprint: str
    answer: dict[str, Any]
    journal_seq: int = 0


@dataclass(frozen=True, slots=True)
class OutMessage:
    table: str
    msg_seq: int
    topic: str
    payload: str


# The writer's page cache, in KiB. SQLite's default (2,000) fills over the
# first half hour of play and is then held for good: RSS that looks like a
# leak (docs/memory.md). An append touches the last pages of each table and
# index and a few above them; the rest is read once, if at all.
WRITER_CACHE_KIB = 256

# How many records the chain's readers take at a time.
CHAIN_BATCH = 5000

# The bodies' JSON, one encoder for all (``json.dumps`` with options builds one a call).
_COMPACT = json.JSONEncoder(separators=(",", ":"))

# A record of this kind says that an accepted record (``body.refers_to``) could
# not be applied when the table was rebuilt, and why (``reason``, ``detail``).
REFUSED_ON_REPLAY = "replay"


class JournalInUse(Exception):
    """Another process holds the journal: this one must not touch it."""


def lock_path(path: Path) -> Path:
    """The file whose lock says who writes the journal. Not the database
    itself: SQLite's own POSIX locks on that file are dropped by any close() of
    it in the process, and a lock there would be dropped with them."""
    return path.with_name(path.name + ".lock")


def _take_lock(path: Path) -> int:
    """Lock the journal for this process's life (the kernel drops the lock
    when the process ends, even by kill -9) and write who holds it. Beside the
    file itself, so that two names of one journal (a symlink) share one lock."""
    fd = os.open(lock_path(path.resolve()), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip() or "unknown process"
        os.close(fd)
        raise JournalInUse(
            f"journal {path} is in use by {holder}: refusing to start a second writer"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    started = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    who = f"pid {os.getpid()} (started {started}: {shlex.join(sys.orig_argv)})\n"
    os.ftruncate(fd, 0)
    os.pwrite(fd, who.encode(), 0)
    return fd


class Journal:
    """One writer: the station's event loop thread. The publisher reads the
    outbox and moves its cursor from the same thread.

    ``read_only`` opens it for reading alone, without the lock, while another
    process may write it: no schema, no pragma, every write fails. ``cache_kib``:
    the writer's page cache (a benchmark compares sizes)."""

    def __init__(
        self, path: Path, *, read_only: bool = False, cache_kib: int = WRITER_CACHE_KIB
    ) -> None:
        self.path = path
        self._lock: int | None = None
        # The chain's head: the last record's seq and hash. The one writer keeps
        # it, so that an append reads nothing.
        self._last, self._head = 0, journal_chain.GENESIS
        if read_only:
            self._db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        # The lock before anything else: a second process must not so much as
        # run the schema script or recover the WAL of the first one's database.
        self._lock = _take_lock(path)
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(f"PRAGMA cache_size=-{int(cache_kib)}")
            self._db.executescript(SCHEMA)
            self._last, self._head = self._chain_unhashed()
        except BaseException:
            os.close(self._lock)
            raise

    def _chain_unhashed(self) -> tuple[int, bytes]:
        """Chain the records at the journal's end that have no hash (all of a
        journal written before the chain, or what older code appended since),
        in one transaction, noting the range in ``chain_migration``; return the
        chain's head. Records without a hash before a hashed one are left as
        they are: a verify names them."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("journal", "snapshot"):
                if "hash" not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN hash TEXT")
            hashed = db.execute(
                "SELECT seq, hash FROM journal WHERE hash IS NOT NULL ORDER BY seq DESC LIMIT 1"
            ).fetchone()
            last, head = (
                (0, journal_chain.GENESIS)
                if hashed is None
                else (int(hashed[0]), journal_chain.as_previous(str(hashed[1])))
            )
            first = last + 1
            while rows := list(self.rows(after=last, limit=CHAIN_BATCH)):
                updates = []
                for row in rows:
                    head = journal_chain.link(head, row.columns, row.messages)
                    updates.append((head.hex(), row.seq))
                db.executemany("UPDATE journal SET hash = ? WHERE seq = ?", updates)
                last = rows[-1].seq
            if last >= first:
                at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
                db.execute("INSERT INTO chain_migration VALUES (?, ?, ?)", (first, last, at))
                # A snapshot of these records was taken without their hash (or
                # with a stale one, by older code): trusted as the records are.
                db.execute(
                    "UPDATE snapshot SET hash = (SELECT hash FROM journal WHERE seq = snapshot.seq)"
                    " WHERE hash IS NULL OR seq >= ?",
                    (first,),
                )
                log.warning(
                    "journal %s: records %d to %d had no hash: chained now, at %s (a verify "
                    "will say they were chained at migration, not when written)",
                    self.path,
                    first,
                    last,
                    at,
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return last, head

    def rows(self, after: int = 0, limit: int | None = None) -> Iterator[Row]:
        """Every record after ``after`` as the chain covers it (journal_chain):
        its columns as stored, its outbox messages, its stored hash; in seq
        order, ``limit`` at most. Read in batches, each whole: a reader that
        must see one instant of the journal runs this in a transaction."""
        remaining = limit
        while remaining is None or remaining > 0:
            batch = CHAIN_BATCH if remaining is None else min(CHAIN_BATCH, remaining)
            records = self._db.execute(
                "SELECT seq, table_id, at, source, by, why, kind, body, status, reason, detail,"
                " hash FROM journal WHERE seq > ? ORDER BY seq LIMIT ?",
                (after, batch),
            ).fetchall()
            if not records:
                return
            messages: dict[int, list[tuple[Any, ...]]] = {}
            for journal_seq, *message in self._db.execute(
                "SELECT journal_seq, msg_seq, table_id, topic, payload FROM outbox"
                " WHERE journal_seq > ? AND journal_seq <= ?",
                (after, records[-1][0]),
            ):
                messages.setdefault(journal_seq, []).append(tuple(message))
            for *columns, stored in records:
                # In msg_seq order (then table), as docs/journal.md states it.
                ordered = sorted(messages.get(columns[0], ()))
                yield Row(tuple(columns), tuple((t, n, tp, p) for n, t, tp, p in ordered), stored)
            after = records[-1][0]
            if remaining is not None:
                remaining -= len(records)

    def orphan_messages(self) -> list[int]:
        """The records that outbox messages name but the journal no longer holds."""
        rows = self._db.execute(
            "SELECT DISTINCT journal_seq FROM outbox WHERE journal_seq NOT IN"
            " (SELECT seq FROM journal) ORDER BY journal_seq"
        )
        return [int(r[0]) for r in rows]

    def chain_migrations(self) -> list[tuple[int, int, str]]:
        """Each range of records chained at an open rather than when written:
        (first seq, last seq, when)."""
        rows = self._db.execute(
            "SELECT first_seq, last_seq, at FROM chain_migration ORDER BY first_seq"
        )
        return [(int(a), int(b), str(at)) for a, b, at in rows]

    def has_chain(self) -> bool:
        """Whether the journal has its hash column (a journal written before the
        chain gets it at the writer's next open)."""
        return "hash" in {r[1] for r in self._db.execute("PRAGMA table_info(journal)")}

    @contextlib.contextmanager
    def one_instant(self) -> Iterator[None]:
        """Reads inside see the journal as it stood at one instant, whatever its
        writer commits meanwhile (WAL): a verify of a running station's journal."""
        self._db.execute("BEGIN")
        try:
            yield
        finally:
            self._db.execute("COMMIT")

    def connection(self) -> sqlite3.Connection:
        """The database, for a tool that owns its SQL over the whole journal
        (journal_archive's cut), through the object that holds the lock."""
        return self._db

    def read_with(self, archives: Sequence[Path]) -> None:
        """Read the archives' records and messages before the journal's own, as
        one journal: every reader above (export, replay, verify) then sees them.
        Temporary views of the same names shadow the journal's tables, for this
        read-only connection alone."""
        if not archives:
            return
        arms: dict[str, list[str]] = {"journal": [], "outbox": []}
        for number, path in enumerate(archives):
            self._db.execute(
                f"ATTACH ? AS archive{number}", (f"{path.resolve().as_uri()}?mode=ro",)
            )
            for table in arms:
                arms[table].append(f"SELECT * FROM archive{number}.{table}")
        for table, selects in arms.items():
            union = " UNION ALL ".join([*selects, f"SELECT * FROM main.{table}"])
            self._db.execute(f"CREATE TEMP VIEW {table} AS {union}")

    def copy_into(
        self, target: sqlite3.Connection, pages: int, between: Callable[[int, int], None]
    ) -> None:
        """Copy the whole database into ``target`` with SQLite's online backup,
        ``pages`` pages a step, ``between(remaining, total)`` after each, as it
        stood at one instant. Inside one read transaction, each step reads that
        instant: otherwise every commit of the writer between two steps would
        restart the copy, and a busy station's never end."""
        with self.one_instant():
            self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the instant
            self._db.backup(target, pages=pages, progress=lambda _, left, n: between(left, n))

    def chain_head(self) -> tuple[int, str] | None:
        """The last record's seq and hash: what a digest publishes."""
        row = self._db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        return None if row is None or row[1] is None else (int(row[0]), str(row[1]))

    def record_hash(self, seq: int) -> str | None:
        """The hash stored with record ``seq``, or None."""
        row = self._db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            os.close(self._lock)  # releases the lock
            self._lock = None

    def append(
        self, record: Record, messages: list[OutMessage], answer: Answer | None = None
    ) -> int:
        """Write the record and its messages in one transaction, with the answer
        to the request's idempotency key if it had one; return its seq."""
        db = self._db
        seq = self._last + 1
        columns = (
            seq,
            record.table,
            record.at,
            record.source,
            record.by,
            record.why,
            record.kind,
            _COMPACT.encode(record.body),
            record.status,
            record.reason,
            record.detail,
        )
        ordered = sorted((m.msg_seq, m.table, m.topic, m.payload) for m in messages)
        head = journal_chain.link(self._head, columns, [(t, n, tp, p) for n, t, tp, p in ordered])
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "INSERT INTO journal (seq, table_id, at, source, by, why, kind, body, status,"
                " reason, detail, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*columns, head.hex()),
            )
            db.executemany(
                "INSERT INTO outbox (table_id, msg_seq, journal_seq, topic, payload)"
                " VALUES (?, ?, ?, ?, ?)",
                [(m.table, m.msg_seq, seq, m.topic, m.payload) for m in messages],
            )
            if answer is not None:
                db.execute(
                    # A row left from beyond the retention window gives way.
                    "INSERT OR REPLACE INTO idempotency (table_id, principal, key, fingerprint,"
                    " journal_seq, answer, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.table,
                        answer.principal,
                        answer.key,
                        answer.fingerprint,
                        seq,
                        _COMPACT.encode(answer.answer),
                        record.at,
                    ),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._last, self._head = seq, head
        return seq

    def answer(self, table: str, principal: str, key: str, since: str) -> Answer | None:
        """The first answer to ``principal``'s ``key`` at the table, if it was
        given at ``since`` (ISO time) or later."""
        row = self._db.execute(
            "SELECT fingerprint, answer, journal_seq FROM idempotency"
            " WHERE table_id = ? AND principal = ? AND key = ? AND at >= ?",
            (table, principal, key, since),
        ).fetchone()
        if row is None:
            return None
        return Answer(principal, key, str(row[0]), dict(json.loads(row[1])), int(row[2]))

    def forget_answers(self, table: str, before: str) -> None:
        """Drop the table's answers given before ``before`` (ISO time): past the
        retention window (docs/api.md). Without an fsync: a purge lost to a
        power cut is done again, and ``answer`` does not give an old one anyway."""
        self._write_unsynced(
            "DELETE FROM idempotency WHERE table_id = ? AND at < ?", (table, before)
        )

    def records(self, table: str, kind: str | None = None, after: int = 0) -> Iterator[Record]:
        """The table's records with a seq above ``after``, in order."""
        query = (
            "SELECT seq, table_id, at, source, by, why, kind, body, status, reason, detail"
            " FROM journal WHERE table_id = ? AND seq > ?"
        )
        args: tuple[str | int, ...] = (table, after)
        if kind is not None:
            query += " AND kind = ?"
            args += (kind,)
        for row in self._db.execute(query + " ORDER BY seq", args):
            seq, table_id, at, source, by, why, kind_, body, status, reason, detail = row
            yield Record(
                table_id, at, source, kind_, json.loads(body), status, reason, detail, by, why, seq
            )

    def recent_ids(self, table: str, source: str, limit: int) -> list[str]:
        """The device names (``id``) of the table's last ``limit`` events from
        ``source`` that carry one, newest first."""
        rows = self._db.execute(
            "SELECT json_extract(body, '$.id') FROM journal WHERE table_id = ? AND source = ?"
            " AND kind = 'event' AND json_extract(body, '$.id') IS NOT NULL"
            " ORDER BY seq DESC LIMIT ?",
            (table, source, limit),
        )
        return [str(r[0]) for r in rows]

    def last_message(self, table: str, kind: str) -> str | None:
        """The payload of the table's last outbox message of that type: the
        message's own ``type``, never text that a refused input's body quotes."""
        # instr() first: it passes over most rows without parsing their JSON.
        row = self._db.execute(
            "SELECT payload FROM outbox WHERE table_id = ? AND instr(payload, ?) > 0"
            " AND json_extract(payload, '$.type') = ? ORDER BY msg_seq DESC LIMIT 1",
            (table, f'"type":"{kind}"', kind),
        ).fetchone()
        return None if row is None else str(row[0])

    def records_but(
        self, table: str, types: Collection[str], unless_caused: str
    ) -> Iterator[Record]:
        """The table's records in order, but the events of those ``types`` that
        caused no outbox message of type ``unless_caused``: a reader that needs
        few kinds of input skips the rest unparsed (``dealer-station integrity``
        passes over a million records' bets)."""
        marks = ", ".join("?" * len(types))
        query = (
            "SELECT seq, table_id, at, source, by, why, kind, body, status, reason, detail"
            " FROM journal WHERE table_id = ? AND (kind != 'event' OR"
            f" json_extract(body, '$.type') NOT IN ({marks}) OR seq IN"
            " (SELECT journal_seq FROM outbox WHERE table_id = ? AND instr(payload, ?) > 0))"
            " ORDER BY seq"
        )
        args = (table, *types, table, f'"type":"{unless_caused}"')
        for row in self._db.execute(query, args):
            seq, table_id, at, source, by, why, kind_, body, status, reason, detail = row
            yield Record(
                table_id, at, source, kind_, json.loads(body), status, reason, detail, by, why, seq
            )

    def messages_of_type(self, table: str, kind: str) -> Iterator[tuple[int, str]]:
        """The (journal seq, payload) of each of the table's outbox messages of
        that type, in order: the round events an input caused, for tools that
        read them beside the records (``dealer-station integrity``)."""
        rows = self._db.execute(
            "SELECT journal_seq, payload FROM outbox WHERE table_id = ? AND instr(payload, ?) > 0"
            " AND json_extract(payload, '$.type') = ? ORDER BY msg_seq",
            (table, f'"type":"{kind}"', kind),
        )
        for seq, payload in rows:
            yield int(seq), str(payload)

    def refused_on_replay(self, table: str) -> set[int]:
        """The seqs of the table's accepted records that a start could not apply
        and journaled as refused: later starts pass over them."""
        rows = self._db.execute(
            "SELECT json_extract(body, '$.refers_to') FROM journal WHERE table_id = ? AND kind = ?",
            (table, REFUSED_ON_REPLAY),
        )
        return {int(r[0]) for r in rows if r[0] is not None}

    def tables(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT DISTINCT table_id FROM journal")]

    def last_msg_seq(self, table: str) -> int:
        row = self._db.execute(
            "SELECT COALESCE(MAX(msg_seq), 0) FROM outbox WHERE table_id = ?", (table,)
        ).fetchone()
        return int(row[0])

    def outbox(self, table: str, after: int, limit: int) -> list[OutMessage]:
        rows = self._db.execute(
            "SELECT table_id, msg_seq, topic, payload FROM outbox"
            " WHERE table_id = ? AND msg_seq > ? ORDER BY msg_seq LIMIT ?",
            (table, after, limit),
        )
        return [OutMessage(*row) for row in rows]

    def size_bytes(self) -> int:
        """What the journal takes on disk: the database and its write-ahead log."""
        total = 0
        for file in (self.path, self.path.with_name(self.path.name + "-wal")):
            with contextlib.suppress(FileNotFoundError):  # no WAL yet, or checkpointed away
                total += file.stat().st_size
        return total

    def message_at(self, table: str, msg_seq: int) -> str | None:
        """The ``at`` of the record that put the table's message ``msg_seq`` in the outbox."""
        row = self._db.execute(
            "SELECT journal.at FROM outbox JOIN journal ON journal.seq = outbox.journal_seq"
            " WHERE outbox.table_id = ? AND outbox.msg_seq = ?",
            (table, msg_seq),
        ).fetchone()
        return None if row is None else str(row[0])

    def acked(self, table: str) -> int:
        row = self._db.execute("SELECT msg_seq FROM acked WHERE table_id = ?", (table,)).fetchone()
        return int(row[0]) if row else 0

    def last_seq(self, table: str) -> int:
        row = self._db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE table_id = ?", (table,)
        ).fetchone()
        return int(row[0])

    def set_acked(self, table: str, msg_seq: int) -> None:
        # Without an fsync: a cursor lost to a power cut only sends a few
        # messages again, with the same ids and bytes, which consumers drop. The
        # next input's commit makes it durable anyway. One fsync per PUBACK would
        # double the disk work of every card and hold up the loop.
        self._write_unsynced(
            "INSERT INTO acked (table_id, msg_seq) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET msg_seq = MAX(msg_seq, excluded.msg_seq)",
            (table, msg_seq),
        )

    def snapshot(self, table: str) -> tuple[int, str, bytes] | None:
        """The table's snapshot: (seq, format, state), or None."""
        row = self._db.execute(
            "SELECT seq, format, state FROM snapshot WHERE table_id = ?", (table,)
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bytes(row[2]))

    def snapshot_hash(self, table: str) -> str | None:
        """The hash of the record the table's snapshot folds in, as the
        snapshot was taken."""
        row = self._db.execute("SELECT hash FROM snapshot WHERE table_id = ?", (table,)).fetchone()
        return None if row is None else row[0]

    def save_snapshot(self, table: str, seq: int, format: str, state: bytes) -> None:
        # Without an fsync, like the cursor: a snapshot lost to a power cut costs
        # a longer replay at the next start, nothing else. WAL keeps commits in
        # order, so a snapshot that survives names records that survived too.
        # The hash it folds in is read, not remembered: snapshots are rare.
        self._write_unsynced(
            "INSERT INTO snapshot (table_id, seq, format, state, hash)"
            " VALUES (?, ?, ?, ?, (SELECT hash FROM journal WHERE seq = ?))"
            " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
            " format = excluded.format, state = excluded.state, hash = excluded.hash",
            (table, seq, format, state, seq),
        )

    def _write_unsynced(self, statement: str, args: tuple[str | int | bytes, ...]) -> None:
        db = self._db
        db.execute("PRAGMA synchronous=NORMAL")
        try:
            db.execute(statement, args)
        finally:
            db.execute("PRAGMA synchronous=FULL")
