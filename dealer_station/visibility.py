"""What of a card leaves the station: the one place that turns the engine's
outputs into the outputs anyone may see.

Every card the station knows is face up, face down or burnt. The engines say
which (a `CardDealt` has a ``face``; a burn is a `Burned` output) and keep
every value, because the journal and the settlement need them. What goes out,
on MQTT, over the WebSocket, in HTTP answers, to the console and the overlay,
is built here from those outputs (typed by ``round_outputs``):

- a face-down card goes out as "a card was dealt face down": no code, no
  total; its value leaves only with the engine's ``hole_card_revealed``;
- a burnt card goes out without its value unless the studio's setting
  ``[publish] burn_cards = "shown"`` says otherwise;
- a refused card echoes no value while the hole card is due or lies face
  down (it could be that card, read or entered twice), nor a hidden burn.

The view of the table (``round_view``) shows the dealer's face-up cards only
(``face_up_dealer``),
and game recall of an unfinished round hides what the published events hid
(``api/history``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from dealer_station.config import BurnCards
from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.cards import Card
from dealer_station.games.table import TableState
from dealer_station.round_outputs import Burned, CardDealt, RoundOutput

# What stands in a refusal's words where a card's value is withheld, by face.
WITHHELD = {"down": "(face down)", "burnt": "(burnt)"}


def public_output(out: RoundOutput, burn_cards: BurnCards) -> RoundOutput:
    """The output as it may be published."""
    if isinstance(out, CardDealt) and out.face == "down":
        return replace(out, card=None, total=None, soft=None)
    if isinstance(out, Burned) and burn_cards == "hidden":
        return Burned()
    return out


def public_outputs(
    outputs: Iterable[RoundOutput], burn_cards: BurnCards
) -> tuple[RoundOutput, ...]:
    return tuple([public_output(o, burn_cards) for o in outputs])


def face_up_dealer(rnd: BlackjackRound) -> tuple[Card, ...]:
    """The dealer's cards anyone at the table can see: the view shows these."""
    return rnd.dealer[:1] if rnd.hole_card == "face_down" else rnd.dealer


def hole_card_hidden(state: TableState | None) -> bool:
    """Whether the round's hole card is due or lies face down: while it does, a
    refused card could be that card (read twice, or entered twice by a pit
    boss), so no refused card is echoed. Echoing only a refused card that
    differs from the hole card would tell its value just as well."""
    if state is None or state.round is None:
        return False
    engine, rnd = state.setup.engine, state.round
    if not isinstance(engine, BlackjackEngine) or not isinstance(rnd, BlackjackRound):
        return False
    if rnd.hole_card == "face_down":
        return True
    # Due next (while the round holds for an unread card too: the card a pit
    # boss enters then is the one that will lie face down).
    return (
        engine.rules.hole_card
        and rnd.phase == "dealing"
        and len(rnd.dealer) == 1
        and engine.next_step(rnd).to == "dealer"
    )


def withheld_face(
    raw: dict[str, Any], state: TableState | None, burn_cards: BurnCards
) -> str | None:
    """The face that withholds a refused input's card ("down", "burnt"), or
    None when its card may be echoed."""
    if "card" not in raw:
        return None
    if raw.get("type") == "burn":
        return "burnt" if burn_cards == "hidden" else None
    if raw.get("type") in ("card", "manual_card") and hole_card_hidden(state):
        return "down"
    return None


def public_refusal(
    raw: dict[str, Any], detail: str, face: str | None
) -> tuple[dict[str, Any], str]:
    """A refused input and the refusal's words as they may be published."""
    if face is None:
        return raw, detail
    card = str(raw["card"])
    echoed = {k: v for k, v in raw.items() if k != "card"} | {"face": face}
    return echoed, detail.replace(card, WITHHELD[face]) if card else detail
