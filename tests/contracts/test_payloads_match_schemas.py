"""What the station publishes is what its JSON Schemas say.

Real tables (the station's own `TableActor`, journal and all) play rounds of
every game through the rules engine, with the self-driving players of
``dealer-station simulate``, and are sent refused inputs, device changes and an
alarm. Every round event they journal for MQTT, and every retained topic after
every input, is checked against the schema generated from the contract models,
with format checks on (``at`` is a date-time). A data key the models do not
know, a missing one, an event type or refusal reason outside the enums fails.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig
from dealer_station.contracts.schemas import json_schemas
from dealer_station.contracts.vocabulary import EventType
from dealer_station.journal import Journal
from dealer_station.payloads import ROUND_STATE, STATE, STATS, Topics, device_topic
from dealer_station.table_inputs import Alarm, Command, DeviceChange

SCHEMAS = json_schemas()
TOPIC_SCHEMA = {
    ROUND_STATE: "RoundState",
    STATE: "TableOpening",
    STATS: "Stats",
    "result": "RoundEvent",
}


def validator(name: str) -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator(SCHEMAS[name], validate_formats=True)


def check(name: str, payload: str) -> None:
    errors = [
        f"{e.instance_path}: {e.message}" for e in validator(name).iter_errors(json.loads(payload))
    ]
    assert not errors, f"{name} {payload}\n" + "\n".join(errors)


def play(
    tmp_path: Path, game: str, variant: str | None, rounds: int
) -> tuple[list[str], list[tuple[str, str]]]:
    """A table's round events and retained topics after ``rounds`` rounds."""
    journal = Journal(tmp_path / f"{game}-{variant}.db")
    config = TableConfig.model_validate({"id": "t-1", "game": game, "variant": variant})
    actor = TableActor(config, "studio", journal, Topics("p", "studio", "t-1"))
    actor.recover()
    auto = Autoplay(game, variant, seed=7, table="t-1")
    retained: list[tuple[str, str]] = []

    def handle(item: Command | DeviceChange | Alarm) -> None:
        actor.handle(item)
        retained.extend(actor.latest.retained.items())

    settled = 0
    while settled < rounds:
        handle(Command("api", auto.next_event(actor.state)))
        settled += sum(m.payload.count('"type":"round_settled"') for m in actor.latest.messages)
    # What self-driving players never do: a dealer signs on, a bet is taken
    # back, a card goes unread and the held round is voided, a burn, a count-out,
    # a pit boss closes the table after a round (voided), which opens no round
    # then until it is opened.
    spot = {"blackjack": "main", "baccarat": "player", "roulette": "red"}[game]
    bet: dict[str, object] = {"type": "bet", "player": "ann", "spot": spot, "amount": "10"}
    if game == "blackjack":
        bet["box"] = 1
    for event in (
        {"type": "dealer", "dealer": "Ann"},
        {"type": "round_open"},
        bet,
        {**{k: v for k, v in bet.items() if k != "amount"}, "type": "bet_cancel"},
        bet,
        {"type": "bets_closed"},
        {"type": "card_unread"},
        {"type": "void", "reason": "a test"},
        {"type": "burn", "card": "2C"},
        {"type": "count_out"},
        {"type": "card", "card": "3C"},
        {"type": "shuffle"},
        {"type": "round_open"},
        {"type": "table_close", "pit_boss": "Eva", "reason": "end of shift"},
        {"type": "void", "reason": "a test"},
        {"type": "round_open"},
        {"type": "table_open", "pit_boss": "Eva"},
    ):
        handle(Command("console", event))
    # Refusals, a device coming and going, an alarm: the station's own events.
    handle(Command("shoe", {"type": "card", "card": "AS"}))
    handle(Command("api", {"type": "no_such_type"}))
    handle(Command("console", {"type": "bet", "player": "ann", "spot": "main", "amount": 1.5}))
    handle(DeviceChange("shoe", online=False, detail="unplugged"))
    handle(DeviceChange("shoe", online=True))
    handle(Alarm("respin", "RE-SPIN: the ball left the wheel", "pit_boss"))
    events = [m.payload for m in journal.outbox("t-1", 0, 100_000)]
    journal.close()
    return events, retained


@pytest.mark.parametrize(
    ("game", "variant", "rounds"),
    [
        ("blackjack", "blackjack-3-position", 12),
        ("blackjack", "diamond-blackjack", 12),
        ("baccarat", None, 12),
        ("roulette", None, 12),
    ],
)
def test_what_a_table_publishes_matches_its_schema(
    tmp_path: Path, game: str, variant: str | None, rounds: int
) -> None:
    events, retained = play(tmp_path, game, variant, rounds)
    kinds: Counter[str] = Counter()
    for payload in events:
        check("RoundEvent", payload)
        check("FeedFrame", f'{{"topic":"round/event","payload":{payload}}}')
        kinds[json.loads(payload)["type"]] += 1
    for topic, payload in retained:
        check(TOPIC_SCHEMA.get(topic, "Availability"), payload)
    # The play reached what it is meant to check.
    dealt = "winning_number" if game == "roulette" else "card_dealt"
    assert {"round_settled", "rejected", "alarm", "device", dealt, "dealer_changed"} <= set(kinds)
    assert {"bet_cancelled", "round_void", "table_state"} <= set(kinds)
    if game != "roulette":
        assert {"round_held", "burned", "count_out_started", "counted", "shuffle"} <= set(kinds)
    assert set(kinds) <= set(EventType)
    assert {t for t, _ in retained} >= {ROUND_STATE, STATE, device_topic("shoe")}


def test_a_data_key_the_contract_does_not_know_is_refused() -> None:
    # The schemas are closed where the station's output is: a new key is a
    # contract change, not a silent addition.
    event: dict[str, Any] = {
        "v": 1,
        "table": "t",
        "at": "2026-12-02T00:00:00.000Z",
        "id": "s/t/1",
        "seq": 1,
        "round": "r",
        "type": "card_dealt",
        "source": "shoe",
        "data": {"card": "AS", "to": "player", "face": "up", "score": 1},
    }
    check("RoundEvent", json.dumps(event))
    for broken in (
        {**event, "data": {**event["data"], "value": 11}},
        {**event, "source": "someone"},
        {**event, "type": "card_dealt_twice"},
        {**event, "at": ""},
        {**event, "type": "rejected", "data": {"reason": "no_reason", "detail": "", "event": {}}},
    ):
        assert not validator("RoundEvent").is_valid(broken), broken
