"""Every blackjack variant's return to player, the published rule sets beside
ours, and the readings of the seeds' ambiguous rules; with the time each took.

    .venv/bin/python benchmarks/blackjack_rtp.py            # everything
    .venv/bin/python benchmarks/blackjack_rtp.py --only variants
    .venv/bin/python benchmarks/blackjack_rtp.py --json

"Optimal" is composition-dependent play (each decision by the hand's cards),
"basic" the total-dependent table that ``odds blackjack`` prints. Returns are
per unit of initial bet. Times are wall-clock on whatever machine runs this
(the figures themselves do not depend on it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from dealer_station.games.blackjack_odds import analyse, main_bet_ev
from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS, BlackjackRules, load_variant

T = TypeVar("T")

# Wizard of Odds, Blackjack Appendix 9 (wizardofodds.com/games/blackjack/appendix/9/<page>/):
# "Expected return of game", optimal composition-dependent play; every page:
# resplit to four hands except aces, no drawing to split aces, no surrender.
APPENDIX_9 = BlackjackRules(
    title="Wizard of Odds appendix 9",
    shuffle="every_round",
    hole_card=True,
    peek_up_cards=("T", "A"),
    max_hands=4,
    resplit_aces=False,
    double_after_split=True,
    surrender="none",
)
EURO = replace(APPENDIX_9, hole_card=False, peek_up_cards=(), dealer_blackjack_takes="all_bets")
PUBLISHED: list[tuple[str, BlackjackRules, float]] = [
    ("1ds17r4 (1 deck, S17, DAS)", replace(APPENDIX_9, decks=1), 0.001839),
    (
        "1ds17r4 (1 deck, S17, no DAS)",
        replace(APPENDIX_9, decks=1, double_after_split=False),
        0.000423,
    ),
    (
        "1dh17r4 (1 deck, H17, DAS)",
        replace(APPENDIX_9, decks=1, dealer_hits_soft_17=True),
        -0.000072,
    ),
    (
        "1dh17r4 (1 deck, H17, no DAS)",
        replace(APPENDIX_9, decks=1, dealer_hits_soft_17=True, double_after_split=False),
        -0.001513,
    ),
    (
        "2dh17r4 (2 decks, H17, DAS)",
        replace(APPENDIX_9, decks=2, dealer_hits_soft_17=True),
        -0.003797,
    ),
    (
        "2dh17r4 (2 decks, H17, no DAS)",
        replace(APPENDIX_9, decks=2, dealer_hits_soft_17=True, double_after_split=False),
        -0.005252,
    ),
    ("5ds17r4 (5 decks, S17, DAS)", replace(APPENDIX_9, decks=5), -0.003804),
    (
        "5ds17r4 (5 decks, S17, no DAS)",
        replace(APPENDIX_9, decks=5, double_after_split=False),
        -0.005225,
    ),
    (
        "5dh17r4 (5 decks, H17, DAS)",
        replace(APPENDIX_9, decks=5, dealer_hits_soft_17=True),
        -0.005918,
    ),
    (
        "5dh17r4 (5 decks, H17, no DAS)",
        replace(APPENDIX_9, decks=5, dealer_hits_soft_17=True, double_after_split=False),
        -0.007366,
    ),
    (
        "euro-6dh17r4 (6 decks, H17, no hole card, DAS)",
        replace(EURO, decks=6, dealer_hits_soft_17=True),
        -0.0072705,
    ),
    (
        "euro-6dh17r4 (6 decks, H17, no hole card, no DAS)",
        replace(EURO, decks=6, dealer_hits_soft_17=True, double_after_split=False),
        -0.0086975,
    ),
    (
        "euro-8dh17r4 (8 decks, H17, no hole card, DAS)",
        replace(EURO, decks=8, dealer_hits_soft_17=True),
        -0.007562,
    ),
    (
        "euro-8dh17r4 (8 decks, H17, no hole card, no DAS)",
        replace(EURO, decks=8, dealer_hits_soft_17=True, double_after_split=False),
        -0.0089865,
    ),
]


def readings() -> Iterator[tuple[str, BlackjackRules]]:
    """Other readings of the operators' texts where docs/rules.md had to choose, and the
    parameters that decide a published figure."""
    three = load_variant("blackjack-3-position")
    yield (
        "3-position: peek on ten only (ace-up blackjack takes all bets)",
        replace(three, peek_up_cards=("T",)),
    )
    yield (
        "3-position: peek on ten only (ace-up blackjack takes the original bet)",
        replace(three, peek_up_cards=("T",), dealer_blackjack_takes="original_bets"),
    )
    yield "3-position: split once only (2 hands), peek on ten and ace", replace(three, max_hands=2)
    yield (
        "3-position: split once only, peek on ten only",
        replace(three, max_hands=2, peek_up_cards=("T",)),
    )
    live = load_variant("live-blackjack")
    yield "live: no double after split", replace(live, double_after_split=False)
    yield "live: split to 4 hands", replace(live, max_hands=4)
    yield "live: dealer blackjack takes all bets", replace(live, dealer_blackjack_takes="all_bets")
    yield (
        "live: no double after split, dealer blackjack takes all bets",
        replace(live, double_after_split=False, dealer_blackjack_takes="all_bets"),
    )
    yield "live: 6 decks", replace(live, decks=6, cut_card_at=156)
    standard = load_variant("standard-blackjack")
    yield "standard: no surrender", replace(standard, surrender="none")
    diamond = load_variant("diamond-blackjack")
    yield "diamond: ordinary blackjack pays 3:2", replace(diamond, blackjack_pays="3:2")
    lost = "surrender lost to a later dealer blackjack (Wizard of Odds' reading)"
    yield f"diamond: {lost}", replace(diamond, surrender_lost_to_dealer_blackjack=True)
    zero_edge = load_variant("diamond-blackjack-zero-edge")
    yield f"diamond zero edge: {lost}", replace(zero_edge, surrender_lost_to_dealer_blackjack=True)
    no_surrender = replace(
        diamond, surrender="none", surrender_after_split=False, surrender_after_double=False
    )
    yield "diamond: no surrender", no_surrender
    yield (
        "diamond: no surrender, blackjack pushes a dealer blackjack",
        replace(no_surrender, blackjack_vs_dealer_blackjack="push"),
    )
    yield (
        "diamond zero edge: no surrender",
        replace(
            zero_edge,
            surrender="none",
            surrender_after_split=False,
            surrender_after_double=False,
        ),
    )


def timed(work: Callable[[BlackjackRules], T], rules: BlackjackRules) -> tuple[T, float, float]:
    """The result, the wall-clock seconds and the CPU seconds of this
    process (all its threads): on a shared machine the CPU time is the
    steadier figure."""
    started, cpu = time.perf_counter(), time.process_time()
    result = work(rules)
    return result, time.perf_counter() - started, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("variants", "published", "readings"))
    parser.add_argument("--json", action="store_true", help="one JSON line per figure")
    args = parser.parse_args(argv)

    def emit(record: dict[str, Any], line: str) -> None:
        print(json.dumps(record) if args.json else line, flush=True)

    if args.only in (None, "variants"):
        for name in SHIPPED_VARIANTS:
            odds, seconds, cpu = timed(analyse, load_variant(name))
            sides = {bet.name: bet.rtp for bet in odds.side_bets}
            side_text = "".join(f", {n} {100 * r:.3f}%" for n, r in sides.items())
            emit(
                {
                    "variant": name,
                    "rtp_optimal": odds.rtp_optimal,
                    "rtp_basic_strategy": odds.rtp_basic,
                    "house_edge_optimal": -odds.ev_optimal,
                    "house_edge_basic_strategy": -odds.ev_basic,
                    "published_rtp": odds.rules.published_rtp or None,
                    "side_bets": sides,
                    "seconds": seconds,
                    "cpu_seconds": cpu,
                },
                f"{name:30s} RTP {100 * odds.rtp_optimal:.4f}% optimal, "
                f"{100 * odds.rtp_basic:.4f}% basic (house edge {-100 * odds.ev_optimal:+.4f}% / "
                f"{-100 * odds.ev_basic:+.4f}%){side_text}  [{seconds:.1f} s, CPU {cpu:.1f} s, "
                f"strategy table and basic-strategy return included]",
            )
    if args.only in (None, "published"):
        for label, rules, published in PUBLISHED:
            ours, seconds, cpu = timed(main_bet_ev, rules)
            emit(
                {
                    "rule_set": label,
                    "published_ev": published,
                    "ours": ours,
                    "seconds": seconds,
                    "cpu_seconds": cpu,
                },
                f"Wizard of Odds {label:52s} published {100 * published:+.4f}%  ours "
                f"{100 * ours:+.4f}%  difference {100 * (ours - published):+.4f}%  "
                f"[{seconds:.1f} s, CPU {cpu:.1f} s]",
            )
    if args.only in (None, "readings"):
        for label, rules in readings():
            ev, seconds, cpu = timed(main_bet_ev, rules)
            emit(
                {"reading": label, "rtp_optimal": 1 + ev, "seconds": seconds, "cpu_seconds": cpu},
                f"{label:72s} RTP {100 * (1 + ev):.4f}%  house edge {-100 * ev:+.4f}%  "
                f"[{seconds:.1f} s, CPU {cpu:.1f} s]",
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
