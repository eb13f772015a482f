"""Someone with write access to the journal's file changes it after the fact
(docs/journal.md, "The hash chain"): `dealer-station journal verify`, run as a
regulator runs it (a subprocess on the file), names the first record that does
not match and why, and exits 1; a journal left alone verifies, exit 0.

The journal is played by the station's own actors (two tables on one chain);
each tampering is plain SQL on the file, as `sqlite3` would do it."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.chained_journal import Played, played, rechain_from, tamper, verify

pytestmark = pytest.mark.adversarial

COLUMNS = "table_id, at, source, by, why, kind, body, status, reason, detail"


@pytest.fixture
def journal(tmp_path: Path) -> Played:
    return played(tmp_path / "journal.sqlite3")


def _digest(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "journal", "digest", "--db", str(path),
         "--studio", "test"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout


def test_a_journal_left_alone_verifies(journal: Played) -> None:
    code, out = verify(journal.path)
    assert code == 0, out
    assert "WHOLE" in out and f"records, head {journal.last_seq}:" in out


def test_a_changed_payout_in_the_outbox_is_named(journal: Played) -> None:
    seq = journal.settling[1]
    db = sqlite3.connect(journal.path)
    (payload,) = db.execute(
        "SELECT payload FROM outbox WHERE journal_seq = ? AND payload LIKE '%round_settled%'",
        (seq,),
    ).fetchone()
    db.close()
    assert '"returns":"200"' in payload  # a player bet of 100 paid 1:1 (docs/rules.md)
    tamper(
        journal.path,
        (
            'UPDATE outbox SET payload = replace(payload, \'"returns":"200"\', '
            '\'"returns":"2000"\') WHERE journal_seq = ?',
            (seq,),
        ),
    )
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {seq} (edited)" in out


def test_a_changed_card_in_a_record_is_named(journal: Played) -> None:
    seq = journal.settling[0] - 2  # the round's third card, 8H
    db = sqlite3.connect(journal.path)
    (body,) = db.execute("SELECT body FROM journal WHERE seq = ?", (seq,)).fetchone()
    db.close()
    assert json.loads(body)["card"] == "8H"
    tamper(journal.path, ("UPDATE journal SET body = replace(body, '8H', '9H') WHERE seq = ?",
                          (seq,)))  # fmt: skip
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {seq} (edited)" in out


def test_a_deleted_record_is_named(journal: Played) -> None:
    seq = journal.settling[1]
    tamper(
        journal.path,
        ("DELETE FROM outbox WHERE journal_seq = ?", (seq,)),
        ("DELETE FROM journal WHERE seq = ?", (seq,)),
    )
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {seq} (deleted): record {seq} missing" in out


def test_a_deleted_record_whose_messages_stay_is_named_by_them(journal: Played) -> None:
    """The last record deleted leaves no gap; its messages in the outbox tell."""
    tamper(journal.path, ("DELETE FROM journal WHERE seq = ?", (journal.last_seq,)))
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"DELETED: the outbox holds messages of record(s) {journal.last_seq}" in out


def _renumber_from(db: sqlite3.Connection, seq: int, by: int) -> None:
    """Move records ``seq`` on (and their messages) ``by`` places, as a forger
    making room must: through negative seqs, so no two collide meanwhile."""
    for table, column in (("journal", "seq"), ("outbox", "journal_seq")):
        db.execute(f"UPDATE {table} SET {column} = -{column} WHERE {column} >= ?", (seq,))
        db.execute(f"UPDATE {table} SET {column} = -{column} + ? WHERE {column} < 0", (by,))


def test_an_inserted_record_is_named(journal: Played) -> None:
    seq = journal.settling[1] - 1  # before the last card: an extra card for the banker
    db = sqlite3.connect(journal.path)
    with db:
        _renumber_from(db, seq, 1)
        db.execute(
            f"INSERT INTO journal (seq, {COLUMNS}, hash) SELECT ?, {COLUMNS}, hash FROM journal"
            " WHERE seq = ?",
            (seq, seq + 1),
        )
        db.execute("UPDATE journal SET body = replace(body, 'KD', 'QD') WHERE seq = ?", (seq,))
    db.close()
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {seq} (inserted)" in out


def test_a_record_inserted_without_a_hash_is_named(journal: Played) -> None:
    tamper(
        journal.path,
        (
            f"INSERT INTO journal (seq, {COLUMNS}) SELECT ?, {COLUMNS} FROM journal WHERE seq = ?",
            (journal.last_seq + 1, journal.last_seq),
        ),
    )
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {journal.last_seq + 1} (unchained)" in out


def test_a_reordered_pair_is_named(journal: Played) -> None:
    seq = journal.settling[2] - 1  # the round's last two cards change places
    db = sqlite3.connect(journal.path)
    with db:
        rows = {
            s: db.execute(f"SELECT {COLUMNS}, hash FROM journal WHERE seq = ?", (s,)).fetchone()
            for s in (seq, seq + 1)
        }
        sets = ", ".join(f"{c.strip()} = ?" for c in (COLUMNS + ", hash").split(","))
        for here, there in ((seq, seq + 1), (seq + 1, seq)):
            db.execute(f"UPDATE journal SET {sets} WHERE seq = ?", (*rows[there], here))
        db.execute(
            "UPDATE outbox SET journal_seq = CASE journal_seq WHEN ? THEN ? ELSE ? END"
            " WHERE journal_seq IN (?, ?)",
            (seq, seq + 1, seq, seq, seq + 1),
        )
    db.close()
    code, out = verify(journal.path)
    assert code == 1, out
    assert f"BROKEN at record {seq} (reordered): records {seq} and {seq + 1}" in out


def test_a_chain_rewritten_from_some_point_on_fails_against_the_published_digest(
    journal: Played, tmp_path: Path
) -> None:
    published = tmp_path / "digests.jsonl"
    published.write_text(_digest(journal.path))
    head = json.loads(published.read_text())
    assert head["seq"] == journal.last_seq
    assert verify(journal.path, "--digest", str(published))[0] == 0

    # The payout of an early round raised, and every hash from it on recomputed.
    seq = journal.settling[0]
    tamper(
        journal.path,
        (
            'UPDATE outbox SET payload = replace(payload, \'"returns":"200"\', '
            '\'"returns":"2000"\') WHERE journal_seq = ?',
            (seq,),
        ),
    )
    rechain_from(journal.path, seq)

    code, out = verify(journal.path)
    assert code == 0, out  # alone, a recomputed chain is whole: that is what digests are for
    code, out = verify(journal.path, "--digest", str(published))
    assert code == 1, out
    assert f"DIGEST MISMATCH: digest {head['seq']}:{head['hash']}" in out
    code, out = verify(journal.path, "--head", f"{head['seq']}:{head['hash']}")
    assert code == 1, out
    assert "is not the one published" in out


def test_a_journal_cut_short_fails_against_the_published_digest(
    journal: Played, tmp_path: Path
) -> None:
    published = tmp_path / "digests.jsonl"
    published.write_text(_digest(journal.path))
    cut = journal.settling[-1]
    tamper(
        journal.path,
        ("DELETE FROM outbox WHERE journal_seq >= ?", (cut,)),
        ("DELETE FROM journal WHERE seq >= ?", (cut,)),
    )
    assert verify(journal.path)[0] == 0  # what is left chains
    code, out = verify(journal.path, "--digest", str(published))
    assert code == 1, out
    assert f"the journal ends at record {cut - 1}, before the digest's record" in out


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--db"],
        ["--db", "missing.sqlite3"],
        ["--db", "J", "--head", "12:nothex"],
        ["--db", "J", "--digest", "missing.jsonl"],
        ["--db", "J", "--head", "1:" + "0" * 64, "--digest", "x"],
    ],
)
def test_a_usage_error_exits_2(journal: Played, args: list[str]) -> None:
    args = [str(journal.path) if a == "J" else a for a in args]
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "journal", "verify", *args],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr


def test_a_file_that_is_not_a_journal_is_a_usage_error(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("not a database\n" * 100)
    code, out = verify(other)
    assert code == 2 and "not a journal" in out, out
