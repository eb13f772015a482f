"""What the table's actor lets out of a card, against a real journal: burns by
the studio's setting, a face-down card across a restart (resumed, or voided and
so revealed), and refusals while the hole card lies face down."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from dealer_station.actor import TableActor
from dealer_station.api import history
from dealer_station.config import BurnCards, ConfigError, TableConfig, parse_config
from dealer_station.games.cards import parse_card
from dealer_station.games.events import (
    BurnCard,
    CloseBets,
    DealCard,
    ManualCard,
    OpenRound,
    PlaceBet,
    VoidRound,
)
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.station import Station
from dealer_station.table_inputs import Command

THREE = "blackjack-3-position"


def actor(path: Path, burn_cards: BurnCards = "hidden", recovery: str = "resume") -> TableActor:
    config = TableConfig.model_validate(
        {"id": "t", "game": "blackjack", "variant": THREE, "recovery": recovery}
    )
    table = TableActor(
        config, "test", Journal(path), Topics("p", "test", "t"), burn_cards=burn_cards
    )
    table.recover()
    return table


def published(table: TableActor) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in table.journal.outbox("t", 0, 10_000)]


def open_and_close_bets(table: TableActor) -> None:
    for event in (OpenRound("r1"), PlaceBet("p1", "main", Decimal(10), box=1), CloseBets()):
        outcome = table.handle(Command("api", event))
        assert outcome is not None and outcome.accepted


def deal_to_the_hole_card(table: TableActor, hole: str = "KH") -> None:
    open_and_close_bets(table)
    for card in ("9S", "5D", "7C", hole):
        outcome = table.handle(Command("shoe", DealCard(parse_card(card))))
        assert outcome is not None and outcome.accepted


@pytest.mark.parametrize("setting", ["hidden", "shown"])
def test_burns_follow_the_studio_setting(tmp_path: Path, setting: BurnCards) -> None:
    table = actor(tmp_path / "j.sqlite3", setting)
    outcome = table.handle(Command("shoe", BurnCard(parse_card("QS"))))
    assert outcome is not None and outcome.accepted
    # A burn while a card is due is refused: its echo follows the setting too.
    open_and_close_bets(table)
    refusal = table.handle(Command("croupier", {"type": "burn", "card": "JD"}))
    assert refusal is not None and refusal.reason == "misdeal"
    events = published(table)
    burned = next(e["data"] for e in events if e["type"] == "burned")
    refused = next(e["data"] for e in events if e["type"] == "rejected")
    if setting == "hidden":
        assert burned == {"face": "burnt"}
        assert (refused["event"]["face"], "card" in refused["event"]) == ("burnt", False)
        assert outcome.outputs_json() == [{"type": "burned", "face": "burnt"}]
    else:
        assert burned == {"card": "QS", "face": "burnt"}
        assert refused["event"]["card"] == "JD"
    # The journal holds both burns, whatever the setting.
    cards = {r.body.get("card") for r in table.journal.records("t")}
    assert {"QS", "JD"} <= cards


def test_the_station_hands_the_setting_to_its_tables(tmp_path: Path) -> None:
    text = (
        f'studio = "s"\nstation = "st"\njournal = "{tmp_path / "j.sqlite3"}"\n'
        '[publish]\nburn_cards = "shown"\n[[tables]]\nid = "t"\ngame = "blackjack"\n'
    )
    station = Station(parse_config(text))
    assert station.actors["t"].burn_cards == "shown"
    station.journal.close()
    assert (
        Station(parse_config(text.replace('burn_cards = "shown"\n', ""))).actors["t"].burn_cards
        == "hidden"
    )
    with pytest.raises(ConfigError, match=r"publish\.burn_cards"):
        parse_config(text.replace('"shown"', '"visible"'))


def test_a_refused_card_while_the_hole_card_is_down_is_not_echoed(tmp_path: Path) -> None:
    table = actor(tmp_path / "j.sqlite3")
    deal_to_the_hole_card(table)
    # A pit boss's second ENTER CARD of the hole card: refused (no card is due).
    outcome = table.handle(Command("pit_boss", ManualCard(parse_card("KH"))))
    assert outcome is not None and not outcome.accepted
    refused = published(table)[-1]
    assert refused["type"] == "rejected"
    echoed = refused["data"]["event"]
    assert (echoed["type"], echoed["face"], "card" in echoed) == ("manual_card", "down", False)
    assert "KH" not in json.dumps(published(table)) and "KH" not in outcome.detail
    # Game recall of the round in play: the hole card's input and the refused
    # second one say a face-down card, without its value, for every role.
    recall = history.round_history(table.journal.path, "t", "r1")
    assert recall is not None and recall.status == "open"
    assert "KH" not in recall.model_dump_json()
    bodies = [i.body for i in recall.inputs if i.body["type"] in ("card", "manual_card")]
    assert [b.get("face") for b in bodies][-2:] == ["down", "down"]
    # Once the round is over, recall shows every input as journaled.
    table.handle(Command("pit_boss", VoidRound("dealer error")))
    ended = history.round_history(table.journal.path, "t", "r1")
    assert ended is not None and ended.status == "void"
    assert [i.body.get("card") for i in ended.inputs][-3:-1] == ["KH", "KH"]


def test_recall_of_a_round_in_play_withholds_a_refusals_words_too() -> None:
    body = {"type": "manual_card", "card": "KH"}
    detail = "KH cannot come from this shoe: all 6 of them are already out"
    refused = {"reason": "impossible_card", "detail": "(face down) cannot ...", "event": {}}
    refused["event"] = {"type": "manual_card", "face": "down"}
    shown, words = history._as_published(body, detail, [refused])
    assert shown == {"type": "manual_card", "face": "down"}
    assert words == "(face down) cannot come from this shoe: all 6 of them are already out"
    dealt = {"card": "KH", "to": "box", "face": "up"}
    assert history._as_published({"type": "card", "card": "KH"}, None, [dealt]) == (
        {"type": "card", "card": "KH"},
        None,
    )


@pytest.mark.parametrize("recovery", ["resume", "void"])
def test_a_restart_keeps_the_hole_card_down_or_voids_and_reveals_it(
    tmp_path: Path, recovery: str
) -> None:
    path = tmp_path / "j.sqlite3"
    first = actor(path)
    deal_to_the_hole_card(first)
    before = published(first)
    first.journal.close()

    again = actor(path, recovery=recovery)
    state = again.latest.round_state
    assert state is not None and state.view is not None
    after = published(again)
    assert after[: len(before)] == before, "the outbox is what it was"
    if recovery == "resume":
        assert "KH" not in json.dumps(after) and "KH" not in state.model_dump_json()
        assert state.view["dealer"]["face_down"] == 1
    else:
        revealed = next(e for e in after if e["type"] == "hole_card_revealed")
        assert (revealed["data"]["card"], revealed["data"]["why"]) == ("KH", "round_void")
        assert state.view["dealer"]["cards"] == ["5D", "KH"]
