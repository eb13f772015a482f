"""Column and dozen bets say which under their own name (``"dozen": 1``), never
as ``"numbers": [1]``, which reads as the number 1; the old form is still read,
as journals written before hold it."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_station.games import table
from dealer_station.games.events import (
    CloseBets,
    OpenRound,
    SelectTable,
    WheelResult,
    event_to_json,
    parse_event,
)
from dealer_station.games.rejection import Rejected


def _bet(**placement: Any) -> dict[str, Any]:
    return {"type": "bet", "player": "ann", "amount": "5", **placement}


def _played(*events: Any) -> list[dict[str, Any]]:
    state, _ = table.apply(None, SelectTable("roulette"))
    state, _ = table.apply(state, OpenRound("r1"))
    outputs: list[dict[str, Any]] = []
    for event in events:
        state, out = table.apply(state, event)
        outputs += out
    return outputs


def test_a_column_and_a_dozen_are_written_by_name() -> None:
    outputs = _played(
        parse_event(_bet(spot="column", column=3)),
        parse_event(_bet(spot="dozen", dozen=1)),
        CloseBets(),
        WheelResult(12),  # column 3 (3, 6, ... 36) and the first dozen
    )
    placed = [o for o in outputs if o["type"] == "bet_placed"]
    assert [(o["spot"], o.get("column"), o.get("dozen")) for o in placed] == [
        ("column", 3, None),
        ("dozen", None, 1),
    ]
    assert not any("numbers" in o for o in placed)
    (settled,) = [o for o in outputs if o["type"] == "round_settled"]
    payouts = settled["payouts"]
    assert [(p["spot"], p.get("column"), p.get("dozen"), p["returns"]) for p in payouts] == [
        ("column", 3, None, "15"),
        ("dozen", None, 1, "15"),
    ]
    assert not any("numbers" in p for p in payouts)


def test_the_old_form_reads_as_the_new_and_is_written_anew() -> None:
    old = parse_event(_bet(spot="dozen", numbers=[2]))
    assert old == parse_event(_bet(spot="dozen", dozen=2))
    assert event_to_json(old) == {"v": 1, **_bet(spot="dozen", dozen=2)}
    # Inside bets keep their numbers.
    split = _bet(spot="split", numbers=[17, 20])
    assert event_to_json(parse_event(split)) == {"v": 1, **split}


@pytest.mark.parametrize(
    "placement",
    [
        {"spot": "dozen", "dozen": 1, "numbers": [1]},  # both forms
        {"spot": "dozen", "dozen": True},
        {"spot": "column", "column": [1]},
        {"spot": "straight", "dozen": 1},  # not a dozen bet
    ],
)
def test_a_placement_that_is_not_one_is_refused(placement: dict[str, Any]) -> None:
    with pytest.raises(Rejected) as refused:
        parse_event(_bet(**placement))
    assert refused.value.reason == "bad_event"


def test_a_dozen_out_of_range_says_how_to_write_it() -> None:
    with pytest.raises(Rejected) as refused:
        _played(parse_event(_bet(spot="dozen", dozen=4)))
    assert refused.value.reason == "bet_not_on_layout"
    assert '"dozen": 1, 2 or 3' in refused.value.detail
