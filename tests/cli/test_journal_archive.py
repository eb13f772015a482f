"""`dealer-station journal archive`: the rounds settled before a date move into a
sealed file that `verify`, `export` and `replay` read with the journal as one
(docs/journal.md, "Archive"). Run as an operator runs them: subprocesses."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.chained_journal import (
    PLAYER_WINS,
    play_baccarat_round,
    play_roulette_round,
    send,
    verify,
)

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics

DAY_ONE = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
DAY_TWO = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Clock:
    """The tables' time, set by the test: a day of rounds, then the next."""

    def __init__(self) -> None:
        self.now = DAY_ONE

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def _tables(journal: Journal, clock: Clock) -> tuple[TableActor, TableActor]:
    actors = []
    for table, game in (("bac", "baccarat"), ("rou", "roulette")):
        config = TableConfig.model_validate({"id": table, "game": game})
        actor = TableActor(
            config, "test", journal, Topics("p", "test", table), clock=clock, snapshot_every=5
        )
        actor.recover()
        actors.append(actor)
    return actors[0], actors[1]


def _play_two_days(path: Path, snapshot_early: bool = False) -> int:
    """Three rounds a table on day one, the last baccarat round left open over
    midnight, more on day two, each table's snapshot taken (at the end, or after
    its first round) and every message acknowledged; the record of that open
    round's opening."""
    journal = Journal(path)
    clock = Clock()
    bac, rou = _tables(journal, clock)
    for i in range(3):
        play_baccarat_round(bac, f"b{i}")
        play_roulette_round(rou, f"r{i}", 17 + i)
        if snapshot_early and i == 0:
            _snapshot(bac, rou)
    opening = send(bac, "api", {"type": "round_open", "round": "b3"})
    clock.now = DAY_TWO
    send(bac, "api", {"type": "bet", "player": "ann", "spot": "player", "amount": "100"})
    send(bac, "api", {"type": "bets_closed"})
    send(bac, "shoe", *({"type": "card", "card": c} for c in PLAYER_WINS))
    for i in range(3, 5):
        play_roulette_round(rou, f"r{i}", 20 + i)
    if not snapshot_early:
        _snapshot(bac, rou)
    for actor in (bac, rou):
        journal.set_acked(actor.id, journal.last_msg_seq(actor.id))
    journal.close()
    return opening


def _snapshot(*actors: TableActor) -> None:
    for actor in actors:
        actor.save_snapshot()  # as its schedule does in a running station's loop


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", *args], capture_output=True, text=True, timeout=120
    )


def _copy(path: Path, into: Path) -> Path:
    with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(into)) as target:
        source.backup(target)
    return into


def _first_seq(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute("SELECT MIN(seq) FROM journal").fetchone()[0])


def test_archived_rounds_and_the_journal_read_as_the_journal_did(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    opening = _play_two_days(journal)
    original = _copy(journal, tmp_path / "original.sqlite3")
    archive = tmp_path / "journal-2026-11.sqlite3"

    done = _cli("journal", "archive", "--journal", str(journal), "--before", "2026-12-01",
                "--to", str(archive))  # fmt: skip
    assert done.returncode == 0, done.stderr
    # Whole rounds: the round open over midnight stays, with all after it.
    assert f"archived records 1 to {opening - 1} into {archive}" in done.stdout
    assert _first_seq(journal) == opening
    assert archive.stat().st_mode & 0o222 == 0  # read-only

    code, out = verify(journal)  # alone: its chain from the archive's head
    assert code == 0, out
    assert f"records 1 to {opening - 1} are archived ({archive.name}): not read" in out
    code, out = verify(journal, "--archive", str(archive))
    assert code == 0, out
    code, whole = verify(original)
    assert whole.splitlines()[-1] in out  # the same records, the same head
    # A digest published before the archive: checked through it, not without it.
    with closing(sqlite3.connect(original)) as db:
        (early,) = db.execute("SELECT hash FROM journal WHERE seq = 5").fetchone()
    code, out = verify(journal, "--head", f"5:{early}", "--archive", str(archive))
    assert code == 0 and f"digest 5:{early}: matches" in out, out
    code, out = verify(journal, "--head", f"5:{early}")
    assert code == 1 and "cannot be checked: its record is archived" in out, out

    for table in ("bac", "rou"):
        before = _cli("replay", "--db", str(original), "--table", table)
        after = _cli("replay", "--db", str(journal), "--archive", str(archive), "--table", table)
        assert after.returncode == 0, after.stderr
        assert after.stdout == before.stdout
        exported = _cli("journal", "export", "--db", str(journal), "--archive", str(archive),
                        "--table", table)  # fmt: skip
        assert exported.stdout == _cli("journal", "export", "--db", str(original),
                                       "--table", table).stdout  # fmt: skip

    # The journal is backed up as it is now, its chain from the archive's head.
    (tmp_path / "backups").mkdir()
    backup = _cli("journal", "backup", "--db", str(journal), "--to", str(tmp_path / "backups"))
    assert backup.returncode == 0, backup.stderr

    # Without the archive, a replay would start mid-story: refused, and why.
    alone = _cli("replay", "--db", str(journal), "--table", "bac")
    assert alone.returncode == 2
    assert f"records 1 to {opening - 1} are archived in {archive.name}: give it" in alone.stderr


def test_one_changed_byte_of_the_archive_is_caught(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    _play_two_days(journal)
    archive = tmp_path / "archive.sqlite3"
    done = _cli("journal", "archive", "--db", str(journal), "--before", "2026-12-01",
                "--to", str(archive))  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = bytearray(archive.read_bytes())
    spot = data.index(b'"amount":"100"') + len(b'"amount":"')
    data[spot] = ord("9")  # a bet of 900, not 100
    archive.chmod(0o644)
    archive.write_bytes(bytes(data))

    code, out = verify(journal, "--archive", str(archive))
    assert code == 1, out
    assert "NOT WHOLE" in out and f"ARCHIVE CHANGED: {archive} has SHA-256" in out
    replayed = _cli("replay", "--db", str(journal), "--archive", str(archive), "--table", "bac")
    assert replayed.returncode == 2
    assert "ARCHIVE CHANGED" in replayed.stderr


def test_a_station_starts_on_the_journal_after_an_archive(tmp_path: Path) -> None:
    """The snapshots are early in the journal: what a start reads from them on
    must stay, the rounds before them may go."""
    journal = tmp_path / "journal.sqlite3"
    _play_two_days(journal, snapshot_early=True)
    kept = Journal(journal)
    clock = Clock()
    bac, _ = _tables(kept, clock)
    assert bac.state is not None
    state = (bac.state.shoe, bac.state.round, bac.msg_seq, bac.last_result)
    kept.close()
    done = _cli("journal", "archive", "--db", str(journal), "--before", "2026-12-01",
                "--to", str(tmp_path / "a.sqlite3"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "archived records 1 to " in done.stdout

    again = Journal(journal)
    bac, _ = _tables(again, clock)
    assert bac.state is not None
    # From the snapshot, as before: the shoe's cards, the round, the next
    # message's number, the retained result.
    assert (bac.state.shoe, bac.state.round, bac.msg_seq, bac.last_result) == state
    play_baccarat_round(bac, "b9")  # and it plays on
    again.close()


def test_archive_refuses_while_a_station_holds_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    _play_two_days(journal)
    station = Journal(journal)  # the writer's lock, as a running station holds it
    try:
        done = _cli("journal", "archive", "--db", str(journal), "--before", "2026-12-01",
                    "--to", str(tmp_path / "a.sqlite3"))  # fmt: skip
    finally:
        station.close()
    assert done.returncode == 1
    assert "is in use by pid" in done.stderr and "stop the station first" in done.stderr
    assert not (tmp_path / "a.sqlite3").exists()
    assert _first_seq(journal) == 1


def test_nothing_before_the_first_round_is_said(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    _play_two_days(journal)
    done = _cli("journal", "archive", "--db", str(journal), "--before", "2026-11-30",
                "--to", str(tmp_path / "a.sqlite3"))  # fmt: skip
    assert done.returncode == 1
    assert "nothing to archive before 2026-11-30: record 1 is from 2026-11-30 or later" in (
        done.stderr
    )
    assert not (tmp_path / "a.sqlite3").exists()


def test_the_cut_steps_back_until_no_table_has_a_round_in_play(tmp_path: Path) -> None:
    """Baccarat round b1 opens, then roulette round r1, b1 settles before
    midnight, r1 after: stepping back before r1 lands inside b1, which then
    goes whole too (the tables are looked at in name order: bac first)."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    clock = Clock()
    bac, rou = _tables(journal, clock)
    play_baccarat_round(bac, "b0")
    play_roulette_round(rou, "r0", 17)
    baccarat_opening = send(bac, "api", {"type": "round_open", "round": "b1"})
    send(rou, "api", {"type": "round_open", "round": "r1"})
    send(bac, "api", {"type": "bet", "player": "ann", "spot": "player", "amount": "100"})
    send(bac, "api", {"type": "bets_closed"})
    send(bac, "shoe", *({"type": "card", "card": c} for c in PLAYER_WINS))
    clock.now = DAY_TWO
    send(rou, "api", {"type": "bets_closed"})
    send(rou, "camera", {"type": "wheel_result", "number": 5})
    play_baccarat_round(bac, "b2")  # bac's last settlement, which stays, is today's
    _snapshot(bac, rou)
    for actor in (bac, rou):
        journal.set_acked(actor.id, journal.last_msg_seq(actor.id))
    journal.close()
    done = _cli("journal", "archive", "--db", str(path), "--before", "2026-12-01",
                "--to", str(tmp_path / "a.sqlite3"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"archived records 1 to {baccarat_opening - 1} into" in done.stdout


def test_a_date_that_is_no_utc_date_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    _play_two_days(journal)
    for date in ("yesterday", "2026-13-01", "2026-12-01T10:00+01:00", "01.12.2026"):
        done = _cli("journal", "archive", "--db", str(journal), "--before", date,
                    "--to", str(tmp_path / "a.sqlite3"))  # fmt: skip
        assert done.returncode == 2, date
        assert "--before is a UTC date or time: 2026-12-01, 2026-12-01T18:00" in done.stderr
    assert not (tmp_path / "a.sqlite3").exists()
    assert _first_seq(journal) == 1
