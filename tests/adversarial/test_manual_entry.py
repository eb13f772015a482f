"""Attacks on the manual paths (issue 13, rules 8 and 10), against a real station
over real HTTP: its shoe a simulator on a real PTY, its wheel camera a recorded
spin, its broker a real mosquitto.

- a double ENTER CARD (a double-click, a retried request) for one unread card;
- a card entered for a place that changed while the pit boss's dialog was open;
- a croupier's one tap on the number pad while the camera reads the wheel;
- a card the shoe cannot hold: the round holds, the shoe's light turns red, and
  stays held across a restart until a pit boss resolves it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker
from support.station_rig import SLOW, Rig, running, station_config

import firmware_proto as fp
from dealer_station.config import StationConfig
from drivers.shoe.simulator import FramedShoeSimulator

pytestmark = pytest.mark.adversarial

WHEEL = Path(__file__).resolve().parents[1] / "fixtures" / "wheel" / "valid-190.mkv"
# The camera table's recorded wheel: its spin plays each time the table waits for one.
WHEELS = {"cam": WHEEL}
WHY = {"why": "test: pit boss checked"}


@pytest.fixture
def shoe() -> Iterator[FramedShoeSimulator]:
    with FramedShoeSimulator(decks=8, seed=13) as simulator:
        yield simulator


@pytest.fixture
def config(shoe: FramedShoeSimulator, broker: Broker, tmp_path: Path) -> StationConfig:
    tables = [
        {
            "id": "bac",
            "game": "baccarat",
            "shoe": {"port": shoe.port},
            "timers": SLOW,
            "recovery": "resume",
        },
        {
            "id": "cam",
            "game": "roulette",
            "camera": {"source": str(WHEEL)},
            "timers": SLOW,
        },
    ]
    return station_config(tmp_path, broker.port, tables)


@pytest.fixture
def rig(config: StationConfig) -> Iterator[Rig]:
    with running(config, WHEELS) as station:
        station.wait_until(
            lambda: station.get("/healthz").json()["tables"]["bac"]["shoe"] == "online"
        )
        yield station


def stack(shoe: FramedShoeSimulator, *cards: str) -> None:
    shoe.cards_left.extend(reversed(cards))


def journaled(rig: Rig, table: str, before: int, count: int = 1) -> None:
    rig.wait_until(lambda: len(rig.records(table)) >= before + count)


def draw(rig: Rig, shoe: FramedShoeSimulator, *, unread: bool = False, burn: bool = False) -> None:
    before = len(rig.records("bac"))
    if unread:
        shoe.draw_unread()
    else:
        shoe.draw(burn=burn)
    journaled(rig, "bac", before)


def state(rig: Rig, table: str) -> dict[str, Any]:
    now: dict[str, Any] = rig.get(f"/tables/{table}/state", "pit_boss").json()["state"]
    return now


def waits_for(now: dict[str, Any]) -> dict[str, Any]:
    """What the table waits for, without the step id that names the moment."""
    return {k: v for k, v in now["next"].items() if k != "step"}


def open_baccarat_round(rig: Rig) -> None:
    assert rig.post("/tables/bac/round/open", "croupier").status_code == 200
    bet = {"player": "ann", "spot": "banker", "amount": "100"}
    assert rig.post("/tables/bac/bets", "game_server", bet).status_code == 200
    assert rig.post("/tables/bac/round/close-bets", "croupier").status_code == 200


def test_a_double_enter_card_for_one_unread_card_deals_one_card(
    rig: Rig, shoe: FramedShoeSimulator
) -> None:
    open_baccarat_round(rig)
    # Player K 8 (8), Banker 9 K (9): Banker wins. The Banker's 9 passes unread.
    stack(shoe, "KS", "9C", "8D", "KH")
    draw(rig, shoe)
    draw(rig, shoe, unread=True)
    assert waits_for(state(rig, "bac")) == {"kind": "pit_boss", "to": "banker"}

    card = {"card": "9C", "to": "banker", **WHY}
    with ThreadPoolExecutor(2) as pool:
        answers = list(
            pool.map(lambda _: rig.post("/tables/bac/pit-boss/card", "pit_boss", card), range(2))
        )
    assert sorted(a.status_code for a in answers) == [200, 409]
    # The second names the step it read: if it read it before the first card
    # went in, it is stale; if after, no card is held any more. Either way refused.
    refused = next(a for a in answers if a.status_code == 409).json()["reason"]
    assert refused in ("stale", "not_held")

    view = state(rig, "bac")["view"]
    assert (view["player"]["cards"], view["banker"]["cards"]) == (["KS"], ["9C"])
    draw(rig, shoe)
    draw(rig, shoe)
    now = state(rig, "bac")
    assert now["next"]["kind"] == "settled"
    assert (now["view"]["player"]["score"], now["view"]["banker"]["score"]) == (8, 9)
    settlement = rig.get("/tables/bac/rounds", "pit_boss").json()["rounds"][0]["settlement"]
    assert [(p["player"], p["returns"]) for p in settlement["payouts"]] == [("ann", "195")]
    manual = [r for r in rig.records("bac") if r.body.get("type") == "manual_card"]
    assert [(r.status, r.reason) for r in manual] == [("accepted", None), ("rejected", refused)]


def test_a_card_for_a_place_that_changed_meanwhile_is_refused(
    rig: Rig, shoe: FramedShoeSimulator
) -> None:
    open_baccarat_round(rig)
    stack(shoe, "4D", "6H")
    draw(rig, shoe, unread=True)
    assert waits_for(state(rig, "bac")) == {"kind": "pit_boss", "to": "player"}
    # The dialog a pit boss opened now says CARD FOR PLAYER. Meanwhile another
    # pit boss enters the Player's card and the Banker's passes unread too.
    other = {"card": "4D", "to": "player", "why": "entered at the other console"}
    assert rig.post("/tables/bac/pit-boss/card", "pit_boss", other).status_code == 200
    draw(rig, shoe, unread=True)
    assert waits_for(state(rig, "bac")) == {"kind": "pit_boss", "to": "banker"}

    before = len(rig.records("bac"))
    stale = rig.post("/tables/bac/pit-boss/card", "pit_boss", {"card": "9C", "to": "player", **WHY})
    assert stale.status_code == 409
    assert stale.json()["reason"] == "destination_changed"
    assert "banker" in stale.json()["detail"]
    # A request that names no place is malformed: nothing reaches the table.
    unnamed = rig.post("/tables/bac/pit-boss/card", "pit_boss", {"card": "9C", **WHY})
    assert unnamed.status_code == 422
    assert len(rig.records("bac")) == before + 1  # the refusal, journaled
    now = state(rig, "bac")
    assert (now["view"]["player"]["cards"], now["view"]["banker"]["cards"]) == (["4D"], [])
    assert now["hold"] == "card_unread"

    right = rig.post("/tables/bac/pit-boss/card", "pit_boss", {"card": "6H", "to": "banker", **WHY})
    assert right.status_code == 200
    assert waits_for(state(rig, "bac")) == {"kind": "card", "to": "player"}


def test_one_tap_on_the_number_pad_while_the_camera_reads_the_wheel_commits_nothing(
    rig: Rig,
) -> None:
    truth = json.loads(WHEEL.with_suffix(".json").read_text())["number"]
    assert truth != 17
    rig.wait_until(lambda: rig.get("/healthz").json()["tables"]["cam"]["camera"] == "online")
    assert rig.post("/tables/cam/round/open", "croupier").status_code == 200
    for player, number in (("ann", 17), ("bob", truth)):
        bet = {"player": player, "spot": "straight", "numbers": [number], "amount": "10"}
        assert rig.post("/tables/cam/bets", "game_server", bet).status_code == 200
    assert rig.post("/tables/cam/round/close-bets", "croupier").status_code == 200

    before = len(rig.records("cam"))
    tap = rig.post("/tables/cam/wheel/result", "croupier", {"number": 17})
    assert tap.status_code == 409
    assert tap.json()["reason"] == "camera_online"
    # A pit boss's token on the croupier's path has no reason to give: refused too.
    assert rig.post("/tables/cam/wheel/result", "pit_boss", {"number": 17}).status_code == 409
    assert len(rig.records("cam")) == before

    rig.wait_until(lambda: state(rig, "cam")["next"]["kind"] == "settled", timeout=90)
    results = [r for r in rig.records("cam") if r.body.get("type") == "wheel_result"]
    assert [(r.source, r.status, r.body["number"]) for r in results] == [
        ("camera", "accepted", truth)
    ]
    assert state(rig, "cam")["view"]["number"] == truth

    # The pit boss may override the camera, with a reason, while it is online.
    assert rig.post("/tables/cam/round/open", "croupier").status_code == 200
    assert rig.post("/tables/cam/round/close-bets", "croupier").status_code == 200
    confirm = {"number": 17, "why": "ball bounced out after the camera's read"}
    assert rig.post("/tables/cam/pit-boss/wheel-result", "pit_boss", confirm).status_code == 200
    last = [r for r in rig.records("cam") if r.body.get("type") == "wheel_result"][-1]
    assert (last.source, last.status, last.body["number"], last.why) == (
        "pit_boss",
        "accepted",
        17,
        confirm["why"],
    )


def test_an_impossible_card_holds_the_round_turns_the_light_red_and_survives_a_restart(
    config: StationConfig, shoe: FramedShoeSimulator
) -> None:
    with running(config, WHEELS) as rig:
        rig.wait_until(lambda: rig.get("/healthz").json()["tables"]["bac"]["shoe"] == "online")
        # Eight decks: the shoe burns all eight aces of spades between rounds.
        stack(shoe, *["AS"] * 8)
        for _ in range(8):
            draw(rig, shoe, burn=True)
        assert all(
            r.status == "accepted" for r in rig.records("bac") if r.body.get("type") == "burn"
        )
        open_baccarat_round(rig)
        rig.wait_until(lambda: shoe.indicator == fp.Indicator.GREEN)

        stack(shoe, "AS", "2S", "3S")
        draw(rig, shoe)  # a ninth ace of spades: a foreign card or a misread
        rig.wait_until(lambda: state(rig, "bac")["hold"] == "impossible_card")
        refused, hold = rig.records("bac")[-2:]
        assert (refused.status, refused.reason) == ("rejected", "impossible_card")
        assert (hold.source, hold.status, hold.body) == (
            "station",
            "accepted",
            {"v": 1, "type": "hold", "reason": "impossible_card"},
        )
        now = state(rig, "bac")
        assert now["next"]["kind"] == "pit_boss"
        assert "impossible_card" in [a["code"] for a in now["alarms"]]
        rig.wait_until(lambda: shoe.indicator == fp.Indicator.RED)

        draw(rig, shoe)  # the croupier draws on: refused while the round holds
        assert (rig.records("bac")[-1].status, rig.records("bac")[-1].reason) == (
            "rejected",
            "round_held",
        )
        assert state(rig, "bac")["view"]["player"]["cards"] == []
        assert shoe.indicator == fp.Indicator.RED

    with running(config, WHEELS) as rig:  # recovery = resume: the hold is in the journal
        rig.wait_until(lambda: rig.get("/healthz").json()["tables"]["bac"]["shoe"] == "online")
        now = state(rig, "bac")
        assert (now["hold"], now["next"]["kind"]) == ("impossible_card", "pit_boss")
        assert rig.post("/tables/bac/pit-boss/release", "croupier", WHY).status_code == 403
        released = rig.post("/tables/bac/pit-boss/release", "pit_boss", WHY)
        assert released.status_code == 200
        assert released.json()["outputs"] == [
            {"type": "hold_released", "reason": "impossible_card"}
        ]
        rig.wait_until(lambda: shoe.indicator == fp.Indicator.GREEN)
        now = state(rig, "bac")
        assert now["hold"] is None and waits_for(now) == {"kind": "card", "to": "player"}
        assert "impossible_card" not in [a["code"] for a in now["alarms"]]
        draw(rig, shoe)  # 3S: the deal goes on
        assert state(rig, "bac")["view"]["player"]["cards"] == ["3S"]
