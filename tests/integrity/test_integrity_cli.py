"""``dealer-station integrity --db`` over real journals: written by the
journal's own code, each input beside its round events, as the station does
(benchmarks/integrity_tables.py), and read back read-only."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from integrity_tables import write_journal

from dealer_station.cli import main


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("integrity") / "journal.sqlite"
    write_journal(path, "roulette", 2500, seed=3, fast=True)
    write_journal(path, "baccarat", 2500, seed=4, fast=True)
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["integrity", *args])
    return code, capsys.readouterr().out


def _spins(path: Path, table: str) -> int:
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT COUNT(*) FROM journal WHERE table_id = ? AND status = 'accepted'"
            " AND json_extract(body, '$.type') = 'wheel_result'",
            (table,),
        ).fetchone()
    return int(row[0])


def test_a_fair_journal_reports_every_table_and_no_alarm(
    journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(capsys, "--db", str(journal), "--json")
    report = json.loads(out)
    assert code == 0 and report["alarms"] == 0, out
    tables = {t["table"]: t for t in report["tables"]}
    assert set(tables) == {"roulette-1", "baccarat-1"}
    spins = _spins(journal, "roulette-1")
    assert spins > 185  # enough for the pocket test to run
    (pockets,) = [f for f in tables["roulette-1"]["findings"] if f["test"] == "wheel.pockets"]
    assert pockets["sample"] == spins
    holds = [f for f in tables["roulette-1"]["findings"] if f["test"] == "hold"]
    skipped = [s for s in tables["roulette-1"]["skipped"] if s["test"] == "hold"]
    assert sum(f["sample"] for f in holds) + sum(s["sample"] for s in skipped) == spins


def test_a_wheel_that_lands_on_17_raises_the_alarm_by_name(
    journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rigged = tmp_path / "rigged.sqlite"
    with sqlite3.connect(journal) as src, sqlite3.connect(rigged) as dst:
        src.backup(dst)
        # Every third spin lands on 17.
        dst.execute(
            "UPDATE journal SET body = json_set(body, '$.number', 17)"
            " WHERE json_extract(body, '$.type') = 'wheel_result' AND seq % 3 = 0"
        )
    code, out = _run(capsys, "--db", str(rigged), "--table", "roulette-1")
    assert code == 1
    assert "ALARM" in out and "Pocket 17 came up" in out
    assert "baccarat-1" not in out


def test_since_leaves_out_what_came_before(
    journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = _run(capsys, "--db", str(journal), "--json", "--since", "2026-12-02")
    assert json.loads(out)["tables"] == []  # every record is of 2026-12-01


def test_a_missing_journal_is_said_and_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["integrity", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite").exists()


def test_the_journal_passes_over_bets_but_not_a_settling_input(journal: Path) -> None:
    from dealer_station.journal import Journal

    reader = Journal(journal, read_only=True)
    try:
        kept = list(reader.records_but("baccarat-1", ("bet", "card"), "round_settled"))
        settling = {seq for seq, _ in reader.messages_of_type("baccarat-1", "round_settled")}
        every = list(reader.records("baccarat-1"))
    finally:
        reader.close()
    types = {r.body.get("type") for r in kept}
    assert "bet" not in types
    # A card is skipped, but the card that ended a coup is there: its settlement is.
    assert {r.seq for r in kept if r.body.get("type") == "card"} == settling
    assert [r for r in every if r.body.get("type") not in ("bet", "card")] == [
        r for r in kept if r.body.get("type") != "card"
    ]
