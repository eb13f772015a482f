"""A backup taken while a station plays rounds, restored elsewhere and replayed,
is the journal up to the backup's last record (docs/journal.md, "Backup and
restore").

The station is a real subprocess (``dealer-station run``) dealt by a
croupier's hand from a framed shoe simulator on a PTY, with a real mosquitto.
The backup runs in this process, one page a step, and its first pause waits
until the station has committed another record: the station writes during the
copy, and the copy must still be the journal of one instant.
"""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

from support.broker import Broker
from support.chained_journal import verify
from support.dealing import baccarat_table, croupier_hand
from support.station import config_text

from dealer_station.journal_backup import backup
from drivers.shoe.simulator import FramedShoeSimulator


def _records(journal: Path) -> int:
    try:
        with closing(sqlite3.connect(f"{journal.as_uri()}?mode=ro", uri=True)) as db:
            return int(db.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
    except sqlite3.OperationalError:  # no file or no tables yet
        return 0


def _wait_for_records(journal: Path, count: int, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while (now := _records(journal)) < count:
        assert time.monotonic() < deadline, f"the station journaled {now} records, not {count}"
        time.sleep(0.02)
    return now


def _replay(journal: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "replay", "--db", str(journal), "--table", "bac"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _prefix(journal: Path, last: int, into: Path) -> Path:
    """A copy of the journal cut after record ``last``: what it was then."""
    with closing(sqlite3.connect(journal)) as source, closing(sqlite3.connect(into)) as target:
        source.backup(target)
        with target:
            target.execute("DELETE FROM outbox WHERE journal_seq > ?", (last,))
            target.execute("DELETE FROM idempotency WHERE journal_seq > ?", (last,))
            target.execute("DELETE FROM journal WHERE seq > ?", (last,))
    return into


def test_a_backup_taken_while_the_station_writes_restores_and_replays(
    broker: Broker, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    backups = tmp_path / "backups"
    backups.mkdir()
    stop = threading.Event()
    during: list[int] = []

    def pause(remaining: int, total: int) -> None:
        if not during:  # the station commits at least one record mid-copy
            during.append(_wait_for_records(journal, _records(journal) + 1))

    with FramedShoeSimulator(decks=8, seed=7, link_path=tmp_path / "shoe") as sim:
        config = tmp_path / "station.toml"
        config.write_text(config_text(baccarat_table(sim.port), journal, broker.port))
        hand = threading.Thread(target=croupier_hand, args=(sim, stop), daemon=True)
        hand.start()
        station = subprocess.Popen(
            [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / "station.log").open("wb"),
        )
        try:
            _wait_for_records(journal, 40)  # a few rounds in
            made = backup(journal, backups, keep=3, pages=1, pause=pause)
            _wait_for_records(journal, during[0] + 5)  # and the station played on
            station.send_signal(signal.SIGTERM)
            assert station.wait(timeout=30) == 0
        finally:
            stop.set()
            hand.join()
            if station.poll() is None:
                station.kill()

    assert made.head is not None
    # The copy is the journal as it stood when the copy began: none of what the
    # station wrote while it ran.
    assert made.head.seq < during[0] <= _records(journal)
    assert list(backups.iterdir()) == [made.path]

    # Restored as the README says, elsewhere: the copy is a whole journal.
    restored = tmp_path / "restored" / "journal.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(made.path, restored)
    code, out = verify(restored)
    assert code == 0, out
    assert f"head {made.head.seq}:{made.head.hash}" in out
    # The live journal's chain passes through the copy's head.
    code, out = verify(journal, "--head", f"{made.head.seq}:{made.head.hash}")
    assert code == 0, out

    replayed = _replay(restored)
    settled = [
        r for r in map(json.loads, replayed.splitlines()) if r.get("type") == "round_settled"
    ]
    assert len(settled) >= 2  # rounds were played before the copy
    assert replayed == _replay(_prefix(journal, made.head.seq, tmp_path / "prefix.sqlite3"))
    assert replayed != _replay(journal)  # the journal went on past the copy
