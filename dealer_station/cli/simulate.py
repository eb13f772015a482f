"""``dealer-station simulate``: deal rounds through the real engines and show them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from dealer_station.games.roulette_layout import CHOOSE_ONE_OF_THREE
from dealer_station.games.table import GAMES


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="deal rounds from a shuffled shoe through the engines and print them",
        description="A self-driving table: a shuffled shoe, players who bet at random and "
        "decide by basic strategy, every event through the same rules engine the station "
        "runs. --events writes the event stream, which `dealer-station replay -` reads.",
    )
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--variant", help="variant name or file (default: the game's default)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per table (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object per round")
    output.add_argument("--events", action="store_true", help="the input events as JSON lines")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station.autoplay import Autoplay
    from dealer_station.games import table
    from dealer_station.games.events import event_to_json
    from dealer_station.games.rejection import Rejected
    from dealer_station.games.rulefile import RuleFileError
    from dealer_station.round_outputs import RoundSettled, parse_outputs, to_json

    games = tuple(GAMES) if args.game == "all" else (args.game,)
    if args.variant and len(games) > 1:
        print("dealer-station simulate: --variant needs --game", file=sys.stderr)
        return 2
    for game in games:
        auto = Autoplay(game, args.variant, seed=args.seed, table=f"{game}-1")
        state: table.TableState | None = None
        events: list[dict[str, Any]] = []
        played = 0
        while played < args.rounds:
            event = auto.next_event(state)
            try:
                state, outputs = table.apply(state, event)
            except Rejected as exc:
                cause = exc.__cause__ if isinstance(exc.__cause__, RuleFileError) else exc
                print(f"dealer-station simulate: {cause}", file=sys.stderr)
                return 2
            events.append(event_to_json(event))
            if args.events:
                print(json.dumps(events[-1]))
            for out in parse_outputs(outputs):
                if not isinstance(out, RoundSettled):
                    continue
                played += 1
                if args.json:
                    print(json.dumps({"events": events, "outcome": to_json(out)}))
                elif not args.events:
                    print(describe(out.settlement, state.setup.variant))
                events = []
    return 0


def _cards(cards: list[str]) -> str:
    return " ".join(cards)


def _payout_lines(outcome: dict[str, Any]) -> list[str]:
    lines = []
    for p in outcome["payouts"]:
        where = f" box {p['box']}" if "box" in p else ""
        where += f" hand {p['hand']}" if "hand" in p else ""
        numbers = f" {p['numbers']}" if p.get("numbers") else ""
        numbers += f" {p[p['spot']]}" if p["spot"] in CHOOSE_ONE_OF_THREE else ""
        lines.append(
            f"    {p['player']:<10} {p['spot']}{numbers}{where}: stake {p['stake']}, "
            f"returns {p['returns']} ({p['result']})"
        )
    return lines


def describe(outcome: dict[str, Any], variant: str) -> str:
    """A round's settlement as a croupier would read it."""
    head = f"{outcome['round']}  {outcome['game']} ({variant})"
    if outcome.get("voided"):
        return "\n".join([f"{head}: VOID ({outcome['reason']})", *_payout_lines(outcome)])
    lines = [head]
    if outcome["game"] == "blackjack":
        dealer = outcome["dealer"]
        bj = " BLACKJACK" if dealer["blackjack"] else ""
        lines.append(f"  dealer      {_cards(dealer['cards'])} = {dealer['total']}{bj}")
        for box in outcome["boxes"]:
            for hand in box["hands"]:
                soft = "soft " if hand["soft"] and hand["total"] <= 21 else ""
                doubled = " doubled" if hand["doubled"] else ""
                lines.append(
                    f"  box {box['box']} h{hand['hand']}    {_cards(hand['cards'])} = "
                    f"{soft}{hand['total']}{doubled}: {hand['result']}"
                )
    elif outcome["game"] == "baccarat":
        for side in ("player", "banker"):
            hand = outcome[side]
            natural = " natural" if hand["natural"] else ""
            pair = " pair" if hand["pair"] else ""
            lines.append(f"  {side:<7} {_cards(hand['cards'])} = {hand['score']}{natural}{pair}")
        lines.append(f"  winner  {outcome['winner']}")
    else:
        lines.append(f"  number  {outcome['number']} {outcome['colour']}")
    return "\n".join([*lines, *_payout_lines(outcome)])
