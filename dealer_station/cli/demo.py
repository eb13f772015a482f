"""``dealer-station demo``: three live tables on this machine, every part real."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="run a demo station: baccarat, blackjack and roulette tables with simulated "
        "shoes, a recorded wheel, a local broker and the console",
    )
    parser.add_argument("--http-port", type=int, default=8080)
    parser.add_argument("--dir", type=Path, help="keep the journal here (default: a temp dir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--broker",
        choices=("auto", "mosquitto", "embedded"),
        default="auto",
        help="auto: mosquitto when installed, else the embedded amqtt broker (MQTT 3.1.1)",
    )
    parser.add_argument(
        "--blackjack-variant",
        metavar="NAME",
        default="standard-blackjack",
        help="the blackjack table's variant, any shipped one (e.g. blackjack-3-position, "
        "whose hole card stays face down until the dealer plays)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station.demo import NoDemoBroker, UnknownVariant, blackjack_decks, run_demo
    from dealer_station.journal import JournalInUse

    try:
        blackjack_decks(args.blackjack_variant)
    except UnknownVariant as exc:
        print(f"dealer-station demo: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    try:
        asyncio.run(
            run_demo(args.dir, args.http_port, args.seed, args.broker, args.blackjack_variant)
        )
    except JournalInUse as exc:  # --dir names the journal of a demo still running
        print(f"dealer-station demo: {exc}", file=sys.stderr)
        return 1
    except NoDemoBroker as exc:
        print(f"dealer-station demo: {exc}", file=sys.stderr)
        return 2
    return 0
