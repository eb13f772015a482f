"""Stale and retried writes against a real station (real mosquitto, real HTTP):
a croupier's "confirm 5" and a pit boss's VOID meant for a round that is over,
a double-clicked button, a game server that retries after a timeout, and many
retries at once. Each is refused or answered once, and changes nothing twice."""

from __future__ import annotations

import json
import socket
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker, running_broker
from support.station_rig import TABLES, TOKENS, Rig, running, station_config

pytestmark = pytest.mark.adversarial



@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    broker: Broker
    for broker in running_broker(tmp_path_factory.mktemp("broker")):
        workdir: Path = tmp_path_factory.mktemp("station")
        with running(station_config(workdir, broker.port, TABLES)) as station:
            yield station


def table_now(rig: Rig, table: str) -> dict[str, Any]:
    """The table as it stands, without what every journaled input moves (time, seq)."""
    state: dict[str, Any] = rig.get(f"/tables/{table}/state", "viewer").json()["state"]
    return {k: v for k, v in state.items() if k not in ("at", "seq")}


def shoe(rig: Rig, table: str, *cards: str) -> None:
    for card in cards:
        assert rig.command(table, {"type": "card", "card": card}, source="shoe").accepted


def last_record(rig: Rig, table: str) -> Any:
    return rig.records(table)[-1]


def test_a_stale_confirm_is_refused_in_the_next_round(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    on_screen = rig.step("rou")  # the console shows "NO MORE BETS: SPIN"; the croupier taps 5
    # ... but the camera's 17 settles the round first, and the next round runs on.
    assert rig.command("rou", {"type": "wheel_result", "number": 17}, source="camera").accepted
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    bet = {"player": "ann", "spot": "straight", "numbers": [5], "amount": "10"}
    assert rig.post("/tables/rou/bets", "game_server", bet).status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    before = table_now(rig, "rou")
    stale = rig.post("/tables/rou/wheel/result", "croupier", {"number": 5}, step=on_screen)
    assert stale.status_code == 409, stale.text
    assert stale.json()["reason"] == "stale"
    assert stale.json()["step"] == rig.step("rou")
    assert table_now(rig, "rou") == before
    record = last_record(rig, "rou")
    assert (record.status, record.reason, record.body["number"]) == ("rejected", "stale", 5)
    # The croupier looks again and taps 5 for this spin: taken.
    assert rig.post("/tables/rou/wheel/result", "croupier", {"number": 5}).status_code == 200


def test_a_stale_respin_does_not_show_in_the_next_spin(rig: Rig) -> None:
    """The console's banner shows a RE-SPIN order to the croupier: one meant for
    a spin that is over must not make the croupier spin the next one again."""
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    on_screen = rig.step("rou")
    assert rig.command("rou", {"type": "wheel_result", "number": 3}, source="camera").accepted
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    why = {"why": "ball off the track"}
    stale = rig.post("/tables/rou/pit-boss/respin", "pit_boss", why, step=on_screen)
    assert (stale.status_code, stale.json()["reason"]) == (409, "stale")
    assert table_now(rig, "rou")["alarms"] == []
    assert rig.post("/tables/rou/pit-boss/respin", "pit_boss", why).status_code == 202
    assert [a["code"] for a in table_now(rig, "rou")["alarms"]] == ["respin"]
    end = {"number": 3, "why": "end of the round"}
    assert rig.post("/tables/rou/pit-boss/wheel-result", "pit_boss", end).is_success


def test_a_stale_void_is_refused_in_the_next_round(rig: Rig) -> None:
    assert rig.post("/tables/bac/round/open", "croupier").status_code == 200
    assert rig.post("/tables/bac/round/close-bets", "croupier").status_code == 200
    on_screen = rig.step("bac")  # the pit boss starts a VOID ...
    shoe(rig, "bac", "4S", "5D", "3H", "KC", "9C")  # ... and the round ends meanwhile
    assert rig.post("/tables/bac/round/open", "croupier").status_code == 200
    bet = {"player": "bob", "spot": "banker", "amount": "25"}
    assert rig.post("/tables/bac/bets", "game_server", bet).status_code == 200
    before = table_now(rig, "bac")
    void = rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "misdeal"}, step=on_screen)
    assert (void.status_code, void.json()["reason"]) == (409, "stale")
    assert table_now(rig, "bac") == before
    assert before["view"]["bets"] == 1 and before["next"]["kind"] == "bets"


def test_a_double_clicked_burn_burns_one_card(rig: Rig) -> None:
    """Two presses of one button send two requests (two keys) for the same
    step: the second is stale, so no phantom card leaves the shoe."""
    if table_now(rig, "bac")["next"]["kind"] == "bets":
        assert rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "next"}).is_success
    step = rig.step("bac")
    left = table_now(rig, "bac")["shoe"]["cards_left"]
    with ThreadPoolExecutor(2) as pool:
        presses = list(
            pool.map(
                lambda _: rig.post("/tables/bac/shoe/burn", "croupier", {"card": "5H"}, step=step),
                range(2),
            )
        )
    assert sorted(p.status_code for p in presses) == [200, 409]
    assert table_now(rig, "bac")["shoe"]["cards_left"] == left - 1


def test_a_hit_resent_without_its_key_is_stale(rig: Rig) -> None:
    """A careless retry with a new key still names the step: the first "hit"
    moved the hand on, so the second cannot hit again."""
    assert rig.post("/tables/bj/round/open", "game_server").status_code == 200
    bet = {"player": "ann", "spot": "main", "box": 1, "amount": "10"}
    assert rig.post("/tables/bj/bets", "game_server", bet).status_code == 200
    assert rig.post("/tables/bj/round/close-bets", "game_server").status_code == 200
    shoe(rig, "bj", "2S", "9D", "3H")  # box 1: 2 3, dealer 9
    step = rig.step("bj")
    hit = {"box": 1, "action": "hit"}
    assert rig.post("/tables/bj/decisions", "game_server", hit, step=step).status_code == 200
    shoe(rig, "bj", "4C")  # the hand is due a decision again: 9
    again = rig.post("/tables/bj/decisions", "game_server", hit, step=step)
    assert (again.status_code, again.json()["reason"]) == (409, "stale")
    hand = table_now(rig, "bj")["view"]["boxes"][0]["hands"][0]
    assert hand["cards"] == ["2S", "3H", "4C"]


def _sent_and_dropped(rig: Rig, path: str, body: dict[str, Any], step: str, key: str) -> None:
    """A request whose client gives up before the answer (a timeout): the bytes
    are sent and the connection closed without reading."""
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {TOKENS['game_server']}\r\n"
        f'Content-Type: application/json\r\nIf-Match: "{step}"\r\n'
        f"Idempotency-Key: {key}\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", rig.port)) as sock:
        sock.sendall(head.encode() + data)


def test_a_bet_retried_after_a_timeout_is_staked_once(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "game_server").status_code == 200
    step, key = rig.step("rou"), str(uuid.uuid4())
    bet = {"player": "cy", "spot": "red", "amount": "100"}
    journaled = len(rig.records("rou"))
    _sent_and_dropped(rig, "/tables/rou/bets", bet, step, key)
    rig.wait_until(lambda: len(rig.records("rou")) > journaled)  # the station took it
    retry = rig.post("/tables/rou/bets", "game_server", bet, step=step, key=key)
    assert retry.status_code == 200
    assert retry.headers["idempotent-replayed"] == "true"
    assert table_now(rig, "rou")["view"]["bets"] == 1
    assert len(rig.records("rou")) == journaled + 1


def test_many_clients_retrying_at_once_stake_each_bet_once(rig: Rig) -> None:
    """Ten bets, each sent three times at once under its own key: the box's
    stake is ten bets' worth."""
    assert rig.post("/tables/bj/pit-boss/void", "pit_boss", {"why": "next"}).is_success
    assert rig.post("/tables/bj/round/open", "game_server").status_code == 200
    step = rig.step("bj")
    keys = [str(uuid.uuid4()) for _ in range(10)]
    bet = {"player": "ann", "spot": "main", "box": 2, "amount": "10"}
    with ThreadPoolExecutor(30) as pool:
        answers = list(
            pool.map(
                lambda k: rig.post("/tables/bj/bets", "game_server", bet, step=step, key=k),
                keys * 3,
            )
        )
    assert {a.status_code for a in answers} == {200}
    assert sum(a.headers.get("idempotent-replayed") == "true" for a in answers) == 20
    box = next(b for b in table_now(rig, "bj")["view"]["boxes"] if b["box"] == 2)
    assert box["stake"] == "100"
