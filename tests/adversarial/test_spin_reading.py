"""Attacks on the camera's reading of a spin (issue 15): the release pocket,
rotor speed and the rest are what the integrity monitor's dealer signature is
built from, so nobody but the camera may put them in the journal.

- a client (a hostile neighbour with a croupier's or a pit boss's token, a
  confused game server) sends a hand-entered number with a made-up reading, to
  make a dealer look as if she aims or to hide one who does: refused, nothing
  journaled; the same number without it is journaled with no reading at all;
- a journal or replay file with a reading's keys on another event (a bet
  dressed up as a spin): refused as any unknown key, while a camera result's
  reading replays and never reaches the rules.

Real parts: a station with its HTTP server on a real socket and a real
mosquitto, and `dealer-station replay` on a real file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.broker import Broker
from support.station_rig import SLOW, Rig, running, station_config

from dealer_station.cli import main
from dealer_station.games.events import WHEEL_READING_KEYS

pytestmark = pytest.mark.adversarial

READING = {
    "rotor_rpm": 24.5,
    "rotor_direction": "clockwise",
    "ball_direction": "counterclockwise",
    "ball_revolutions": 5.25,
    "release_pocket": 26,
    "landing_distance": 3,
}


@pytest.fixture
def rig(broker: Broker, tmp_path: Path) -> Iterator[Rig]:
    tables = [{"id": "rou", "game": "roulette", "timers": SLOW}]
    with running(station_config(tmp_path, broker.port, tables)) as station:
        yield station


def _results(rig: Rig) -> list[dict[str, object]]:
    return [r.body for r in rig.records("rou") if r.body.get("type") == "wheel_result"]


def test_a_hand_entered_number_with_a_made_up_reading_is_refused(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    before = len(rig.records("rou"))
    for key, value in READING.items():
        forged = rig.post("/tables/rou/wheel/result", "croupier", {"number": 17, key: value})
        assert forged.status_code == 422, key
        pit = {"number": 17, "why": "test: the camera was off", key: value}
        assert rig.post("/tables/rou/pit-boss/wheel-result", "pit_boss", pit).status_code == 422
    assert len(rig.records("rou")) == before

    assert rig.post("/tables/rou/wheel/result", "croupier", {"number": 17}).status_code == 200
    [entered] = _results(rig)
    assert entered == {"v": 1, "type": "wheel_result", "number": 17}
    assert not set(entered) & set(WHEEL_READING_KEYS)


def _replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], events: list[dict[str, object]]
) -> list[dict[str, object]]:
    path = tmp_path / "inputs.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    assert main(["replay", str(path)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


OPEN = [
    {"type": "table", "game": "roulette"},
    {"type": "round_open", "round": "r1"},
]


@pytest.mark.parametrize("key", WHEEL_READING_KEYS)
def test_a_readings_key_on_another_event_is_refused_on_replay(
    key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bet = {"type": "bet", "player": "ann", "spot": "red", "amount": "10", key: READING[key]}
    *_, line = _replay(tmp_path, capsys, [*OPEN, bet])
    assert (line["status"], line["reason"]) == ("rejected", "bad_event")
    assert key in str(line["detail"])


def test_a_camera_result_with_its_reading_replays_and_the_rules_never_see_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spin = {"type": "wheel_result", "number": 19, "id": "spin:2", "confidence": 0.9, **READING}
    lines = _replay(tmp_path, capsys, [*OPEN, {"type": "bets_closed"}, spin])
    result = next(line for line in lines if line.get("line") == 4)
    assert result["status"] == "accepted"
    assert result["event"] == {"v": 1, "type": "wheel_result", "number": 19}
    settled = next(line for line in lines if line.get("type") == "round_settled")
    assert settled["number"] == 19
