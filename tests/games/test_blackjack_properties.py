"""Properties of the blackjack engine over random shoes and random legal play.

For any shuffled shoe, any bets and any sequence of legal decisions: the round
ends, every card is either in the shoe or on the table (none invented, none
lost), a busted hand is never paid, and replaying the journaled events gives the
same settlement byte for byte.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_station.games import table
from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS
from dealer_station.games.cards import standard_deck
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    DealCard,
    Decision,
    Event,
    OpenRound,
    PlaceBet,
    SelectTable,
    event_to_json,
)
from dealer_station.games.replay import replay
from dealer_station.games.shoe import card_index

# The longest legal round: 7 boxes x 4 hands x up to 11 cards, plus the dealer.
MAX_EVENTS = 500


def _play(data: st.DataObject, variant: str, seed: int) -> tuple[table.TableState, list[Event]]:
    events: list[Event] = [SelectTable("blackjack", variant)]
    state, _ = table.apply(None, events[0])
    engine = state.setup.engine
    assert isinstance(engine, BlackjackEngine)
    rules = engine.rules
    cards = list(standard_deck()) * rules.decks
    random.Random(seed).shuffle(cards)

    def send(event: Event) -> None:
        nonlocal state
        state, _ = table.apply(state, event)
        events.append(event)

    send(OpenRound("r1"))
    boxes = data.draw(st.sets(st.integers(1, rules.boxes), min_size=1, max_size=rules.boxes))
    for box in sorted(boxes):
        player = "p1" if rules.one_player else f"p{box}"
        amount = data.draw(st.sampled_from([rules.min_bet, rules.min_bet * 3, rules.max_bet]))
        send(PlaceBet(player, "main", amount, box=box))
        for spot in rules.bonus_spots():
            if data.draw(st.booleans()):
                send(PlaceBet(player, spot, Decimal(5), box=box))
    send(CloseBets())
    for _ in range(MAX_EVENTS):
        if state.round_over:
            break
        step = state.next_step()
        if step.kind == "card":
            send(DealCard(cards.pop()))
        elif step.kind == "decision":
            box_text, hand_text = step.to.split()[1], step.to.split()[3]
            action = data.draw(st.sampled_from(step.options))
            send(Decision(box=int(box_text), hand=int(hand_text), action=action))
        elif step.kind == "insurance":
            rnd = state.round
            assert isinstance(rnd, BlackjackRound)
            open_offer = next(o for o in rnd.offers if o.taken is None)
            answers = {
                "insurance": ["insurance", "no_insurance", "close"],
                "even_money": ["even_money", "no_even_money", "close"],
            }[open_offer.kind]
            answer = data.draw(st.sampled_from(answers))
            if answer == "close":
                send(CloseInsurance())
            else:
                send(Decision(box=open_offer.box, action=answer, player=open_offer.player))
        else:
            raise AssertionError(f"unexpected step {step}")
    return state, events


@settings(max_examples=150, deadline=None)
@given(data=st.data(), variant=st.sampled_from(SHIPPED_VARIANTS), seed=st.integers(0, 2**31))
def test_random_rounds(data: st.DataObject, variant: str, seed: int) -> None:
    state, events = _play(data, variant, seed)

    # The round always ends.
    assert state.round_over, f"stuck at {state.next_step()}"
    rnd = state.round
    assert isinstance(rnd, BlackjackRound)

    # Cards are conserved: what left the shoe is exactly what lies on the table.
    on_table = Counter(
        card_index(c)
        for c in (*rnd.dealer, *(c for b in rnd.boxes for h in b.hands for c in h.cards))
    )
    assert state.shoe is not None
    decks = state.shoe.decks
    for i, left in enumerate(state.shoe.remaining):
        assert left + on_table[i] == decks
    assert state.shoe.dealt == sum(on_table.values())

    # A busted hand is never paid.
    outcome = state.setup.engine.outcome(rnd)
    busted = {
        (b["box"], h["hand"]) for b in outcome["boxes"] for h in b["hands"] if h["total"] > 21
    }
    for p in outcome["payouts"]:
        if p["spot"] in ("main", "bet_behind") and (p["box"], p.get("hand")) in busted:
            assert p["returns"] == "0", p

    # Every payout is one that docs/rules.md lists: per unit staked, a loss, half back
    # (surrender; or the doubled half of an original-bet-only loss), a push, 1:1,
    # 3:2, 2:1 and 4:1 and 15:2 (diamonds), insurance 2:1, Bonus 19:1, Sevens
    # 8:1, 40:1, 250:1.
    allowed = {
        "main": {"0", "0.5", "1", "2", "2.5", "3", "5", "8.5"},
        "insurance": {"0", "3"},
        "bonus_blackjack": {"0", "20"},
        "bonus_sevens": {"0", "9", "41", "251"},
    }
    allowed["bet_behind"] = allowed["main"]
    for p in outcome["payouts"]:
        factor = Decimal(p["returns"]) / Decimal(p["stake"])
        assert format(factor.normalize(), "f") in allowed[p["spot"]], p

    # Replaying the journal gives the same settlement, byte for byte.
    lines = [json.dumps(event_to_json(e)) for e in events]
    replayed: list[dict[str, Any]] = [r for r in replay(lines) if r.get("type") == "round_settled"]
    assert all(r.get("status") != "rejected" for r in replay(lines))
    # A replay has no dealer signed on: the round records none.
    expected = {"type": "round_settled", **outcome, "dealt_by": None}
    assert json.dumps(replayed[-1]) == json.dumps(expected)
