"""`dealer-station strategy`: the best action for one blackjack hand, what
each legal action is worth, and what the variant's basic strategy table plays
(the table the station plays and warns against), under a variant's rules."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dealer_station.games.blackjack import DEFAULT_VARIANT


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "strategy",
        help="best action, each action's expected value and basic strategy for a blackjack hand",
        description="Exact expected values (per unit of the original bet) of each legal action "
        "for a hand against an up-card, from a full shoe with those cards out. In a peek game "
        "they are conditional on the dealer having no blackjack; and the action of the "
        "variant's basic strategy table (one action per total, the station's).",
    )
    parser.add_argument("--variant", default=DEFAULT_VARIANT, help="name or .toml path")
    parser.add_argument("--hand", required=True, help="the hand's cards, e.g. 'TD 6S'")
    parser.add_argument("--up", required=True, help="the dealer's up-card, e.g. 'AH'")
    parser.add_argument(
        "--hands",
        type=int,
        default=1,
        help="hands in the box; above 1 the hand came from splitting its first card's pair",
    )
    parser.add_argument(
        "--doubled", action="store_true", help="the hand has doubled (what may it still do)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON, not text")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station import strategy_advice
    from dealer_station.games.blackjack_rules import load_variant
    from dealer_station.games.blackjack_strategy import decision_evs
    from dealer_station.games.cards import CardError, parse_card, parse_cards
    from dealer_station.games.rulefile import RuleFileError

    try:
        rules = load_variant(args.variant)
        cards = parse_cards(args.hand)
        up = parse_card(args.up)
        evs = decision_evs(rules, cards, up, hands_in_box=args.hands, doubled=args.doubled)
    except (RuleFileError, CardError, ValueError) as exc:
        print(f"dealer-station strategy: {exc}", file=sys.stderr)
        return 2
    ranked = sorted(evs, key=evs.__getitem__, reverse=True)
    best = ranked[0]
    # The table the station plays (packaged for a shipped variant, else worked
    # out: seconds). Its action can differ from the best for these very cards:
    # it is one action per total (total-dependent basic strategy).
    basic = strategy_advice.work_out(rules).play(cards, up, evs, args.doubled)
    if args.json:
        out = {
            "variant": args.variant,
            "hand": [str(c) for c in cards],
            "up": str(up),
            "best": best,
            "basic_strategy": basic,
            "evs": {a: evs[a] for a in ranked},
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"{' '.join(str(c) for c in cards)} against {up} ({rules.title}): {best}")
    for action in ranked:
        loss = evs[best] - evs[action]
        note = "" if action == best else f"  (gives up {loss:.4f})"
        print(f"  {action:<10} {evs[action]:+.6f}{note}")
    print(f"basic strategy: {basic}")
    return 0
