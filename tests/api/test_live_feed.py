"""The WebSocket feed relays the table's MQTT topics byte for byte; /metrics
and /healthz read the station as it is."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.broker import Broker, Subscriber
from support.scrape import value
from support.station_rig import TOKENS, Rig
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def ws(rig: Rig, table: str) -> ClientConnection:
    return connect(rig.url.replace("http", "ws") + f"/tables/{table}/ws", open_timeout=10)


def receive_until(conn: ClientConnection, wanted: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    # Heartbeats keep coming: a wait without an end would never fail.
    for _ in range(200):
        seen.append(json.loads(conn.recv(timeout=10)))
        if wanted(seen[-1]):
            return seen
    raise AssertionError(f"never came; got {[m['topic'] for m in seen]}")


def test_a_token_is_required_first(rig: Rig) -> None:
    with ws(rig, "bac") as conn:
        conn.send(json.dumps({"token": "not-a-token"}))
        with pytest.raises(ConnectionClosed) as closed:
            conn.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    with ws(rig, "nowhere") as conn, pytest.raises(ConnectionClosed) as closed:
        conn.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_the_feed_carries_the_mqtt_payloads(rig: Rig, module_broker: Broker) -> None:
    mqtt = Subscriber(module_broker.port, "dealer-station/test/bac/round/event")
    try:
        with ws(rig, "bac") as conn:
            conn.send(json.dumps({"token": TOKENS["viewer"]}))
            snapshot = receive_until(conn, lambda m: m["topic"] == "station")
            topics = {m["topic"] for m in snapshot}
            assert {"round/state", "station"} <= topics
            assert snapshot[-1]["payload"]["broker"] == "online"
            rig.post("/tables/bac/round/open", "croupier")
            opened = receive_until(conn, lambda m: m["topic"] == "round/event")[-1]["payload"]
            assert opened["type"] == "round_opened"
            state = receive_until(conn, lambda m: m["topic"] == "round/state")[-1]["payload"]
            assert state["action"] == "BETS OPEN"
            mqtt.wait_for(lambda ms: any(json.loads(m.payload)["id"] == opened["id"] for m in ms))
            same = [m for m in mqtt.messages if json.loads(m.payload)["id"] == opened["id"]]
            assert json.loads(same[0].payload) == opened
        # A page opened mid-round gets the round's events so far.
        rig.post("/tables/bac/bets", "game_server", {"player": "a", "spot": "tie", "amount": "5"})
        with ws(rig, "bac") as conn:
            conn.send(json.dumps({"token": TOKENS["croupier"]}))
            snapshot = receive_until(conn, lambda m: m["topic"] == "station")
            kinds = [m["payload"]["type"] for m in snapshot if m["topic"] == "round/event"]
            assert kinds == ["round_opened", "bet_placed"]
    finally:
        mqtt.close()
        rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "end of test"})


def test_metrics_count_what_happened(rig: Rig) -> None:
    before = rig.get("/metrics", "viewer").text
    rig.post("/tables/rou/round/open", "croupier")
    rig.post("/tables/rou/round/open", "croupier")  # refused: round_in_progress
    rig.post("/tables/rou/round/close-bets", "croupier")
    rig.post("/tables/rou/wheel/result", "croupier", {"number": 0})
    after = rig.get("/metrics", "viewer").text
    for name in ("dealer_station_rounds_opened_total", "dealer_station_rounds_settled_total"):
        assert value(after, name, table="rou") == value(before, name, table="rou") + 1
    voided = "dealer_station_rounds_voided_total"
    assert value(after, voided, table="rou") == value(before, voided, table="rou")
    refused = value(
        after, "dealer_station_refusals_total", table="rou", reason="round_in_progress"
    )
    assert refused >= 1
    assert value(after, "dealer_station_mqtt_connected", table="rou") == 1
    assert value(after, "dealer_station_alarms_active", table="rou") == 0


def test_healthz_reports_each_tables_links(rig: Rig) -> None:
    health = rig.get("/healthz").json()
    assert health["status"] == "ok"
    assert health["tables"]["bj"] == {"broker": "online"}
