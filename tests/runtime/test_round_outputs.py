"""The engine's outputs as the runtime types them (dealer_station/round_outputs.py).

Every output of many self-played rounds of every shipped variant (with burns,
shuffles, unread cards entered by hand and voided rounds among them) is parsed
and written back: the JSON must be the engine's, key for key and in order, and
its public form what docs/mqtt.md's visibility section says goes out. The
expected JSON is the engine's own dict (or that dict with the documented
withholding applied), never the typed values' output.
"""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from dealer_station import visibility
from dealer_station.autoplay import Autoplay
from dealer_station.config import BurnCards
from dealer_station.games import table as table_fold
from dealer_station.games.events import BurnCard, CardUnread, Event, ManualCard, VoidRound
from dealer_station.games.table import TableState
from dealer_station.journal import Answer
from dealer_station.round_outputs import (
    Burned,
    CardDealt,
    DecisionMade,
    Forwarded,
    HoleCardRevealed,
    RoundHeld,
    RoundSettled,
    ShoeChanged,
    parse_outputs,
    to_json,
)
from dealer_station.table_inputs import Outcome

TYPED = {
    "card_dealt": CardDealt,
    "burned": Burned,
    "decision": DecisionMade,
    "hole_card_revealed": HoleCardRevealed,
    "round_settled": RoundSettled,
    "round_held": RoundHeld,
    "new_shoe": ShoeChanged,
    "shuffle": ShoeChanged,
}


def variants() -> list[tuple[str, str]]:
    found = []
    files = (resources.files("dealer_station.games") / "variants").iterdir()
    for item in sorted(files, key=lambda f: f.name):
        game = next(
            line.split('"')[1] for line in item.read_text().splitlines() if line.startswith("game")
        )
        found.append((game, item.name.removesuffix(".toml")))
    return found


def engine_outputs(game: str, variant: str, rounds: int = 60) -> list[dict[str, Any]]:
    """What the engine wrote over ``rounds`` self-played rounds, with a burn,
    an unread card entered by hand and a voided round every few rounds."""
    play = Autoplay(game, variant, seed=7)
    state: TableState | None = None
    outputs: list[dict[str, Any]] = []
    settled = 0
    # Outputs since the round settled, or since its first card: one of each
    # interruption a round.
    since: list[dict[str, Any]] = []
    while settled < rounds:
        event = _interruption(state, play, settled, [o["type"] for o in since])
        if event is None:
            event = play.next_event(state)
        state, out = table_fold.apply(state, event)
        outputs += out
        since += out
        if any(o["type"] == "round_settled" for o in out):
            settled += 1
            since = []
    return outputs


def _interruption(
    state: TableState | None, play: Autoplay, settled: int, since: list[str]
) -> Event | None:
    """What a studio does now and then that the self-driving croupier does not."""
    if state is None:
        return None
    step = state.next_step()
    if play.shoe is not None and state.shoe is not None:
        if state.hold:
            return ManualCard(play.shoe.draw())
        if step.kind in ("round_open", "settled") and settled % 4 == 1 and not since:
            return BurnCard(play.shoe.draw())
        if step.kind == "card" and since.count("card_dealt") == 1 and "round_held" not in since:
            return CardUnread() if settled % 3 == 0 else None
    if step.kind == "decision" and settled % 5 == 2:  # the void settles the round
        return VoidRound("a test voids the round")
    if step.kind == "wheel" and settled % 7 == 3:
        return VoidRound("a test voids the spin")
    return None


def dumped(out: dict[str, Any]) -> str:
    return json.dumps(out)  # key order counts: the round events' bytes follow it


def published(out: dict[str, Any], burn_cards: BurnCards) -> dict[str, Any]:
    """docs/mqtt.md: a face-down card goes out without its code and total; a
    burnt card as burnt, with its code only when the studio shows burns."""
    if out["type"] == "card_dealt" and out["face"] == "down":
        return {k: v for k, v in out.items() if k not in ("card", "total", "soft")}
    if out["type"] == "burned":
        shown = {**out, "face": "burnt"}
        return shown if burn_cards == "shown" else {"type": "burned", "face": "burnt"}
    return out


@pytest.mark.parametrize(("game", "variant"), variants())
def test_every_output_is_written_back_as_the_engine_wrote_it(game: str, variant: str) -> None:
    outputs = engine_outputs(game, variant)
    kinds = {o["type"] for o in outputs}
    assert "round_settled" in kinds and kinds & {"card_dealt", "winning_number"}
    for out, typed in zip(outputs, parse_outputs(outputs), strict=True):
        assert isinstance(typed, TYPED.get(out["type"], Forwarded)), out
        assert typed.type == out["type"]
        # The engine's burn has no face: it goes out as burnt, whatever the setting.
        expected = {**out, "face": "burnt"} if out["type"] == "burned" else out
        assert dumped(to_json(typed)) == dumped(expected)


@pytest.mark.parametrize(("game", "variant"), variants())
@pytest.mark.parametrize("burn_cards", ["hidden", "shown"])
def test_the_public_form_withholds_what_the_rules_say_and_reads_back(
    game: str, variant: str, burn_cards: BurnCards
) -> None:
    outputs = engine_outputs(game, variant, rounds=30)
    public = visibility.public_outputs(parse_outputs(outputs), burn_cards)
    for out, shown in zip(outputs, public, strict=True):
        assert dumped(to_json(shown)) == dumped(published(out, burn_cards))
    # A kept answer holds the public JSON: read back, it is the same values.
    assert parse_outputs([to_json(o) for o in public]) == public


def test_the_runs_cover_every_typed_kind() -> None:
    """So that the tests above read each kind's fields, the face-down card included."""
    seen: set[str] = set()
    faces: set[str] = set()
    for game, variant in variants():
        for out in engine_outputs(game, variant):
            seen.add(out["type"])
            if out["type"] == "card_dealt":
                faces.add(out["face"])
    assert set(TYPED) <= seen, set(TYPED) - seen
    assert faces == {"up", "down"}


def test_a_decisions_warning_is_its_last_field() -> None:
    """As the actor wrote it into the engine's dict before: after the action."""
    engine = {"type": "decision", "box": 1, "hand": 0, "action": "stand"}
    [typed] = parse_outputs([engine])
    assert isinstance(typed, DecisionMade)
    warned = replace(typed, warning="deviates from basic strategy")
    assert dumped(to_json(warned)) == dumped(engine | {"warning": "deviates from basic strategy"})


@pytest.mark.parametrize(
    "out",
    [
        # A face-down card with a field nobody typed: never passed on as it came.
        {"type": "card_dealt", "card": "KH", "to": "dealer", "face": "down", "hint": "KH"},
        {"type": "card_dealt", "to": "dealer"},  # no face: nobody can say whether to hide it
        {"type": "burned", "card": "5C", "face": "up"},
        {"type": "round_held"},
        {"type": "hole_card_revealed", "card": "KH"},
    ],
)
def test_an_output_without_its_kinds_fields_is_refused(out: dict[str, Any]) -> None:
    with pytest.raises((TypeError, ValueError)):
        parse_outputs([out])


def test_a_kept_answer_gives_back_the_same_outcome() -> None:
    """An idempotent retry answers from the journal's JSON: the same typed outputs."""
    outputs = parse_outputs(engine_outputs("blackjack", "blackjack-3-position", rounds=3))
    first = Outcome(True, 12, outputs=visibility.public_outputs(outputs, "hidden"))
    kept = json.loads(json.dumps(first.to_answer()))
    from_journal = Outcome.from_answer(Answer("api", "k", "fingerprint", kept, 12))
    assert (from_journal.outputs, from_journal.outputs_json()) == (
        first.outputs,
        first.outputs_json(),
    )
