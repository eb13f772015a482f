"""The engine's outputs as the runtime holds them: typed values, parsed once
where they cross from the rules into the runtime, written back once.

The rules engine (``dealer_station/games``) stays pure and writes its outputs as
JSON-ready dicts (``games.engine.Output``). The runtime reads a few of them: a
card and its face (what may leave the station, ``visibility``), a burn, a
decision (Diamond Blackjack's warning joins it), the settlement (the roads and
hot numbers, the retained result), a hold (a card alarm), a new shoe or a
shuffle (the roads start again), the hole card turned over. Those are typed
here; every other output is a `Forwarded` one, which the runtime only passes
on. `parse_outputs` is the one place that reads an engine output by its keys,
and each value's ``data`` the one way back to JSON: the fields of its round
event, and with its type (`to_json`) the output as the HTTP answers and the
journal's kept answers carry it, key for key and in the engine's order.

Parsing is strict: an output of a typed kind with a field this module does not
know is a bug of the engine's and raises, before anything is journaled. It is
never passed on as a `Forwarded` one, since it could carry a face-down card's
value past ``visibility``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Literal

from dealer_station.games.engine import Output


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDealt:
    """A card dealt to a place (``to``: ``player``, ``banker``, ``box``,
    ``dealer``). ``card`` is None where its value is withheld (a face-down card
    as published); blackjack gives the hand's ``total`` and ``soft``, baccarat
    its ``score``."""

    type: ClassVar[str] = "card_dealt"
    # In the engine's key order, which data() keeps.
    card: str | None = None
    to: str
    box: int | None = None
    hand: int | None = None
    face: Literal["up", "down"]
    total: int | None = None
    soft: bool | None = None
    score: int | None = None

    def data(self) -> Output:
        out: Output = {}
        if self.card is not None:
            out["card"] = self.card
        out["to"] = self.to
        if self.box is not None:
            out["box"] = self.box
        if self.hand is not None:
            out["hand"] = self.hand
        out["face"] = self.face
        if self.total is not None:
            out["total"] = self.total
        if self.soft is not None:
            out["soft"] = self.soft
        if self.score is not None:
            out["score"] = self.score
        return out


@dataclass(frozen=True, slots=True)
class Burned:
    """A card burnt. Its face is always ``burnt`` when it goes out; ``card`` is
    None where its value is withheld (``[publish] burn_cards = "hidden"``)."""

    type: ClassVar[str] = "burned"
    card: str | None = None

    def data(self) -> Output:
        if self.card is None:
            return {"face": "burnt"}
        return {"card": self.card, "face": "burnt"}


@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionMade:
    """A player's decision on a box (``hand`` for a play, ``player`` for an
    answer to insurance or even money), with Diamond Blackjack's warning when
    it is far from basic strategy."""

    type: ClassVar[str] = "decision"
    box: int
    player: str | None = None
    hand: int | None = None
    action: str
    warning: str | None = None

    def data(self) -> Output:
        out: Output = {"box": self.box}
        if self.player is not None:
            out["player"] = self.player
        if self.hand is not None:
            out["hand"] = self.hand
        out["action"] = self.action
        if self.warning is not None:
            out["warning"] = self.warning
        return out


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    """The hole card turned over: the one output that carries its value."""

    type: ClassVar[str] = "hole_card_revealed"
    card: str
    cards: tuple[str, ...]
    total: int
    soft: bool
    why: str

    def data(self) -> Output:
        return {
            "card": self.card,
            "cards": list(self.cards),
            "total": self.total,
            "soft": self.soft,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class RoundSettled:
    """A round's settlement. The runtime reads whether it was voided and, for
    roulette, the winning number; the rest (``settlement``: the game's own
    record, payouts and all, as the engine wrote it) it passes on, and the
    roads read it in the rules' own terms."""

    type: ClassVar[str] = "round_settled"
    voided: bool
    number: int | None
    settlement: Output

    def data(self) -> Output:
        return dict(self.settlement)


@dataclass(frozen=True, slots=True)
class RoundHeld:
    """The round holds until a pit boss resolves it, and why (``card_unread``,
    ``impossible_card``, ...)."""

    type: ClassVar[str] = "round_held"
    reason: str

    def data(self) -> Output:
        return {"reason": self.reason}


@dataclass(frozen=True, slots=True)
class ShoeChanged:
    """A new shoe or a shuffle: the shoe is whole again (``cards`` in it);
    ``counted_out``: the cards of the old shoe read in its count-out, if any."""

    type: Literal["new_shoe", "shuffle"]
    cards: int
    counted_out: int | None = None

    def data(self) -> Output:
        if self.counted_out is None:
            return {"cards": self.cards}
        return {"cards": self.cards, "counted_out": self.counted_out}


@dataclass(frozen=True, slots=True)
class Forwarded:
    """An output the runtime only passes on (a bet placed, a round opened, a
    winning number, ...): its type and its fields as the engine wrote them."""

    type: str
    fields: Output

    def data(self) -> Output:
        return dict(self.fields)


RoundOutput = (
    CardDealt
    | Burned
    | DecisionMade
    | HoleCardRevealed
    | RoundSettled
    | RoundHeld
    | ShoeChanged
    | Forwarded
)


def _burned(*, face: str = "burnt", card: str | None = None) -> Burned:
    # An engine's burn has no face; a kept answer's has the one it went out with.
    if face != "burnt":
        raise ValueError(f"a burnt card's face is 'burnt', not {face!r}")
    return Burned(card)


def _hole_card_revealed(*, cards: list[str], **fields: Any) -> HoleCardRevealed:
    return HoleCardRevealed(cards=tuple(cards), **fields)


def _round_settled(**settlement: Any) -> RoundSettled:
    return RoundSettled(bool(settlement.get("voided")), settlement.get("number"), settlement)


# Each typed kind's constructor, called with the output's fields but its type.
_TYPED: dict[str, Callable[..., RoundOutput]] = {
    "card_dealt": CardDealt,
    "burned": _burned,
    "decision": DecisionMade,
    "hole_card_revealed": _hole_card_revealed,
    "round_settled": _round_settled,
    "round_held": RoundHeld,
    "new_shoe": partial(ShoeChanged, "new_shoe"),
    "shuffle": partial(ShoeChanged, "shuffle"),
}


def _parse(out: Output) -> RoundOutput:
    fields = dict(out)
    kind = fields.pop("type")
    typed = _TYPED.get(kind)
    return Forwarded(kind, fields) if typed is None else typed(**fields)


def parse_outputs(outputs: Iterable[Output]) -> tuple[RoundOutput, ...]:
    """The engine's outputs (or the JSON of typed ones, as a kept answer holds
    them) as typed values, in order. Raises ``TypeError``/``ValueError`` on an
    output of a typed kind that does not have that kind's fields."""
    return tuple(map(_parse, outputs))


def to_json(out: RoundOutput) -> Output:
    """The output's JSON, as the engine wrote it (a burn with its face): its
    ``type`` first, then its `data`, the fields a round event carries."""
    return {"type": out.type, **out.data()}
