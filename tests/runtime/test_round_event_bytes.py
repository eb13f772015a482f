"""A round event's bytes are the `RoundEvent` model's, whichever way
``table_messages.round_event`` writes them: what a studio has received once
it receives again, byte for byte, after an upgrade (docs/mqtt.md: the same id,
the same bytes). The expected bytes are always the model's own dump."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.autoplay import Autoplay
from dealer_station.clock import iso
from dealer_station.games import table as table_fold
from dealer_station.games.table import TableState
from dealer_station.payloads import RoundEvent
from dealer_station.round_outputs import parse_outputs
from dealer_station.table_messages import round_event

AT = datetime(2026, 12, 1, 19, 0, 0, 123456, tzinfo=UTC)


def _by_the_model(kind: str, data: dict[str, Any], round_id: str | None) -> str:
    return RoundEvent(
        table="bac",
        at=iso(AT),
        id="studio/bac/7",
        seq=7,
        round=round_id,
        type=kind,
        source="shoe",
        data=data,
    ).model_dump_json()


def _written(kind: str, data: dict[str, Any], round_id: str | None) -> str:
    message = round_event(
        studio="studio",
        table="bac",
        topic="p/studio/bac/round/event",
        msg_seq=7,
        kind=kind,
        data=data,
        source="shoe",
        round_id=round_id,
        at=AT,
    )
    return message.payload


def test_every_output_of_every_game_is_written_as_the_model_writes_it() -> None:
    for game, variant in (
        ("baccarat", None),
        ("blackjack", "blackjack-3-position"),
        ("roulette", None),
    ):
        play = Autoplay(game, variant, seed=3)
        state: TableState | None = None
        kinds = set()
        for _ in range(600):
            state, outputs = table_fold.apply(state, play.next_event(state))
            for out in parse_outputs(outputs):
                kinds.add(out.type)
                assert _written(out.type, out.data(), "r-1") == _by_the_model(
                    out.type, out.data(), "r-1"
                ), (game, out)
        assert "round_settled" in kinds and len(kinds) > 3, (game, kinds)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64)
    | st.floats()
    | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(data=st.dictionaries(st.text(max_size=8), JSON, max_size=5), kind=st.text(max_size=12))
def test_any_data_is_written_as_the_model_writes_it(data: dict[str, Any], kind: str) -> None:
    """Control characters, non-ASCII text, big integers, floats of every
    exponent, nested lists and tuples: the same bytes as the model."""
    assert _written(kind, data, None) == _by_the_model(kind, data, None)
