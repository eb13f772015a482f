"""What every game engine offers the table, and the records it writes.

An engine is pure: ``apply(state, event)`` returns the next state and the output
records (JSON-ready dicts), or raises ``Rejected`` and the caller keeps the old
state. ``next_step`` answers "what must happen now" for the croupier and the
shoe's indicator. When a round is over, ``outcome`` is its settlement.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, Protocol, TypeVar

from dealer_station.games.events import Event

Output = dict[str, Any]

StateT = TypeVar("StateT")


StepKind = Literal[
    "round_open",
    "bets",
    "card",
    "decision",
    "insurance",
    "wheel",
    "settled",
    "shuffle",
    "count_out",
    "pit_boss",
    "closed",
]


@dataclass(frozen=True, slots=True)
class NextStep:
    """What the table waits for.

    ``kind`` is one of ``round_open`` (no round yet), ``bets`` (the betting
    window is open), ``card`` (a card is due), ``decision`` (a player must
    decide), ``insurance``, ``wheel`` (a spin result is due), ``settled`` (the
    round is over), ``shuffle`` (the cut card is out), ``count_out`` (the
    rest of the shoe is being read, until a shuffle or a new shoe), ``pit_boss`` (the round
    holds for one; where the card a pit boss enters goes, as for ``card``) or
    ``closed`` (the table is closed: no round until a pit boss opens it).

    Where it goes is ``box`` and ``hand`` (counted from 0, as the engine and
    its records count hands) when it is one hand of a box, else ``place``:
    ``dealer``, ``player``, ``banker``, or for ``insurance`` the offers not
    yet answered. ``to`` is that place as the wire has it (``box 3 hand 1``):
    the ``next.to`` of the round state and part of the step id.
    """

    kind: StepKind
    place: str = ""
    options: tuple[str, ...] = ()
    box: int | None = None
    hand: int | None = None

    def __post_init__(self) -> None:
        if (self.box is None) != (self.hand is None) or (self.box is not None and self.place):
            raise ValueError("a step goes to a box and a hand of it, or to a place")

    @classmethod
    def at_hand(
        cls, kind: StepKind, box: int, hand: int, options: tuple[str, ...] = ()
    ) -> NextStep:
        return cls(kind, options=options, box=box, hand=hand)

    @property
    def to(self) -> str:
        if self.box is not None:
            return f"box {self.box} hand {self.hand}"
        return self.place

    def to_json(self) -> Output:
        out: Output = {"kind": self.kind}
        if self.to:
            out["to"] = self.to
        if self.options:
            out["options"] = list(self.options)
        return out


def money(amount: Decimal) -> str:
    """Money as written in every record: the shortest plain decimal string
    (``"195"``, ``"7.5"``), so equal amounts are always written alike."""
    return format(amount.normalize(), "f")


@dataclass(frozen=True, slots=True)
class Payout:
    """One bet's settlement. ``returns`` is what goes back to the player, stake
    included: a lost bet returns 0, a push returns the stake, a 100 Banker win
    returns 195."""

    player: str
    spot: str
    stake: Decimal
    returns: Decimal
    result: str  # win, lose, push, void
    detail: Output | None = None

    def to_json(self) -> Output:
        out: Output = {
            "player": self.player,
            "spot": self.spot,
            "stake": money(self.stake),
            "returns": money(self.returns),
            "net": money(self.returns - self.stake),
            "result": self.result,
        }
        if self.detail:
            out.update(self.detail)
        return out


class RoundEngine(Protocol[StateT]):
    game: str

    def new_round(self, round_id: str) -> StateT: ...

    def apply(self, state: StateT, event: Event) -> tuple[StateT, list[Output]]: ...

    def next_step(self, state: StateT) -> NextStep: ...

    def is_over(self, state: StateT) -> bool: ...

    def outcome(self, state: StateT) -> Output: ...


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a table of one game and variant needs: its engine and its shoe.

    ``decks`` is None for a game without cards (roulette). With
    ``shuffle_every_round`` the shoe is whole again at every round's start.
    """

    engine: RoundEngine[Any]
    variant: str
    decks: int | None = None
    cut_card_at: int | None = None
    shuffle_every_round: bool = False
