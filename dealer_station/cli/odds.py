"""`dealer-station odds GAME`: exact odds and house edges of a game's bets.

Readable text by default, ``--json`` for machines. Each game is one function that
adds its subcommand; a new game is one more function in ``GAMES``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dealer_station.cli import _odds_blackjack
from dealer_station.games import baccarat, roulette
from dealer_station.games.baccarat_odds import BETS, odds
from dealer_station.games.roulette_layout import WHEEL_ORDER
from dealer_station.games.rulefile import RuleFileError


def _percent(edge: Fraction) -> str:
    return f"{float(edge) * 100:.4f}%"


def _emit(report: dict[str, Any], as_json: bool, text: list[str]) -> int:
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(text))
    return 0


def _baccarat(args: argparse.Namespace) -> int:
    try:
        rules = baccarat.load_variant(args.variant, args.decks)
    except RuleFileError as exc:
        print(f"dealer-station odds: {exc}", file=sys.stderr)
        return 2
    result = odds(rules)
    counts = result.counts
    pays = {bet: rules.spot(bet).pays for bet in BETS}
    report = {
        "game": "baccarat",
        "variant": args.variant,
        "decks": rules.decks,
        "method": "full enumeration of the ordered 6-card sequences of the shoe",
        "counts": {
            "banker": counts.banker,
            "player": counts.player,
            "tie": counts.tie,
            "total": counts.total,
            "player_pair": counts.player_pair,
            "banker_pair": counts.banker_pair,
        },
        "probability": {bet: float(p) for bet, p in result.probability.items()},
        "pays": pays,
        "commission": str(rules.commission),
        "house_edge": {bet: float(edge) for bet, edge in result.house_edge.items()},
    }
    commission = f" less {float(rules.commission) * 100:g}%"
    text = [
        f"Baccarat, {rules.decks} decks ({args.variant}): exact, over all "
        f"{counts.total:,} ordered 6-card sequences",
        "",
        f"{'result':<12} {'sequences':>26} {'probability':>12}",
    ]
    for name in ("banker", "player", "tie"):
        text.append(
            f"{name.title():<12} {getattr(counts, name):>26,} "
            f"{float(result.probability[name]):>12.6f}"
        )
    text += ["", f"{'bet':<12} {'pays':>16} {'house edge':>12}"]
    for bet in BETS:
        shown = pays[bet] + (commission if bet == "banker" else "")
        label = bet.replace("_", " ").title()
        text.append(f"{label:<12} {shown:>16} {_percent(result.house_edge[bet]):>12}")
    return _emit(report, args.json, text)


def _roulette(args: argparse.Namespace) -> int:
    try:
        rules = roulette.load_variant(args.variant)
    except RuleFileError as exc:
        print(f"dealer-station odds: {exc}", file=sys.stderr)
        return 2
    edges = roulette.house_edges(rules)
    report = {
        "game": "roulette",
        "variant": args.variant,
        "pockets": len(WHEEL_ORDER),
        "bets": {
            name: {
                "covers": bet.covers,
                "pays": rules.bet_type(name).pays,
                "placements": bet.placements,
                "house_edge": float(bet.house_edge),
                "house_edge_exact": str(bet.house_edge),
            }
            for name, bet in edges.items()
        },
    }
    text = [
        f"European roulette ({args.variant}), {len(WHEEL_ORDER)} pockets",
        "",
        f"{'bet':<12} {'covers':>6} {'pays':>6} {'placements':>10} {'house edge':>11}",
    ]
    for name, bet in edges.items():
        text.append(
            f"{name:<12} {bet.covers:>6} {rules.bet_type(name).pays:>6} "
            f"{bet.placements:>10} {_percent(bet.house_edge):>11}"
        )
    return _emit(report, args.json, text)


if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]


def _add_baccarat(games: Subparsers) -> argparse.ArgumentParser:
    parser = games.add_parser("baccarat", help="exact Banker/Player/Tie counts and house edges")
    parser.add_argument("--decks", type=int, help="decks in the shoe (default: the variant's)")
    parser.add_argument("--variant", default=baccarat.DEFAULT_VARIANT, help="name or .toml path")
    parser.set_defaults(handler=_baccarat)
    return parser


def _add_roulette(games: Subparsers) -> argparse.ArgumentParser:
    parser = games.add_parser("roulette", help="house edge of every bet type")
    parser.add_argument("--variant", default=roulette.DEFAULT_VARIANT, help="name or .toml path")
    parser.set_defaults(handler=_roulette)
    return parser


GAMES: tuple[Callable[[Subparsers], argparse.ArgumentParser], ...] = (
    _odds_blackjack.add_parser,
    _add_baccarat,
    _add_roulette,
)


def register(subparsers: Subparsers) -> None:
    odds_parser = subparsers.add_parser("odds", help="exact odds and house edges of a game")
    games = odds_parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for add in GAMES:
        add(games).add_argument("--json", action="store_true", help="print JSON, not text")
