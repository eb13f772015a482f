"""The event contract (docs/events.md) and `dealer-station replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dealer_station.games.events import parse_event
from dealer_station.games.rejection import Rejected
from dealer_station.games.replay import replay

ROUND = [
    {"v": 1, "type": "table", "game": "blackjack", "variant": "standard-blackjack", "table": "t7"},
    {"type": "round_open", "round": "r-1", "source": "console", "at": "2026-11-30T07:00:00Z"},
    {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "10"},
    {"type": "bets_closed"},
    {"type": "card", "card": "9S"},
    {"type": "card", "card": "7D"},
    {"type": "card", "card": "ZZ"},  # a misread: refused, nothing changes
    {"type": "card", "card": "9C"},
    {"type": "decision", "box": 1, "action": "double"},  # 18: legal, however unwise
    {"type": "card", "card": "2H"},
    {"type": "card", "card": "TH"},
]


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ([], "bad_event"),
        ({"type": "bet", "player": "a", "spot": "main", "amount": 10.5}, "bad_event"),
        ({"type": "bet", "player": "a", "spot": "main", "amount": "-3"}, "bad_event"),
        ({"type": "bet", "player": "a", "spot": "main", "amount": "NaN"}, "bad_event"),
        ({"type": "bet", "player": "a", "spot": "main", "amount": True}, "bad_event"),
        ({"type": "bet", "spot": "main", "amount": "1"}, "bad_event"),
        ({"type": "card", "card": "1S"}, "bad_card"),
        ({"type": "card"}, "bad_event"),
        ({"type": "decision", "box": "one", "action": "hit"}, "bad_event"),
        (
            {"type": "bet", "player": "a", "spot": "split", "amount": "1", "numbers": [1, "2"]},
            "bad_event",
        ),
        ({"type": "shuffle", "extra": 1}, "bad_event"),
        ({"v": 2, "type": "shuffle"}, "bad_event"),
        ({"type": "teleport"}, "bad_event"),
    ],
)
def test_malformed_events_are_refused_with_a_reason(obj: Any, reason: str) -> None:
    with pytest.raises(Rejected) as refused:
        parse_event(obj)
    assert refused.value.reason == reason and refused.value.detail


def test_replay_reports_each_event_and_the_settlement() -> None:
    records = list(replay(json.dumps(e) for e in ROUND))
    statuses = [r.get("status") for r in records if "line" in r]
    assert statuses == ["accepted"] * 6 + ["rejected"] + ["accepted"] * 4
    refused = records[6]
    assert refused["reason"] == "bad_card" and refused["line"] == 7
    settled = records[-1]
    assert settled["type"] == "round_settled" and settled["round"] == "r-1"
    # 9+9 doubled with a 2 = 20 against the dealer's 7+10 = 17: 20 staked returns 40
    assert settled["payouts"] == [
        {
            "player": "ann",
            "spot": "main",
            "stake": "20",
            "returns": "40",
            "net": "20",
            "result": "win",
            "box": 1,
            "hand": 0,
        }
    ]


def test_replay_refuses_garbage_lines_and_goes_on() -> None:
    lines = ["not json", "", json.dumps(ROUND[0])]
    records = list(replay(lines))
    assert records[0]["reason"] == "bad_json"
    assert records[1]["status"] == "accepted" and records[1]["line"] == 3


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )


def test_replay_command_is_byte_for_byte_repeatable(tmp_path: Path) -> None:
    events = _cli("simulate", "--events", "--rounds", "4", "--seed", "11").stdout
    path = tmp_path / "journal.jsonl"
    path.write_text(events)
    first = _cli("replay", str(path)).stdout
    second = _cli("replay", "-", stdin=events).stdout
    assert first == second
    settled = [json.loads(line) for line in first.splitlines() if '"round_settled"' in line]
    assert len(settled) == 12  # four rounds at each of the three tables
    assert {s["game"] for s in settled} == {"blackjack", "baccarat", "roulette"}
    assert '"status":"rejected"' not in first


def test_simulate_json_rounds_replay_to_the_same_outcomes() -> None:
    out = _cli("simulate", "--game", "baccarat", "--json", "--rounds", "3", "--seed", "5").stdout
    rounds = [json.loads(line) for line in out.splitlines()]
    events = [json.dumps(e) for played in rounds for e in played["events"]]
    settled = [r for r in replay(events) if r.get("type") == "round_settled"]
    assert settled == [{"type": "round_settled", **played["outcome"]} for played in rounds]


def test_simulate_prints_rounds_readably() -> None:
    out = _cli("simulate", "--game", "blackjack", "--rounds", "2").stdout
    assert "dealer" in out and "box" in out and "returns" in out
