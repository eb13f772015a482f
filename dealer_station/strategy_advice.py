"""Basic strategy at the table: the warning for a costly decision, and the
decision the timer plays for a player who did not answer.

The variant decides both: ``warn_deviation_ev`` (Diamond Blackjack warns a
player who, say, stands on hard 11) and ``default_decision``. Both follow the
variant's one basic strategy table (``games/blackjack_strategy_table.build``),
the one the self-driving croupier plays and ``dealer-station odds`` prints; the
warning measures what a decision gives up against it with the combinatorial
analyser's exact values (``games/blackjack_strategy``; one hand's values take a
few hundredths of a second the first time, and are remembered). The table
takes seconds to work out, so ``prepare`` builds it off the loop at the start.
"""

from __future__ import annotations

import threading

from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_strategy_table import (
    BasicStrategy,
    basic_action,
    build,
    deviation_warning,
)
from dealer_station.games.table import TableState


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
    _strategy(rules)
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
    _strategy(rules)  # built off the loop by ``prepare``, or waited for here
    return basic_action(rules, h.cards, rnd.up_card, legal, h.doubled)


def blackjack_rules(state: TableState | None) -> BlackjackRules | None:
    engine = state.setup.engine if state is not None else None
    return engine.rules if isinstance(engine, BlackjackEngine) else None


def needs_strategy(rules: BlackjackRules) -> bool:
    """Whether the table itself asks basic strategy (a warning or a timer)."""
    return rules.warn_deviation_ev is not None or rules.default_decision == "basic_strategy"


# One build of a variant at a time: the table's and the self-driving
# croupier's warm-ups, and a decision due meanwhile, wait for the first
# rather than each work it out again on the station's few cores.
_BUILDING = threading.Lock()


def _strategy(rules: BlackjackRules) -> BasicStrategy:
    with _BUILDING:
        return build(rules)


def prepare(rules: BlackjackRules) -> threading.Thread:
    """Start working out the variant's basic strategy in a thread of its own,
    so that the first decision does not hold the loop for the seconds it
    takes. A daemon: a station stopped meanwhile does not wait for it."""
    thread = threading.Thread(target=_strategy, args=(rules,), name="basic strategy", daemon=True)
    thread.start()
    return thread
