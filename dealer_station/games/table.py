"""One table as a fold over events: ``state = fold(apply, events)``.

The table owns the shoe and the round counter and hands each round's events to
its game's engine. ``apply`` is pure and total: it returns the next state and the
output records, or raises ``Rejected`` and the caller keeps the state it had.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from dealer_station.games import baccarat, blackjack, roulette
from dealer_station.games.engine import GameSetup, NextStep, Output
from dealer_station.games.events import (
    BurnCard,
    CardUnread,
    ChangeDealer,
    CloseTable,
    CountOut,
    DealCard,
    Event,
    HoldRound,
    ManualCard,
    NewShoe,
    OpenRound,
    OpenTable,
    ReleaseHold,
    SelectTable,
    Shuffle,
    VoidRound,
    WheelResult,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.rulefile import RuleFileError
from dealer_station.games.shoe import Shoe

GAMES = {
    "blackjack": blackjack.setup,
    "baccarat": baccarat.setup,
    "roulette": roulette.setup,
}

# Holds a pit boss may release without entering a card: the card held for (a
# foreign card, a misread) is taken off the table and the shoe's composition
# stays exact. An unread card is a real card of this shoe: it is entered by
# hand, or the round is voided.
RELEASABLE = frozenset({"impossible_card"})
# The camera and the wheel's sensor read two numbers (dealer_station/wheel_verdict.py):
# the round holds until a pit boss enters the number (a ``wheel_result``) or voids it.
WHEEL_DISAGREE = "wheel_disagree"


# Whether a table opens rounds (docs/decisions.md, "Table state and drain"):
# ``closing`` while the round in play finishes, then ``closed``.
OpeningState = Literal["open", "closing", "closed"]
# The output a change of it writes.
OPENING_CHANGED = "table_state"


@dataclass(frozen=True, slots=True)
class Opening:
    """The table's state, who set it (a pit boss's name; None: the station,
    for a stop) and why."""

    state: OpeningState = "open"
    pit_boss: str | None = None
    reason: str | None = None

    def output(self) -> Output:
        return {
            "type": OPENING_CHANGED,
            "state": self.state,
            "by": self.pit_boss,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class TableState:
    table: str
    game: str
    setup: GameSetup
    shoe: Shoe | None
    round: Any = None
    rounds_started: int = 0
    # Why the round holds ("card_unread", "impossible_card"), or "": while it
    # holds, scanned cards are refused until a pit boss enters the card, releases
    # the hold (RELEASABLE) or voids the round.
    hold: str = ""
    # Who deals (docs/decisions.md, "Dealer sign-on"): the display name of the
    # dealer signed on now, and of the one who opened the round, who keeps it to
    # its settlement; None: nobody signed on.
    dealer: str | None = None
    round_dealer: str | None = None
    # Cards read since a count-out began (a CountOut), until the shuffle or the
    # new shoe; None: no count-out under way.
    counted: int | None = None
    opening: Opening = Opening()

    @property
    def round_over(self) -> bool:
        return self.round is None or self.setup.engine.is_over(self.round)

    @property
    def dealing(self) -> str | None:
        """Who deals now: the round's dealer while it is in play, else the one
        signed on."""
        return self.dealer if self.round_over else self.round_dealer

    @property
    def dealer_pending(self) -> bool:
        """A change journaled during the round, waiting for the next one."""
        return not self.round_over and self.dealer != self.round_dealer

    def _card_due(self) -> NextStep:
        """The card step due now, or a step going nowhere when no card is due."""
        if not self.round_over:
            step: NextStep = self.setup.engine.next_step(self.round)
            if step.kind == "card":
                return step
        return NextStep("card")

    def card_due_to(self) -> str:
        """Where the card due goes (``banker``, ``box 2 hand 0``), or "" when no
        card is due: the destination a pit boss's card must name."""
        return self._card_due().to

    def next_step(self) -> NextStep:
        if self.hold:
            # Where the card the pit boss enters goes; ``hold`` says why.
            return replace(self._card_due(), kind="pit_boss")
        if self.counted is not None:
            return NextStep("count_out")
        if self.opening.state == "closed":
            return NextStep("closed")
        if self.round is None:
            return NextStep("round_open")
        step = self.setup.engine.next_step(self.round)
        if step.kind == "settled" and self.shoe is not None and self.shoe.cut_card_reached:
            return NextStep("shuffle")
        return step


def select_table(event: SelectTable) -> TableState:
    make = GAMES.get(event.game)
    if make is None:
        raise Rejected("unknown_game", f"no game {event.game!r}; games: {', '.join(GAMES)}")
    try:
        setup = make(event.variant, event.decks)
    except RuleFileError as exc:
        raise Rejected("bad_variant", str(exc)) from None
    shoe = None if setup.decks is None else Shoe.new(setup.decks, setup.cut_card_at)
    return TableState(event.table, event.game, setup, shoe)


def _count(state: TableState, event: DealCard | CardUnread | BurnCard) -> tuple[
        TableState, list[Output]]:
    """A card read during a count-out: out of the shoe, dealt to no one. One the
    shoe cannot hold is refused as when dealt (``impossible_card``), so the
    journal keeps it as a refused card and the shoe's check finds it; an unread
    one is counted, of unknown value."""
    assert state.shoe is not None and state.counted is not None
    shoe = state.shoe.unread() if isinstance(event, CardUnread) else state.shoe.burn(event.card)
    counted = state.counted + 1
    return replace(state, shoe=shoe, counted=counted), [
        {"type": "counted", "cards": counted, "cards_left": shoe.cards_left}
    ]


def apply(state: TableState | None, event: Event) -> tuple[TableState, list[Output]]:
    if isinstance(event, SelectTable):
        if state is not None and not state.round_over:
            raise Rejected("round_in_progress", "finish or void the round before changing table")
        new = select_table(event)
        if state is not None and state.table == new.table:
            # Round ids stay unique at a table whose game or variant changes.
            new = replace(
                new,
                rounds_started=state.rounds_started,
                dealer=state.dealer,
                opening=state.opening,
            )
        return new, [
            {
                "type": "table_ready",
                "table": new.table,
                "game": new.game,
                "variant": new.setup.variant,
            }
        ]
    if state is None:
        raise Rejected("no_table", "the first event must select the table's game")

    if isinstance(event, ChangeDealer):
        return _change_dealer(state, event)

    if isinstance(event, CloseTable | OpenTable):
        return _change_opening(state, event)

    if isinstance(event, NewShoe | Shuffle):
        if state.shoe is None:
            raise Rejected("no_shoe", f"{state.game} is played without cards")
        if not state.round_over:
            raise Rejected("round_in_progress", "a shoe is changed between rounds")
        changed: Output = {"type": event.type, "cards": state.shoe.size}
        if state.counted is not None:
            changed["counted_out"] = state.counted
        return replace(state, shoe=state.shoe.reshuffled(), counted=None), [changed]

    if isinstance(event, CountOut):
        if state.shoe is None:
            raise Rejected("no_shoe", f"{state.game} is played without cards")
        if not state.round_over:
            raise Rejected("round_in_progress", "the shoe is counted out between rounds")
        if state.counted is not None:
            raise Rejected("counting_out", "the count-out is under way: read the rest of the shoe")
        return replace(state, counted=0), [
            {"type": "count_out_started", "cards_left": state.shoe.cards_left}
        ]

    if state.counted is not None and isinstance(event, DealCard | CardUnread | BurnCard):
        return _count(state, event)

    if isinstance(event, BurnCard):
        if state.shoe is None:
            raise Rejected("no_shoe", f"{state.game} is played without cards")
        if state.hold:
            raise Rejected("round_held", f"the round holds ({state.hold}): a pit boss resolves it")
        if not state.round_over and state.setup.engine.next_step(state.round).kind == "card":
            raise Rejected("misdeal", "a card is due to the round; burn between rounds")
        return replace(state, shoe=state.shoe.burn(event.card)), [
            {"type": "burned", "card": str(event.card)}
        ]

    if isinstance(event, OpenRound):
        if not state.round_over:
            raise Rejected("round_in_progress", "the current round is not over")
        if state.counted is not None:
            raise Rejected(
                "counting_out", "the shoe is being counted out: shuffle or bring a new shoe first"
            )
        if state.opening.state == "closed":
            raise Rejected("table_closed", _closed_words(state.opening))
        if event.needs_dealer and state.dealer is None:
            raise Rejected("no_dealer", "this table opens no round until a dealer signs on")
        shoe = state.shoe
        if shoe is not None:
            if state.setup.shuffle_every_round:
                shoe = shoe.reshuffled()
            elif shoe.cut_card_reached:
                raise Rejected("shuffle_due", "the cut card is out: shuffle before the next round")
        number = state.rounds_started + 1
        round_id = event.round or f"{state.table}-{number:06d}"
        new = replace(
            state,
            shoe=shoe,
            round=state.setup.engine.new_round(round_id),
            rounds_started=number,
            round_dealer=state.dealer,
        )
        return new, [{"type": "round_opened", "round": round_id, "dealt_by": state.dealer}]

    if state.round is None or state.round_over:
        if isinstance(event, DealCard | ManualCard | CardUnread):
            raise Rejected("misdeal", "a card was drawn with no round in play")
        raise Rejected("no_round", "open a round first")

    if state.hold == WHEEL_DISAGREE and isinstance(event, WheelResult):
        # The number a pit boss settles a disputed spin with: it ends the hold.
        state = replace(state, hold="")
    elif state.hold and not isinstance(event, ManualCard | ReleaseHold | VoidRound):
        # Nothing else moves a held round: no scanned card, no decision, no result.
        raise Rejected("round_held", f"the round holds ({state.hold}): a pit boss resolves it")
    if isinstance(event, CardUnread | HoldRound):
        if isinstance(event, CardUnread) and state.shoe is None:
            raise Rejected("no_shoe", f"{state.game} is played without cards")
        reason = event.reason if isinstance(event, HoldRound) else "card_unread"
        return replace(state, hold=reason), [{"type": "round_held", "reason": reason}]
    if isinstance(event, ReleaseHold):
        if not state.hold:
            raise Rejected("not_held", "the round does not hold")
        if state.hold not in RELEASABLE:
            raise Rejected(
                "not_releasable",
                f"the round holds ({state.hold}): enter the card by hand or void the round",
            )
        return replace(state, hold=""), [{"type": "hold_released", "reason": state.hold}]
    if isinstance(event, ManualCard):
        # A card by hand answers a hold, never a card the shoe can still read: a
        # second click, or a dialog left open, must not deal a phantom card.
        if not state.hold:
            raise Rejected(
                "not_held", "a card is entered by hand only while the round holds for one"
            )
        due = state.card_due_to()
        if event.to is not None and event.to != due:
            raise Rejected(
                "destination_changed",
                f"the card now goes to {due or 'no one (no card is due)'}, not {event.to}",
            )

    shoe = state.shoe
    hold = state.hold
    if isinstance(event, DealCard | ManualCard):
        if shoe is None:
            raise Rejected("no_shoe", f"{state.game} is played without cards")
        shoe = shoe.draw(event.card)
        event = DealCard(event.card)
        hold = ""
    if isinstance(event, VoidRound):
        hold = ""
    round_state, outputs = state.setup.engine.apply(state.round, event)
    new = replace(state, shoe=shoe, round=round_state, hold=hold)
    if new.round_over:
        outcome = new.setup.engine.outcome(round_state)
        outputs.append({"type": "round_settled", **outcome, "dealt_by": new.round_dealer})
        if new.shoe is not None and new.shoe.cut_card_reached:
            outputs.append({"type": "shuffle_due", "cards_out": new.shoe.dealt + new.shoe.burned})
        if new.opening.state == "closing":
            # The close waited for this round: it is over, settled or void.
            new = replace(new, opening=replace(new.opening, state="closed"))
            outputs.append(new.opening.output())
    return new, outputs


def _change_dealer(state: TableState, event: ChangeDealer) -> tuple[TableState, list[Output]]:
    """A sign-on or sign-off; during a round it waits for the next round."""
    if event.dealer == "":
        raise Rejected("bad_event", "a dealer has a name; a sign-off names none")
    if event.dealer == state.dealer:
        if event.dealer is None:
            raise Rejected("no_dealer_signed_on", "no dealer is signed on at this table")
        raise Rejected("already_signed_on", f"{event.dealer} is signed on already")
    applies = "now" if state.round_over else "next_round"
    return replace(state, dealer=event.dealer), [
        {"type": "dealer_changed", "dealer": event.dealer, "applies": applies}
    ]


def _change_opening(
    state: TableState, event: CloseTable | OpenTable
) -> tuple[TableState, list[Output]]:
    """Close after the round in play (at once between rounds), or open. A
    second press changes nothing: it is refused, naming the state it found."""
    now = state.opening.state
    if isinstance(event, OpenTable):
        if now == "open":
            raise Rejected("table_open", "the table is open already")
        wanted: OpeningState = "open"
    elif now == "closed":
        raise Rejected("table_closed", "the table is closed already")
    elif now == "closing":
        raise Rejected("table_closing", "the table closes after this round already")
    else:
        wanted = "closed" if state.round_over else "closing"
    opening = Opening(wanted, event.pit_boss, event.reason)
    return replace(state, opening=opening), [opening.output()]


def _closed_words(opening: Opening) -> str:
    """Why a closed table opens no round, in words for the console."""
    by = "the station" if opening.pit_boss is None else opening.pit_boss
    why = f": {opening.reason}" if opening.reason else ""
    return f"the table is closed by {by}{why}; a pit boss opens it"
