"""From hardware input to the MQTT message a subscriber receives, field by field.

Real parts: mosquitto on a loopback port, the shoe simulator on a real
pseudo-terminal opened by the real serial driver, the recorded wheel video
through the real detector, and the station itself. Expected amounts come from
docs/rules.md (Baccarat: "a 100 bet returns 195"; blackjack 1:1; roulette 35:1 and
1:1), not from the code.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker, Subscriber
from support.station import StationThread, config_for

from dealer_station import shoe_bridge, table_writes
from dealer_station.journal import Record
from dealer_station.payloads import (
    Availability,
    Integrity,
    RoundEvent,
    RoundState,
    Stats,
    TableOpening,
)
from dealer_station.table_inputs import Command, Outcome
from dealer_station.table_writes import WritingTable
from drivers.shoe.simulator import FramedShoeSimulator

WHEEL = Path(__file__).resolve().parents[1] / "fixtures" / "wheel"


def _events(sub: Subscriber, table: str) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in sub.on(f"/{table}/round/event")]


def _check_envelopes(events: list[dict[str, Any]], table: str) -> None:
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for e in events:
        assert e["v"] == 1 and e["table"] == table
        assert e["id"] == f"test/{table}/{e['seq']}"
        assert e["at"].endswith("Z")


def _deal(st: StationThread, sim: FramedShoeSimulator, table: str, count: int) -> None:
    for _ in range(count):
        st.wait_for_step(table, "card")
        sim.draw()
        st.wait_until(lambda: sim.all_acknowledged())


@pytest.mark.parametrize("protocol", ["5", "3.1.1"])
def test_baccarat_round_from_the_shoe_to_a_subscriber(
    broker: Broker, tmp_path: Path, protocol: str
) -> None:
    # Player 2+3 = 5 draws a 7 (total 2); Banker K+6 = 6 draws on a third card of
    # 6-7 (docs/rules.md's table) and makes 8: Banker wins.
    order = ["2S", "KD", "3H", "6C", "7D", "2C"]
    sub = Subscriber(broker.port, "dealer-station/test/bac/#")
    with FramedShoeSimulator(decks=8, seed=7) as sim:
        sim.cards_left = list(reversed(order))
        config = config_for(
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n'
            "timers = { betting_seconds = 60 }\n",
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        config = config.model_copy(
            update={"mqtt": config.mqtt.model_copy(update={"protocol": protocol})}
        )
        with StationThread(config) as st:
            st.wait_until(
                lambda: st.call(lambda: st.actor("bac").devices.get("shoe", ("",))[0]) == "online"
            )
            assert st.command("bac", {"type": "round_open", "round": "r1"}).accepted
            for player, spot, amount in [
                ("ann", "banker", "100"),
                ("bob", "player", "50"),
                ("cy", "tie", "10"),
                ("dee", "player_pair", "10"),
            ]:
                assert st.command(
                    "bac", {"type": "bet", "player": player, "spot": spot, "amount": amount}
                ).accepted
            assert st.command("bac", {"type": "bets_closed"}).accepted
            _deal(st, sim, "bac", len(order))
            st.wait_for_step("bac", "settled")
            sub.wait_for(lambda ms: any(b"round_settled" in m.payload for m in ms))
    sub.close()

    events = _events(sub, "bac")
    _check_envelopes(events, "bac")
    dealt = [e for e in events if e["type"] == "card_dealt"]
    assert [e["data"]["card"] for e in dealt] == order
    assert [e["data"]["to"] for e in dealt] == ["player", "banker"] * 3
    assert all(e["source"] == "shoe" and e["round"] == "r1" for e in dealt)
    settled = next(e for e in events if e["type"] == "round_settled")["data"]
    assert settled["winner"] == "banker"
    assert settled["player"]["score"] == 2 and settled["banker"]["score"] == 8
    returns = {p["player"]: p["returns"] for p in settled["payouts"]}
    assert returns == {"ann": "195", "bob": "0", "cy": "0", "dee": "0"}
    # Every message is what `dealer-station schema` describes.
    models = {
        "round/event": RoundEvent,
        "round/state": RoundState,
        "result": RoundEvent,
        "stats": Stats,
        "status": Availability,
        "device/shoe": Availability,
        "integrity": Integrity,
        "state": TableOpening,
    }
    for message in sub.messages:
        topic = message.topic.removeprefix("dealer-station/test/bac/")
        models[topic].model_validate_json(message.payload)
    result = json.loads(sub.on("/bac/result")[-1].payload)
    assert result["type"] == "round_settled" and result["data"] == settled
    assert json.loads(sub.on("/bac/status")[-1].payload)["state"] in ("online", "offline")
    assert json.loads(sub.on("/bac/device/shoe")[0].payload)["state"] == "online"


def test_blackjack_round_with_a_split_and_a_double(broker: Broker, tmp_path: Path) -> None:
    # 8-8 against a 6: split; 8+3 doubles to 21; 8+2 doubles to 19; the dealer
    # draws 6+10 = 16, then 8: bust. Both doubled hands win even money.
    order = ["8S", "6D", "8C", "3H", "TS", "2C", "9H", "TD", "8D"]
    sub = Subscriber(broker.port, "dealer-station/test/bj/#")
    with FramedShoeSimulator(decks=6, seed=3) as sim:
        sim.cards_left = list(reversed(order))
        config = config_for(
            f'[[tables]]\nid = "bj"\ngame = "blackjack"\nvariant = "standard-blackjack"\n'
            f'shoe = {{ port = "{sim.port}" }}\n'
            "timers = { betting_seconds = 60, decision_seconds = 60 }\n",
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        with StationThread(config) as st:
            assert st.command("bj", {"type": "round_open", "round": "r1"}).accepted
            assert st.command(
                "bj", {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "10"}
            ).accepted
            assert st.command("bj", {"type": "bets_closed"}).accepted
            _deal(st, sim, "bj", 3)
            assert st.next_step("bj") == ("decision", "box 1 hand 0")
            assert st.command("bj", {"type": "decision", "box": 1, "action": "split"}).accepted
            _deal(st, sim, "bj", 1)
            assert st.command("bj", {"type": "decision", "box": 1, "action": "double"}).accepted
            _deal(st, sim, "bj", 2)  # the double's card, then hand 1's second card
            refused = st.command("bj", {"type": "decision", "box": 1, "hand": 0, "action": "hit"})
            assert not refused.accepted and refused.reason == "not_your_turn"
            assert st.command(
                "bj", {"type": "decision", "box": 1, "hand": 1, "action": "double"}
            ).accepted
            _deal(st, sim, "bj", 3)
            st.wait_for_step("bj", "settled")
            sub.wait_for(lambda ms: any(b"round_settled" in m.payload for m in ms))
    sub.close()

    events = _events(sub, "bj")
    _check_envelopes(events, "bj")
    dealt = [e["data"] for e in events if e["type"] == "card_dealt"]
    assert [d["card"] for d in dealt] == order
    assert [(d["to"], d.get("box"), d.get("hand")) for d in dealt] == [
        ("box", 1, 0), ("dealer", None, None), ("box", 1, 0), ("box", 1, 0), ("box", 1, 0),
        ("box", 1, 1), ("box", 1, 1), ("dealer", None, None), ("dealer", None, None),
    ]  # fmt: skip
    decisions = [
        (e["data"]["hand"], e["data"]["action"]) for e in events if e["type"] == "decision"
    ]
    assert decisions == [(0, "split"), (0, "double"), (1, "double")]
    rejected = [e["data"] for e in events if e["type"] == "rejected"]
    assert rejected[0]["reason"] == "not_your_turn"
    settled = next(e for e in events if e["type"] == "round_settled")["data"]
    assert settled["dealer"]["total"] == 24
    assert [(p["hand"], p["stake"], p["returns"]) for p in settled["payouts"]] == [
        (0, "20", "40"),
        (1, "20", "40"),
    ]


def test_roulette_spin_from_the_recorded_wheel(broker: Broker, tmp_path: Path) -> None:
    video = sorted(WHEEL.glob("valid-*.mkv"))[0]
    truth = json.loads(video.with_suffix(".json").read_text())
    number = truth["number"]
    sub = Subscriber(broker.port, "dealer-station/test/rl/#")
    config = config_for(
        f'[[tables]]\nid = "rl"\ngame = "roulette"\n'
        f'camera = {{ source = "{video}" }}\n'
        "timers = { betting_seconds = 60 }\n",
        tmp_path / "journal.sqlite3",
        broker.port,
    )
    with StationThread(config, wheels={"rl": video}) as st:
        assert st.command("rl", {"type": "round_open", "round": "r1"}).accepted
        bets = [
            {"type": "bet", "player": "ann", "spot": "straight", "numbers": [number],
             "amount": "10"},
            {"type": "bet", "player": "bob", "spot": "straight", "numbers": [(number + 1) % 37],
             "amount": "10"},
        ]  # fmt: skip
        for bet in bets:
            assert st.command("rl", bet).accepted
        assert st.command("rl", {"type": "bets_closed"}).accepted
        st.wait_for_step("rl", "settled", timeout=60)
        sub.wait_for(lambda ms: any(b"round_settled" in m.payload for m in ms))
    sub.close()

    events = _events(sub, "rl")
    _check_envelopes(events, "rl")
    settled = next(e for e in events if e["type"] == "round_settled")
    assert settled["source"] == "camera"
    assert settled["data"]["number"] == number
    returns = {p["player"]: p["returns"] for p in settled["data"]["payouts"]}
    assert returns == {"ann": "360", "bob": "0"}  # straight up pays 35:1


def test_shoe_unplugged_mid_round_alarms_and_the_round_resumes(
    broker: Broker, tmp_path: Path
) -> None:
    order = ["2S", "KD", "3H", "6C", "7D", "2C"]
    sub = Subscriber(broker.port, "dealer-station/test/bac/#")
    with FramedShoeSimulator(decks=8, seed=7) as sim:
        sim.cards_left = list(reversed(order))
        config = config_for(
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\n'
            f'shoe = {{ port = "{sim.port}", heartbeat_timeout = 1.0 }}\n'
            "timers = { betting_seconds = 60 }\n",
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        with StationThread(config) as st:
            st.command("bac", {"type": "round_open", "round": "r1"})
            st.command("bac", {"type": "bet", "player": "ann", "spot": "banker", "amount": "10"})
            st.command("bac", {"type": "bets_closed"})
            _deal(st, sim, "bac", 2)
            sim.unplug()
            st.wait_until(lambda: st.call(lambda: st.actor("bac").devices["shoe"][0]) == "offline")
            alarms = st.call(lambda: st.actor("bac").alarms.codes())
            assert "shoe_offline" in alarms
            assert st.next_step("bac") == ("card", "player")  # the round waits
            sim.replug()
            st.wait_until(lambda: st.call(lambda: st.actor("bac").devices["shoe"][0]) == "online")
            _deal(st, sim, "bac", 4)
            st.wait_for_step("bac", "settled")
            sub.wait_for(lambda ms: any(b"round_settled" in m.payload for m in ms))
    sub.close()

    events = _events(sub, "bac")
    _check_envelopes(events, "bac")
    assert [e["data"]["card"] for e in events if e["type"] == "card_dealt"] == order
    shoe_states = [json.loads(m.payload)["state"] for m in sub.on("/bac/device/shoe")]
    # ... and offline once more when the station stops and lets go of the port
    assert shoe_states == ["online", "offline", "online", "offline"]
    alarm = next(e for e in events if e["type"] == "alarm")
    assert alarm["data"]["code"] == "shoe_offline" and "do not draw" in alarm["data"]["message"]


def _shoe_records(st: StationThread, table: str) -> list[Record]:
    records: list[Record] = st.call(lambda: [
        r for r in st.actor(table).journal.records(table) if r.source == "shoe"])
    return records


@pytest.mark.parametrize("fault", ["loop_blocked", "table_fails"])
def test_a_card_the_table_did_not_journal_is_sent_again_and_none_is_lost(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    # Player 2+3 = 5 draws a 7; Banker K+6 draws and makes 8 (as above). The
    # second card meets a table that cannot journal it: its loop blocked longer
    # than the bridge waits, or the table failing on it (a bug) eight times.
    order = ["2S", "KD", "3H", "6C", "7D", "2C"]
    monkeypatch.setattr(shoe_bridge, "JOURNAL_WAIT_S", 0.3)
    failures = {"left": 0}  # shoe inputs the table will fail on
    command = table_writes.command

    def failing(table: WritingTable, item: Command, now: datetime) -> Outcome:
        if item.source == "shoe" and failures["left"]:
            failures["left"] -= 1
            raise RuntimeError("a bug in the table")
        return command(table, item, now)

    monkeypatch.setattr(table_writes, "command", failing)
    with FramedShoeSimulator(decks=8, seed=7, retransmit_after=0.25) as sim:
        sim.cards_left = list(reversed(order))
        config = config_for(
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\nshoe = {{ port = "{sim.port}" }}\n'
            "timers = { betting_seconds = 60 }\n",
            tmp_path / "journal.sqlite3",
            broker.port,
        )
        with StationThread(config) as st:
            st.wait_until(
                lambda: st.call(lambda: st.actor("bac").devices.get("shoe", ("",))[0]) == "online"
            )
            assert st.command("bac", {"type": "round_open", "round": "r1"}).accepted
            assert st.command("bac", {"type": "bets_closed"}).accepted
            _deal(st, sim, "bac", 1)
            st.wait_for_step("bac", "card")
            if fault == "loop_blocked":
                st.loop.call_soon_threadsafe(time.sleep, 2.0)  # stuck for six of its waits
            else:
                failures["left"] = 8  # a resend each 0.25 s: about 2 s
            sim.draw()
            time.sleep(1.0)  # the bridge has refused the card more than once by now
            # Stuck or failing, the table has not journaled the card: the shoe
            # still holds it, unacknowledged, and sends it again.
            assert not sim.all_acknowledged()
            st.wait_until(lambda: sim.all_acknowledged())
            assert sim.retransmissions > 0
            _deal(st, sim, "bac", len(order) - 2)
            st.wait_for_step("bac", "settled")
            records = _shoe_records(st, "bac")
            bridge = st.station.shoes["bac"] if st.station is not None else None
            assert bridge is not None and bridge.failures == 0
    cards = [r.body["card"] for r in records if r.kind == "event"]
    assert cards == order  # each once, in order, none lost
    # Refused three times in a row: the croupier is told, once.
    alarms = [r.body["code"] for r in records if r.kind == "alarm"]
    assert alarms.count("shoe_card_not_journaled") == 1
