"""The journal's hash chain as docs/journal.md states it: another program can
recompute it from the doc alone; a journal written before the chain gets it at
its next open, once, and a verify says from where and when; a snapshot names
the hash it folds in, and a start that finds the journal changed under it
replays everything and raises the alarm."""

from __future__ import annotations

import hashlib
import sqlite3
import struct
from pathlib import Path

from support.chained_journal import played, rechain_from, send, table, tamper, verify

from dealer_station.journal import Journal, OutMessage, Record

AT = "2026-12-01T07:00:00.000Z"


# -- the encoding, written again from docs/journal.md, not from the code --------------------


def _value(value: int | str | None) -> bytes:
    if value is None:
        return b"\x00"
    if isinstance(value, int):
        return b"\x01" + struct.pack(">q", value)
    data = value.encode("utf-8")
    return b"\x02" + struct.pack(">I", len(data)) + data


def _doc_chain(path: Path) -> list[str]:
    """Every record's hash as the doc's recipe gives it, from the file alone."""
    db = sqlite3.connect(path)
    hashes, previous = [], bytes(32)
    records = db.execute(
        "SELECT seq, table_id, at, source, by, why, kind, body, status, reason, detail"
        " FROM journal ORDER BY seq"
    ).fetchall()
    for record in records:
        messages = db.execute(
            "SELECT table_id, msg_seq, topic, payload FROM outbox WHERE journal_seq = ?"
            " ORDER BY msg_seq, table_id",
            (record[0],),
        ).fetchall()
        data = b"".join(_value(v) for v in record) + struct.pack(">I", len(messages))
        data += b"".join(_value(v) for m in messages for v in m)
        previous = hashlib.sha256(previous + data).digest()
        hashes.append(previous.hex())
    db.close()
    return hashes


def test_the_chain_is_the_one_the_doc_describes(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    # What the encoding must keep apart: NULL and "", a unicode text, two
    # messages given out of order, a record without messages.
    journal.append(
        Record("t", AT, "api", "event", {"type": "bet", "player": "Zoë"}, "accepted", by=""),
        [OutMessage("t", 2, "p/t/round/event", '{"b":2}'), OutMessage("t", 1, "p/t/x", "{}")],
    )
    journal.append(Record("t", AT, "shoe", "device", {"state": "offline"}, "note"), [])
    journal.close()
    played(tmp_path / "j.sqlite3", rounds=2)  # and the station's own records after them
    db = sqlite3.connect(tmp_path / "j.sqlite3")
    stored = [h for (h,) in db.execute("SELECT hash FROM journal ORDER BY seq")]
    db.close()
    assert len(stored) > 20
    assert stored == _doc_chain(tmp_path / "j.sqlite3")


def test_the_chain_goes_on_across_restarts(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    played(path, rounds=1)
    played(path, rounds=1)  # a second start of both tables on the same file
    code, out = verify(path)
    assert code == 0, out
    assert "migration" not in out


# -- a journal written before the chain ------------------------------------------------------

# The schema of the journal before the chain, as dealer_station/journal.py on
# main had it (no hash column, no chain_migration table).
OLD_SCHEMA = """
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY, table_id TEXT NOT NULL, at TEXT NOT NULL, source TEXT NOT NULL,
    by TEXT, why TEXT, kind TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,
    reason TEXT, detail TEXT
);
CREATE INDEX journal_table ON journal (table_id, seq);
CREATE TABLE outbox (
    table_id TEXT NOT NULL, msg_seq INTEGER NOT NULL,
    journal_seq INTEGER NOT NULL REFERENCES journal (seq), topic TEXT NOT NULL,
    payload TEXT NOT NULL, PRIMARY KEY (table_id, msg_seq)
);
CREATE TABLE acked (table_id TEXT PRIMARY KEY, msg_seq INTEGER NOT NULL);
CREATE TABLE snapshot (
    table_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, format TEXT NOT NULL, state BLOB NOT NULL
);
CREATE TABLE idempotency (
    table_id TEXT NOT NULL, principal TEXT NOT NULL, key TEXT NOT NULL,
    fingerprint TEXT NOT NULL, journal_seq INTEGER NOT NULL REFERENCES journal (seq),
    answer TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, principal, key)
);
CREATE INDEX idempotency_age ON idempotency (table_id, at);
"""

OLD_COLUMNS = "seq, table_id, at, source, by, why, kind, body, status, reason, detail"


def _old_journal(tmp_path: Path) -> tuple[Path, int]:
    """A journal in the old schema with the records, messages and snapshot of
    real play: played by today's actors, then copied column by column into a
    file made with the old schema's SQL."""
    played_path = tmp_path / "played.sqlite3"
    journal = Journal(played_path)
    bac = table(journal, "bac", "baccarat")
    send(bac, "api", {"type": "round_open", "round": "r1"}, {"type": "bets_closed"})
    send(bac, "shoe", *({"type": "card", "card": c} for c in ("9C", "2D", "8H", "3S", "KD")))
    bac.save_snapshot()
    send(bac, "api", {"type": "round_open", "round": "r2"})
    journal.close()
    old = tmp_path / "old.sqlite3"
    db = sqlite3.connect(old)
    db.executescript(OLD_SCHEMA)
    db.execute("ATTACH ? AS played", (str(played_path),))
    with db:
        db.execute(f"INSERT INTO journal SELECT {OLD_COLUMNS} FROM played.journal")
        db.execute("INSERT INTO outbox SELECT * FROM played.outbox")
        db.execute("INSERT INTO snapshot SELECT table_id, seq, format, state FROM played.snapshot")
    (last,) = db.execute("SELECT MAX(seq) FROM journal").fetchone()
    db.execute("DETACH played")
    db.close()
    return old, int(last)


def test_an_old_journal_is_chained_once_at_open_and_verify_says_so(tmp_path: Path) -> None:
    old, last = _old_journal(tmp_path)
    code, out = verify(old)
    assert code == 1 and "NOT CHAINED" in out, out  # before any writer opened it

    journal = Journal(old)
    journal.close()
    code, out = verify(old)
    assert code == 0, out
    assert f"migration: records 1 to {last} were chained at " in out
    db = sqlite3.connect(old)
    ((first_seq, last_seq, at),) = db.execute("SELECT * FROM chain_migration").fetchall()
    db.close()
    assert (first_seq, last_seq) == (1, last) and at in out

    # Once: the next open chains nothing, new records chain on from the head.
    actor = table(Journal(old), "bac", "baccarat")
    assert actor.recovered_from > 0  # the old snapshot is trusted as its records are
    assert not [a for a in actor.alarms.active if a.code == "journal_changed"]
    send(actor, "api", {"type": "round_open", "round": "r3"})
    actor.journal.close()
    code, out = verify(old)
    assert code == 0, out
    db = sqlite3.connect(old)
    assert db.execute("SELECT COUNT(*) FROM chain_migration").fetchone() == (1,)
    db.close()


def test_records_appended_unchained_after_chained_ones_are_named(tmp_path: Path) -> None:
    """Code that does not chain (a downgrade) wrote on: the next open chains
    those records so the station goes on, and verify says they were not
    chained when written."""
    path = tmp_path / "j.sqlite3"
    info = played(path, rounds=1)
    tamper(
        path,
        (
            f"INSERT INTO journal ({OLD_COLUMNS}) SELECT ?, table_id, at, source, by, why, kind,"
            " body, status, reason, detail FROM journal WHERE seq = ?",
            (info.last_seq + 1, info.last_seq),
        ),
    )
    Journal(path).close()
    code, out = verify(path)
    assert code == 1, out
    assert f"NOT CHAINED WHEN WRITTEN: records {info.last_seq + 1} to {info.last_seq + 1}" in out


# -- the snapshot names its hash ---------------------------------------------------------------


def _with_snapshot(path: Path) -> int:
    """Rounds played, a snapshot taken, a round after it; the snapshot's seq."""
    journal = Journal(path)
    bac = table(journal, "bac", "baccarat")
    for round_id in ("r1", "r2"):
        send(bac, "api", {"type": "round_open", "round": round_id}, {"type": "bets_closed"})
        send(bac, "shoe", *({"type": "card", "card": c} for c in ("9C", "2D", "8H", "3S", "KD")))
    bac.save_snapshot()
    taken = journal.last_seq("bac")
    send(bac, "api", {"type": "round_open", "round": "r3"})
    journal.close()
    return taken


def test_a_start_uses_a_snapshot_whose_hash_still_holds(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    taken = _with_snapshot(path)
    actor = table(Journal(path), "bac", "baccarat")
    assert actor.recovered_from == taken
    assert "journal_changed" not in actor.alarms.codes()
    actor.journal.close()


def test_a_journal_rewritten_under_its_snapshot_is_replayed_whole_with_an_alarm(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.sqlite3"
    taken = _with_snapshot(path)
    # A card of round r1 changed and every hash from it recomputed: the chain
    # alone is whole again, but the snapshot folded in another record `taken`.
    db = sqlite3.connect(path)
    ((card, body),) = db.execute("SELECT seq, body FROM journal WHERE body LIKE '%8H%' LIMIT 1")
    db.close()
    assert card < taken and '"card":"8H"' in body
    tamper(path, ("UPDATE journal SET body = replace(body, '8H', '7H') WHERE seq = ?", (card,)))
    rechain_from(path, card)
    assert verify(path)[0] == 0

    actor = table(Journal(path), "bac", "baccarat")
    assert actor.recovered_from == 0  # the whole journal, as it stands, was replayed
    (alarm,) = [a for a in actor.alarms.active if a.code == "journal_changed"]
    assert f"record {taken}" in alarm.message and "journal verify" in alarm.message
    # It goes out as every alarm does (round/event, docs/mqtt.md).
    published = [m.payload for m in actor.journal.outbox("bac", 0, 10_000)]
    assert any('"type":"alarm"' in p and '"journal_changed"' in p for p in published)
    actor.journal.close()


def test_a_snapshot_whose_hash_was_altered_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    _with_snapshot(path)
    tamper(path, ("UPDATE snapshot SET hash = ?", ("0" * 64,)))
    actor = table(Journal(path), "bac", "baccarat")
    assert actor.recovered_from == 0
    assert "journal_changed" in actor.alarms.codes()
    actor.journal.close()


def test_the_snapshots_own_record_edited_without_its_hash_is_not_trusted(tmp_path: Path) -> None:
    """Its stored hash untouched, the record's columns changed: the start
    recomputes that one record's hash and does not trust the snapshot."""
    path = tmp_path / "j.sqlite3"
    taken = _with_snapshot(path)
    tamper(path, ("UPDATE journal SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?", (taken,)))
    actor = table(Journal(path), "bac", "baccarat")
    assert actor.recovered_from == 0
    assert "journal_changed" in actor.alarms.codes()
    actor.journal.close()


def test_an_empty_journals_digest_is_record_0_at_the_genesis_hash(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    Journal(path).close()
    code, out = verify(path, "--head", "0:" + "0" * 64)
    assert code == 0, out
    code, out = verify(path, "--head", "0:" + "1" * 64)
    assert code == 1, out
