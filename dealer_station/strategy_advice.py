"""Basic strategy at the table: the warning for a costly decision, and the
decision the timer plays for a player who did not answer.

The variant decides both: ``warn_deviation_ev`` (Diamond Blackjack warns a
player who, say, stands on hard 11) and ``default_decision``. The values come
from the combinatorial analyser (``games/blackjack_strategy``), the same one
that computes the variant's published RTP; one hand's values take a few
hundredths of a second the first time, and are remembered.
"""

from __future__ import annotations

import logging

from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_strategy import deviation_warning, recommended_action
from dealer_station.games.table import TableState

log = logging.getLogger(__name__)


def _blackjack(state: TableState | None) -> tuple[BlackjackRules, BlackjackRound] | None:
    if state is None:
        return None
    engine, rnd = state.setup.engine, state.round
    if isinstance(engine, BlackjackEngine) and isinstance(rnd, BlackjackRound):
        return engine.rules, rnd
    return None


def warning(state: TableState | None, box: int, hand: int, action: str) -> str | None:
    """The warning for ``action`` on that hand, decided before it is applied."""
    found = _blackjack(state)
    if found is None:
        return None
    rules, rnd = found
    threshold = rules.warn_deviation_ev
    if threshold is None:
        return None
    b = rnd.box(box)
    if (
        hand >= len(b.hands)
        or rnd.up_card is None
        or action not in ("hit", "stand", "double", "split", "surrender", "stand_all")
    ):
        return None
    h = b.hands[hand]
    try:
        return deviation_warning(
            rules,
            h.cards,
            rnd.up_card,
            action,
            float(threshold),
            hands_in_box=len(b.hands),
            first_hand=hand == 0,
            doubled=h.doubled,
        )
    except ValueError:  # a hand the analyser has no decision for (21, or no cards)
        return None


def timeout_action(state: TableState, box: int, hand: int, legal: tuple[str, ...]) -> str:
    """What the decision timer plays: stand, or basic strategy's choice."""
    found = _blackjack(state)
    if found is None or found[0].default_decision != "basic_strategy":
        return "stand"
    rules, rnd = found
    h = rnd.box(box).hands[hand]
    assert rnd.up_card is not None
    try:
        return recommended_action(
            rules,
            h.cards,
            rnd.up_card,
            [a for a in legal if a != "stand_all"],
            hands_in_box=len(rnd.box(box).hands),
            first_hand=hand == 0,
            doubled=h.doubled,
        )
    except ValueError:
        log.warning("no strategy for box %s hand %s: standing", box, hand)
        return "stand"
