"""Who deals, in the table fold: a sign-on or sign-off between rounds applies at
once, one during a round from the next round (the round keeps the dealer who
opened it), every round's opening and settlement name its dealer, and a replay
of the journal says the same (docs/decisions.md, "Dealer sign-on")."""

from __future__ import annotations

import json

import pytest

from dealer_station.games import table
from dealer_station.games.engine import Output
from dealer_station.games.events import (
    ChangeDealer,
    CloseBets,
    Event,
    OpenRound,
    SelectTable,
    VoidRound,
    WheelResult,
    event_to_json,
    parse_event,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.replay import replay


def _fold(*events: Event) -> tuple[table.TableState, list[Output]]:
    state = None
    outputs: list[Output] = []
    for event in events:
        state, out = table.apply(state, event)
        outputs += out
    assert state is not None
    return state, outputs


def _refused(state: table.TableState, event: Event) -> str:
    with pytest.raises(Rejected) as refused:
        table.apply(state, event)
    return refused.value.reason


def _spin(number: int) -> tuple[Event, ...]:
    return OpenRound(), CloseBets(), WheelResult(number)


def _of(outputs: list[Output], kind: str) -> list[Output]:
    return [o for o in outputs if o["type"] == kind]


def test_a_round_records_the_dealer_who_opened_it() -> None:
    state, outputs = _fold(
        SelectTable("roulette", table="rou"),
        ChangeDealer("Ana"),
        OpenRound(),
        CloseBets(),
        ChangeDealer("Bo"),  # Bo signs on while Ana's ball spins
        WheelResult(17),
        *_spin(3),
    )
    assert [o["dealt_by"] for o in _of(outputs, "round_opened")] == ["Ana", "Bo"]
    assert [o["dealt_by"] for o in _of(outputs, "round_settled")] == ["Ana", "Bo"]
    assert [(o["dealer"], o["applies"]) for o in _of(outputs, "dealer_changed")] == [
        ("Ana", "now"),
        ("Bo", "next_round"),
    ]
    assert state.dealing == "Bo"


def test_a_change_during_a_round_waits_and_is_shown_as_waiting() -> None:
    state, _ = _fold(SelectTable("roulette"), ChangeDealer("Ana"), OpenRound())
    assert (state.dealing, state.dealer_pending) == ("Ana", False)
    state, _ = table.apply(state, ChangeDealer())  # Ana signs off mid-round
    assert (state.dealing, state.dealer_pending, state.dealer) == ("Ana", True, None)
    state, _ = table.apply(state, ChangeDealer("Ana"))  # and thinks better of it
    assert (state.dealing, state.dealer_pending) == ("Ana", False)
    state, outputs = table.apply(state, VoidRound("dealer taken ill"))
    assert _of(outputs, "round_settled")[0]["dealt_by"] == "Ana"


def test_no_dealer_is_recorded_as_none() -> None:
    _, outputs = _fold(SelectTable("roulette"), *_spin(0))
    assert _of(outputs, "round_opened")[0]["dealt_by"] is None
    assert _of(outputs, "round_settled")[0]["dealt_by"] is None


def test_nothing_changes_is_refused() -> None:
    state, _ = _fold(SelectTable("roulette"))
    assert _refused(state, ChangeDealer()) == "no_dealer_signed_on"
    state, _ = table.apply(state, ChangeDealer("Ana"))
    assert _refused(state, ChangeDealer("Ana")) == "already_signed_on"
    assert _refused(state, ChangeDealer("")) == "bad_event"


def test_a_table_that_needs_a_dealer_opens_no_round_without_one() -> None:
    state, _ = _fold(SelectTable("roulette"))
    assert _refused(state, OpenRound(needs_dealer=True)) == "no_dealer"
    state, _ = table.apply(state, ChangeDealer("Ana"))
    state, outputs = table.apply(state, OpenRound(needs_dealer=True))
    assert _of(outputs, "round_opened")[0]["dealt_by"] == "Ana"


def test_a_new_game_at_the_table_keeps_its_dealer() -> None:
    state, _ = _fold(SelectTable("roulette", table="t"), ChangeDealer("Ana"))
    state, _ = table.apply(state, SelectTable("baccarat", table="t"))
    assert state.dealing == "Ana"


def test_the_journal_form_replays_to_the_same_dealers() -> None:
    events: list[Event] = [
        SelectTable("roulette", table="rou"),
        ChangeDealer("Ana"),
        OpenRound(needs_dealer=True),
        CloseBets(),
        ChangeDealer(),
        WheelResult(5),
    ]
    lines = [json.dumps(event_to_json(e)) for e in events]
    assert json.loads(lines[1]) == {"v": 1, "type": "dealer", "dealer": "Ana"}
    assert json.loads(lines[4]) == {"v": 1, "type": "dealer"}
    assert [parse_event(json.loads(line)) for line in lines] == events
    settled = [r for r in replay(lines) if r.get("type") == "round_settled"]
    assert [s["dealt_by"] for s in settled] == ["Ana"]
    with pytest.raises(Rejected):
        parse_event({"type": "round_open", "needs_dealer": "yes"})
