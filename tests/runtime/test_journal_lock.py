"""One writer per journal (docs/recovery.md): a second process that opens a
journal held by another refuses to start, names the holder, and leaves every
byte as it was; kill -9 frees the journal; readers need no lock."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal, JournalInUse, lock_path
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command

HOLD = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "from dealer_station.journal import Journal\n"
    "Journal(Path(sys.argv[1]))\n"
    "print('holding', flush=True)\n"
    "time.sleep(60)\n"
)


def _table(path: Path) -> TableActor:
    config = TableConfig(id="bac", game="baccarat", recovery="resume")
    actor = TableActor(config, "test", Journal(path), Topics("p", "test", "bac"))
    actor.recover()
    for event in (
        {"type": "round_open", "round": "r1"},
        {"type": "bet", "player": "ann", "spot": "banker", "amount": "100"},
        {"type": "bets_closed"},
    ):
        assert actor.handle(Command("api", event)).accepted  # type: ignore[union-attr]
    return actor


def _files(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir())}


def _config(tmp_path: Path, journal: Path) -> Path:
    config = tmp_path / "station.toml"
    config.write_text(
        f'studio = "test"\nstation = "st"\njournal = "{journal}"\n'
        '[mqtt]\nhost = "127.0.0.1"\nport = 1\n[http]\nport = 0\n'
        '[[tables]]\nid = "bac"\ngame = "baccarat"\n'
    )
    return config


def test_a_second_station_refuses_names_the_holder_and_changes_nothing(tmp_path: Path) -> None:
    journal = tmp_path / "state" / "j.sqlite3"
    first = _table(journal)  # this process holds the journal, a round in play
    before = _files(journal)
    assert {"j.sqlite3", "j.sqlite3-wal", "j.sqlite3-shm", "j.sqlite3.lock"} <= set(before)
    config = _config(tmp_path, journal)
    second = subprocess.run(
        [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 1
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1, second.stderr
    assert f"journal {journal} is in use by pid {os.getpid()}" in lines[0]
    assert "refusing to start a second writer" in lines[0]
    assert _files(journal) == before  # not one byte: no schema, no WAL recovery, no void
    # The first goes on as if nothing happened: the round is still in play.
    assert first.handle(Command("shoe", {"type": "card", "card": "2S"})).accepted  # type: ignore[union-attr]
    first.journal.close()


def test_the_lock_is_refused_in_the_same_process_too(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    first = Journal(journal)
    with pytest.raises(JournalInUse, match=f"pid {os.getpid()}"):
        Journal(journal)
    first.close()
    Journal(journal).close()  # closed: free again


def test_kill_9_frees_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(journal)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        with pytest.raises(JournalInUse, match=f"pid {holder.pid} "):
            Journal(journal)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()
    # The kernel dropped the lock with the process; the stale words in the file
    # do not matter, and the new holder writes its own.
    table = _table(journal)
    assert f"pid {os.getpid()} " in lock_path(journal).read_text()
    table.journal.close()


def test_readers_need_no_lock_and_cannot_write(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite3"
    writer = _table(journal)
    reader = Journal(journal, read_only=True)
    assert [r.seq for r in reader.records("bac")] == [r.seq for r in writer.journal.records("bac")]
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader.set_acked("bac", 1)
    reader.close()
    assert writer.handle(Command("shoe", {"type": "card", "card": "2S"})).accepted  # type: ignore[union-attr]
    writer.journal.close()


def test_two_names_of_one_journal_share_its_lock(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    first = Journal(tmp_path / "real" / "j.sqlite3")
    (tmp_path / "j.sqlite3").symlink_to(tmp_path / "real" / "j.sqlite3")
    with pytest.raises(JournalInUse):
        Journal(tmp_path / "j.sqlite3")
    first.close()
