"""`dealer-station odds blackjack`: a variant's return to player, its basic
strategy and its side bets, computed from the variant file the engine plays.

Added to the ``odds`` group by ``odds.py`` (``add_parser`` returns the parser;
the group adds ``--json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from dealer_station.games.blackjack import DEFAULT_VARIANT

if TYPE_CHECKING:
    from dealer_station.games.blackjack_odds import VariantOdds
    from dealer_station.games.blackjack_rules import BlackjackRules

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

METHOD = (
    "exact combinatorial analysis from a full shoe: every dealt hand against every up-card, "
    "each decision's value with the hand's cards and the up-card out of the shoe (split hands: "
    "also the box's other split cards); the dealer's final totals exact for that shoe"
)


def add_parser(games: Subparsers) -> argparse.ArgumentParser:
    parser = games.add_parser(
        "blackjack",
        help="return to player, basic strategy and side bets of a blackjack variant",
        description="The main bet's return to player under optimal play and under the basic "
        "strategy table (both exact), the table, and the side bets, from the variant file.",
    )
    parser.add_argument("--variant", default=DEFAULT_VARIANT, help="name or .toml path")
    parser.add_argument("--decks", type=int, help="decks in the shoe (default: the variant's)")
    parser.set_defaults(handler=run)
    return parser


def _percent(x: float) -> str:
    return f"{x * 100:.4f}%"


def _rules_line(rules: BlackjackRules) -> str:
    parts = [f"{rules.decks} decks"]
    if not rules.hole_card:
        parts.append(f"no hole card (a late dealer blackjack takes {rules.dealer_blackjack_takes})")
    else:
        peek = "/".join(rules.peek_up_cards) or "no up-card"
        parts.append(f"hole card, peek on {peek}")
    parts.append("dealer hits soft 17" if rules.dealer_hits_soft_17 else "dealer stands on soft 17")
    parts.append(f"blackjack pays {rules.blackjack_pays}")
    if rules.suited_blackjacks:
        parts.append(
            "suited: "
            + ", ".join(
                f"{'/'.join(s.cards) or 'all ' + s.suit} {s.pays}" for s in rules.suited_blackjacks
            )
        )
    if rules.blackjack_vs_dealer_blackjack == "player_wins":
        parts.append("player blackjack always wins")
    double = "any cards" if rules.double == "any" else "first two cards"
    parts.append(f"double on {double}" + (", after split" if rules.double_after_split else ""))
    parts.append(f"split to {rules.max_hands} hands ({rules.split.replace('_', ' ')})")
    parts.append("re-split aces" if rules.resplit_aces else "no re-split aces")
    if rules.surrender != "none":
        extra = [
            name
            for name, on in (
                ("after split", rules.surrender_after_split),
                ("after double", rules.surrender_after_double),
            )
            if on
        ]
        parts.append(f"surrender {rules.surrender}" + (f" ({', '.join(extra)})" if extra else ""))
    return ", ".join(parts)


def report(name: str, odds: VariantOdds, seconds: float) -> dict[str, Any]:
    from dealer_station.games.blackjack_dealer import OUTCOMES
    from dealer_station.games.blackjack_strategy_table import up_label

    rules = odds.rules
    return {
        "game": "blackjack",
        "variant": name,
        "title": rules.title,
        "decks": rules.decks,
        "rules": _rules_line(rules),
        "method": METHOD,
        "main_bet": {
            "rtp_optimal": odds.rtp_optimal,
            "house_edge_optimal": -odds.ev_optimal,
            "rtp_basic_strategy": odds.rtp_basic,
            "house_edge_basic_strategy": -odds.ev_basic,
            "published_rtp": rules.published_rtp or None,
        },
        "blackjack": {
            "probability": odds.blackjack_probability,
            "average_win": odds.blackjack_pays,
        },
        "up_cards": {
            up_label(u.up): {
                "probability": u.probability,
                "ev_optimal": u.ev_optimal,
                "ev_basic_strategy": u.ev_basic,
                "dealer": dict(zip(OUTCOMES, u.dealer, strict=True)),
            }
            for u in odds.up_cards
        },
        "basic_strategy": odds.strategy.to_json(),
        "side_bets": {
            bet.name: {
                "rtp": bet.rtp,
                "house_edge": 1 - bet.rtp,
                "results": {
                    result: {"pays": pays, "probability": p} for result, pays, p in bet.pays
                },
            }
            for bet in odds.side_bets
        },
        "seconds": round(seconds, 1),
    }


def text(name: str, odds: VariantOdds, seconds: float) -> list[str]:
    from dealer_station.games.blackjack_strategy_table import up_label

    rules = odds.rules
    lines = [
        f"{rules.title} ({name})",
        _rules_line(rules),
        "",
        f"Main bet, optimal play:  RTP {_percent(odds.rtp_optimal)}  "
        f"house edge {_percent(-odds.ev_optimal)}",
        f"Main bet, basic strategy: RTP {_percent(odds.rtp_basic)}  "
        f"house edge {_percent(-odds.ev_basic)}",
    ]
    if rules.published_rtp:
        gap = 100 * odds.rtp_optimal - float(rules.published_rtp)
        lines.append(
            f"Published RTP: {rules.published_rtp}% (these rules, optimal play: {gap:+.4f}%)"
        )
    if odds.rtp_basic > 1:
        # A studio must not put a game on air believing it has an edge it has not.
        lines.append("WARNING: under basic strategy this main bet returns more than is staked.")
    lines += [
        f"Blackjack: probability {odds.blackjack_probability:.6f}, "
        f"pays {odds.blackjack_pays:.6f} on average",
        "",
        "By up-card (EV per initial bet, optimal / basic strategy, dealer bust chance):",
    ]
    for u in odds.up_cards:
        lines.append(
            f"  {up_label(u.up):>2}  {u.ev_optimal:+.6f}  {u.ev_basic:+.6f}  bust {u.dealer[5]:.4f}"
        )
    lines += ["", "Basic strategy:", *odds.strategy.render()]
    if odds.side_bets:
        lines += ["", "Side bets:"]
        for bet in odds.side_bets:
            lines.append(
                f"  {bet.name}: RTP {_percent(bet.rtp)}, house edge {_percent(1 - bet.rtp)}"
            )
            for result, pays, p in bet.pays:
                lines.append(f"    {result:<10} pays {pays:>6}  probability {p:.6f}")
    lines += ["", f"Method: {METHOD}.", f"Computed in {seconds:.1f} s."]
    return lines


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from dealer_station.games.blackjack_odds import analyse
    from dealer_station.games.blackjack_rules import load_variant
    from dealer_station.games.rulefile import RuleFileError

    try:
        rules = load_variant(args.variant)
        if args.decks is not None:
            # The cut card keeps its place in proportion (it does not change the odds).
            cut = rules.cut_card_at
            if cut is not None:
                cut = max(1, cut * args.decks // rules.decks)
            rules = replace(rules, decks=args.decks, cut_card_at=cut)
    except (RuleFileError, ValueError) as exc:
        print(f"dealer-station odds: {exc}", file=sys.stderr)
        return 2
    # Wall time is reported, not used: the figure is the same whatever it took.
    started = time.perf_counter()
    odds = analyse(rules)
    seconds = time.perf_counter() - started
    if getattr(args, "json", False):
        print(json.dumps(report(args.variant, odds, seconds), indent=2))
    else:
        print("\n".join(text(args.variant, odds, seconds)))
    return 0
