"""What a table looks like now, for the croupier, the overlay and the studio.

``table_view(state)`` is the JSON of the retained ``round/state`` topic and of the
console's live updates: the phase, the next required action in the words a
croupier reads at arm's length ("CARD TO BOX 3 - HAND 2"), and the cards on the
table with their totals, as anyone at the table sees them: a face-down card is
there, its value is not.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from dealer_station import visibility
from dealer_station.games.baccarat import BaccaratRound, score
from dealer_station.games.baccarat import card_value as baccarat_value
from dealer_station.games.blackjack import BlackjackRound
from dealer_station.games.blackjack_hand import hand_total
from dealer_station.games.engine import NextStep, StepKind, money
from dealer_station.games.roulette import RouletteRound
from dealer_station.games.roulette_layout import colour_of
from dealer_station.games.table import TableState


def place_text(step: NextStep) -> str:
    """Where a step goes, in the croupier's words: a box's hand counted from 1
    as a croupier counts hands (``box 3 hand 1`` is ``BOX 3 - HAND 2``), any
    other place by its name (``DEALER``, ``BANKER``)."""
    if step.box is not None and step.hand is not None:
        return f"BOX {step.box} - HAND {step.hand + 1}"
    return step.place.upper()


# Why a round holds, in the words that send the croupier for a pit boss.
HOLD_TEXT = {
    "card_unread": "CALL PIT BOSS: CARD UNREAD",
    "impossible_card": "CALL PIT BOSS: IMPOSSIBLE CARD",
    "wheel_disagree": "CALL PIT BOSS: CAMERA AND WHEEL SENSOR DISAGREE",
}


# The steps whose words do not depend on where they go.
STEP_TEXT: dict[StepKind, str] = {
    "round_open": "OPEN BETS",
    "bets": "BETS OPEN",
    "shuffle": "SHUFFLE: CUT CARD OUT",
    "count_out": "COUNT OUT: READ THE REST OF THE SHOE, THEN SHUFFLE",
    "settled": "ROUND OVER",
    "closed": "TABLE CLOSED",
    "insurance": "INSURANCE OFFERED",
    "wheel": "NO MORE BETS: SPIN",
}


# What closed betting when no person did (``CloseBets.reason``), as the banner says it.
CLOSED_TEXT = {
    "timer": "TIME UP",
    "wheel_sensor": "CLOSED BY THE WHEEL",
    "below_revs_per_s": "BALL SLOWING",
    "before_drop_s": "BALL ABOUT TO DROP",
    "ball_dropped": "BALL DROPPED",
}


def action_text(step: NextStep, game: str, rnd: object = None, hold: str = "") -> str:
    """The next required action, as the console shows it in large type."""
    if step.kind == "wheel" and isinstance(rnd, RouletteRound) and rnd.closed_by is not None:
        return f"NO MORE BETS ({CLOSED_TEXT.get(rnd.closed_by, rnd.closed_by.upper())}): SPIN"
    if step.kind in STEP_TEXT:
        return STEP_TEXT[step.kind]
    if step.kind == "pit_boss":
        return HOLD_TEXT.get(hold, "CALL PIT BOSS")
    if step.kind == "decision":
        return f"DECISION: {place_text(step)}"
    if step.kind == "card":
        if game == "baccarat":
            # The tableau's third cards are what a croupier must not miss.
            if isinstance(rnd, BaccaratRound) and len(getattr(rnd, step.place)) == 2:
                return f"{place_text(step)} THIRD CARD"
            return f"CARD TO {place_text(step)}"
        if step.place == "dealer":
            return "DEALER DRAWS"
        return f"CARD TO {place_text(step)}"
    return step.kind.upper()


def _blackjack_view(rnd: BlackjackRound) -> dict[str, Any]:
    # The dealer as the table sees it: a face-down hole card is counted, never
    # shown, and the total is of the face-up cards.
    shown = visibility.face_up_dealer(rnd)
    dealer_total, dealer_soft = hand_total(shown)
    return {
        "dealer": {
            "cards": [str(c) for c in shown],
            "face_down": len(rnd.dealer) - len(shown),
            "total": dealer_total,
            "soft": dealer_soft,
            "total_of": "face_up" if len(shown) < len(rnd.dealer) else "all",
        },
        "boxes": [
            {
                "box": box.number,
                "seated": box.seated,
                "stake": money(box.main_total),
                "behind": money(sum((s.amount for s in box.behind), Decimal(0))),
                "hands": [
                    {
                        "cards": [str(c) for c in hand.cards],
                        "total": hand.total,
                        "soft": hand_total(hand.cards)[1] and hand.total <= 21,
                        "doubled": hand.doubled,
                        "status": (
                            "blackjack"
                            if hand.is_blackjack
                            else "bust"
                            if hand.bust
                            else "surrendered"
                            if hand.surrendered
                            else "standing"
                            if hand.done
                            else "playing"
                        ),
                    }
                    for hand in box.hands
                ],
            }
            for box in rnd.boxes
        ],
        "offers": [
            {"box": o.box, "player": o.player, "kind": o.kind, "taken": o.taken} for o in rnd.offers
        ],
    }


def _baccarat_view(rnd: BaccaratRound) -> dict[str, Any]:
    def side(cards: tuple[Any, ...]) -> dict[str, Any]:
        return {
            "cards": [str(c) for c in cards],
            "score": score(baccarat_value(c) for c in cards),
        }

    return {"player": side(rnd.player), "banker": side(rnd.banker), "bets": len(rnd.bets)}


def _roulette_view(rnd: RouletteRound) -> dict[str, Any]:
    view: dict[str, Any] = {"bets": len(rnd.bets), "closed_by": rnd.closed_by}
    if rnd.number is not None:
        view["number"] = rnd.number
        view["colour"] = colour_of(rnd.number)
    return view


def table_view(state: TableState) -> dict[str, Any]:
    step = state.next_step()
    view: dict[str, Any] = {
        "game": state.game,
        "variant": state.setup.variant,
        "round": None,
        "next": step.to_json(),
        "action": action_text(step, state.game, state.round, state.hold),
        "hold": state.hold or None,
    }
    if state.shoe is not None:
        view["shoe"] = {
            "cards_left": state.shoe.cards_left,
            "cut_card_out": state.shoe.cut_card_reached,
            "counted_out": state.counted,
        }
    rnd = state.round
    if rnd is None:
        return view
    view["round"] = rnd.round_id
    if isinstance(rnd, BlackjackRound):
        view["table"] = _blackjack_view(rnd)
    elif isinstance(rnd, BaccaratRound):
        view["table"] = _baccarat_view(rnd)
    elif isinstance(rnd, RouletteRound):
        view["table"] = _roulette_view(rnd)
    return view
