"""A pit boss closes a table after the round in play and opens it again
(issue 19 part 2): over real HTTP, a real station, a real mosquitto. The
table's state is retained on ``<base>/state``; a closed table opens no round,
and says why."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from support.broker import Broker, Subscriber
from support.station_rig import Rig, running, station_config

STATE_TOPIC = "dealer-station/test/{table}/state"


def late_state(rig: Rig, table: str, wanted: str) -> dict[str, Any]:
    """The table's ``state`` topic as a consumer that subscribes now reads it:
    the retained message, waited for until it says ``wanted``."""
    port = rig.config.mqtt.port
    for _ in range(100):
        sub = Subscriber(port, STATE_TOPIC.format(table=table))
        try:
            got = sub.wait_for(lambda m: bool(m))
        finally:
            sub.close()
        payload: dict[str, Any] = json.loads(got[0].payload)
        assert got[0].retain
        if payload["state"] == wanted:
            return payload
        # The retained topics follow a change 5 ms later: look again.
    raise AssertionError(f"{table}'s state topic never said {wanted}: {payload}")


def table_records(rig: Rig, table: str, kind: str) -> list[Any]:
    return [r for r in rig.records(table) if r.kind == "event" and r.body["type"] == kind]


def test_a_dealer_cannot_close_the_table(rig: Rig) -> None:
    before = len(rig.records("rou"))
    for role in ("croupier", "game_server", "viewer"):
        assert rig.post("/tables/rou/pit-boss/close", role, {}).status_code == 403
    assert len(rig.records("rou")) == before
    assert late_state(rig, "rou", "open")["by"] is None


def test_close_waits_for_the_round_in_play_then_refuses_a_new_one(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    seen = rig.step("rou")
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    # Sent for the round the pit boss saw, a step ago: "after this round" still holds.
    why = {"why": "end of shift"}
    closing = rig.post("/tables/rou/pit-boss/close", "pit_boss", why, step=seen)
    assert closing.status_code == 200, closing.text
    state = late_state(rig, "rou", "closing")
    assert (state["by"], state["reason"]) == ("pit-boss-1", "end of shift")
    # The round in play goes on to its end: nothing of it is voided.
    result = rig.post("/tables/rou/wheel/result", "croupier", {"number": 17})
    assert result.status_code == 200, result.text
    assert result.json()["state"]["next"]["kind"] == "closed"
    assert result.json()["state"]["action"] == "TABLE CLOSED"
    assert late_state(rig, "rou", "closed")["by"] == "pit-boss-1"
    refused = rig.post("/tables/rou/round/open", "croupier")
    assert refused.status_code == 409
    assert refused.json()["reason"] == "table_closed"
    assert "pit-boss-1" in refused.json()["detail"]
    assert "end of shift" in refused.json()["detail"]
    opened = rig.post("/tables/rou/pit-boss/open", "pit_boss", {"why": "next shift"})
    assert opened.status_code == 200, opened.text
    assert late_state(rig, "rou", "open")["reason"] == "next shift"
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200


def test_a_retried_close_changes_nothing_twice(rig: Rig) -> None:
    """The same Idempotency-Key gets the first answer again; a second press
    with a key of its own is refused, naming the state it found."""
    key = uuid.uuid4().hex
    step = rig.step("bac")
    first = rig.post("/tables/bac/pit-boss/close", "pit_boss", {}, step=step, key=key)
    assert first.status_code == 200, first.text
    again = rig.post("/tables/bac/pit-boss/close", "pit_boss", {}, step=step, key=key)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    pressed = rig.post("/tables/bac/pit-boss/close", "pit_boss", {})
    assert pressed.status_code == 409
    assert pressed.json()["reason"] == "table_closed"
    closes = table_records(rig, "bac", "table_close")
    assert [r.status for r in closes] == ["accepted", "rejected"]
    assert late_state(rig, "bac", "closed")["by"] == "pit-boss-1"


def test_a_closed_table_is_still_closed_after_a_restart(broker: Broker, tmp_path: Path) -> None:
    config = station_config(tmp_path, broker.port, [{"id": "rou", "game": "roulette"}])
    with running(config) as rig:
        closing = rig.post("/tables/rou/pit-boss/close", "pit_boss", {"why": "wheel service"})
        assert closing.is_success
        closed_at = late_state(rig, "rou", "closed")["at"]
    with running(config) as rig:
        state = late_state(rig, "rou", "closed")
        assert (state["by"], state["reason"], state["at"]) == (
            "pit-boss-1", "wheel service", closed_at,
        )  # fmt: skip
        refused = rig.post("/tables/rou/round/open", "croupier")
        assert refused.json()["reason"] == "table_closed"
