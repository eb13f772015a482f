"""`dealer-station journal export` writes a table's events as the JSON lines
`replay` reads, and `replay --db` replays straight from the journal: the same
output as `export | replay -`, byte for byte (docs/journal.md, "For the
compliance team"). Run as the compliance team runs them: subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.chained_journal import PLAYER_WINS, play_baccarat_round, played, send

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Alarm, Command, DeviceChange


def _cli(*args: str, stdin: str | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", *args],
        capture_output=True, text=True, timeout=120, input=stdin,
    )  # fmt: skip
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr


def _round_inputs(round_id: str) -> list[dict[str, object]]:
    """What the test sends for one baccarat round (support.chained_journal),
    as the journal normalises it (schema version ``v``)."""
    return [
        {"v": 1, "type": "round_open", "round": round_id},
        {"v": 1, "type": "bet", "player": "ann", "spot": "player", "amount": "100"},
        {"v": 1, "type": "bets_closed"},
        *({"v": 1, "type": "card", "card": card} for card in PLAYER_WINS),
    ]


def test_export_writes_the_tables_events_as_journaled_and_in_order(tmp_path: Path) -> None:
    path = played(tmp_path / "j.sqlite3", rounds=3).path
    code, out = _cli("journal", "export", "--db", str(path), "--table", "bac")
    assert code == 0, out
    expected = [{"v": 1, "type": "table", "game": "baccarat", "table": "bac"}]  # the start's
    for i in range(3):
        expected += _round_inputs(f"b{i}")
    assert [json.loads(line) for line in out.splitlines()] == expected  # no roulette input


def test_replay_from_the_journal_is_export_piped_into_replay(tmp_path: Path) -> None:
    path = played(tmp_path / "j.sqlite3", rounds=3).path
    code, exported = _cli("journal", "export", "--db", str(path), "--table", "bac")
    assert code == 0
    code, piped = _cli("replay", "-", stdin=exported)
    assert code == 0
    code, direct = _cli("replay", "--db", str(path), "--table", "bac")
    assert code == 0, direct
    assert direct == piped
    settled = [json.loads(line) for line in direct.splitlines() if "round_settled" in line]
    assert [s["round"] for s in settled] == ["b0", "b1", "b2"]
    # A player bet of 100 on a player win returns 200 (docs/rules.md: baccarat pays 1:1).
    assert {p["returns"] for s in settled for p in s["payouts"]} == {"200"}


def test_one_round_is_its_records_and_replays_from_the_table_before_it(tmp_path: Path) -> None:
    path = played(tmp_path / "j.sqlite3", rounds=3).path
    code, out = _cli("journal", "export", "--db", str(path), "--table", "bac", "--round", "b1")
    assert code == 0, out
    assert [json.loads(line) for line in out.splitlines()] == _round_inputs("b1")

    code, out = _cli("replay", "--db", str(path), "--table", "bac", "--round", "b1")
    assert code == 0, out
    lines = [json.loads(line) for line in out.splitlines()]
    assert [r["event"] for r in lines if "event" in r] == [
        {k: v for k, v in e.items() if k != "v"} | {"v": 1} for e in _round_inputs("b1")
    ]
    (settled,) = [r for r in lines if r.get("type") == "round_settled"]
    assert settled["round"] == "b1" and settled["winner"] == "player"


def test_refused_inputs_are_exported_and_device_and_alarm_records_are_not(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    now = [datetime(2026, 11, 30, 23, 0, tzinfo=UTC)]
    config = TableConfig.model_validate({"id": "bac", "game": "baccarat"})
    bac = TableActor(config, "test", journal, Topics("p", "test", "bac"), clock=lambda: now[0])
    bac.recover()
    play_baccarat_round(bac, "b0")  # 30 November
    refused = bac.handle(Command("shoe", {"type": "card", "card": "AS"}))  # no round: misdeal
    assert refused is not None and not refused.accepted
    bac.handle(DeviceChange("shoe", online=False, detail="unplugged"))
    bac.handle(Alarm("test_alarm", "a person must act", "station"))
    now[0] += timedelta(hours=2)  # 1 December
    send(bac, "api", {"type": "round_open", "round": "b1"})
    kinds = {r.kind for r in journal.records("bac")}
    journal.close()
    assert {"device", "alarm", "event"} <= kinds

    code, out = _cli("journal", "export", "--db", str(tmp_path / "j.sqlite3"), "--table", "bac")
    assert code == 0, out
    lines = [json.loads(line) for line in out.splitlines()]
    assert {"type": "card", "card": "AS"} in lines  # refused: journaled as received
    assert not [line for line in lines if "device" in line or "code" in line]

    code, out = _cli(
        "journal", "export", "--db", str(tmp_path / "j.sqlite3"), "--table", "bac",
        "--since", "2026-12-01",
    )  # fmt: skip
    assert code == 0, out
    assert [json.loads(line) for line in out.splitlines()] == [
        {"v": 1, "type": "round_open", "round": "b1"}
    ]


def test_an_unknown_table_or_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    path = played(tmp_path / "j.sqlite3", rounds=1).path
    assert _cli("journal", "export", "--db", str(path), "--table", "nope")[0] == 2
    assert _cli("replay", "--db", str(path), "--table", "nope")[0] == 2
    assert _cli("replay", "--db", str(tmp_path / "missing"), "--table", "bac")[0] == 2
    assert _cli("replay", "--db", str(path))[0] == 2  # --db without --table
