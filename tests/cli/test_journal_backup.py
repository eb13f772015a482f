"""`dealer-station journal backup`: a checked copy renamed into a directory, the
newest N kept, and a typed refusal that leaves nothing behind (docs/journal.md,
"Backup and restore"). Run as the timer runs it: a subprocess."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from support.chained_journal import played, tamper, verify

TABLE_ROWS = {
    "journal": "SELECT * FROM journal ORDER BY seq",
    "outbox": "SELECT * FROM outbox ORDER BY table_id, msg_seq",
    "snapshot": "SELECT * FROM snapshot ORDER BY table_id",
}


def _backup(journal: Path, to: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", "journal", "backup",
         "--journal", str(journal), "--to", str(to), *extra],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        return {name: db.execute(query).fetchall() for name, query in TABLE_ROWS.items()}


def test_the_backup_is_the_journal_checked_in_one_file(tmp_path: Path) -> None:
    journal = played(tmp_path / "journal.sqlite3", rounds=3)
    to = tmp_path / "backups"
    to.mkdir()
    done = _backup(journal.path, to)
    assert done.returncode == 0, done.stderr
    (copy,) = to.iterdir()  # no partial file left, no WAL beside it
    assert copy.name.startswith("journal-") and copy.suffix == ".sqlite3"
    # Not in WAL mode (header bytes 18-19 are 1, not 2: sqlite.org/fileformat.html):
    # one file, readable from read-only media, with no -wal to forget on a copy.
    assert copy.read_bytes()[18:20] == b"\x01\x01"
    assert _rows(copy) == _rows(journal.path)
    code, out = verify(copy)
    assert code == 0, out
    assert f"record {journal.last_seq} hash" in done.stdout


def test_the_newest_n_backups_are_kept(tmp_path: Path) -> None:
    journal = played(tmp_path / "journal.sqlite3", rounds=1)
    to = tmp_path / "backups"
    to.mkdir()
    other = to / "notes.txt"  # not a backup of this journal: left alone
    other.write_text("keep me")
    made = []
    for _ in range(3):
        done = _backup(journal.path, to, "--keep", "2")
        assert done.returncode == 0, done.stderr
        made.append(Path(done.stdout.split()[1].rstrip(":")))
    assert sorted(to.iterdir()) == sorted([*made[1:], other])
    assert f"removed {made[0]} (keeping 2)" in done.stdout


def test_a_file_that_is_no_journal_is_refused(tmp_path: Path) -> None:
    to = tmp_path / "backups"
    to.mkdir()
    text = tmp_path / "notes.sqlite3"
    text.write_text("not a database")
    other = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE t (x)")
    for path, why in [
        (text, "not a journal (file is not a database)"),
        (other, "not a journal (no such table: journal)"),
        (tmp_path / "missing.sqlite3", "no such file"),
    ]:
        done = _backup(path, to)
        assert done.returncode == 2
        assert f"{path}: {why}" in done.stderr
    done = _backup(played(tmp_path / "journal.sqlite3", rounds=1).path, tmp_path / "nowhere")
    assert done.returncode == 2
    assert f"{tmp_path / 'nowhere'}: no such directory" in done.stderr
    assert list(to.iterdir()) == []


def test_a_journal_whose_chain_breaks_is_not_backed_up(tmp_path: Path) -> None:
    journal = played(tmp_path / "journal.sqlite3", rounds=2)
    seq = journal.settling[0] - 2  # the round's third card, 8H (support.chained_journal)
    tamper(journal.path, ("UPDATE journal SET body = replace(body, '8H', '9H') WHERE seq = ?",
                          (seq,)))  # fmt: skip
    to = tmp_path / "backups"
    to.mkdir()
    done = _backup(journal.path, to)
    assert done.returncode == 1
    assert f"FAILED: the copy's hash chain breaks at record {seq} (edited)" in done.stderr
    assert list(to.iterdir()) == []


def test_a_full_disk_is_said_and_leaves_nothing(tmp_path: Path) -> None:
    """A real full disk: a 64 KiB tmpfs mounted in a mount namespace of the
    backup's own (root, or an unprivileged user namespace, is needed)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("needs unshare(1) (util-linux) to mount a small tmpfs")
    journal = played(tmp_path / "journal.sqlite3", rounds=4)
    assert journal.path.stat().st_size > 64 * 1024
    to = tmp_path / "small"
    to.mkdir()
    script = (
        f'mount -t tmpfs -o size=64k tmpfs "{to}" || exit 99\n'
        f'"{sys.executable}" -m dealer_station journal backup --journal "{journal.path}" '
        f'--to "{to}"\ncode=$?\nls -A "{to}"\nexit $code\n'
    )
    done = subprocess.run(
        [unshare, "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120
    )
    if done.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    assert done.returncode == 1, done.stderr
    assert f"FAILED: {to}: no space left for the copy of {journal.path}" in done.stderr
    assert done.stdout == ""  # nothing left on the full disk
