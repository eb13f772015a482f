"""`dealer-station strategy-tables`: work out the basic strategy tables of the
shipped blackjack variants and write them as the package's data again, or check
that the packaged ones are current (``--check``).

Run it after changing a shipped variant file or the solver
(``games/blackjack_strategy``): a station plays the packaged table of a variant
whose rules of play hash as the file says, and works out any other at its start.
Each table takes seconds; every shipped variant together about half a minute.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "strategy-tables",
        help="write (or --check) the packaged basic strategy tables of the shipped variants",
        description="Work out the basic strategy table of each shipped blackjack variant "
        "(seconds each) and write it where the station reads it, or with --check compare "
        "it with the packaged file and write nothing.",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a packaged table is missing or differs",
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=SHIPPED_VARIANTS,
        help="only this shipped variant (repeatable; default: every one)",
    )
    parser.add_argument(
        "--out", type=Path, help="another directory than the package's strategy_tables/"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station import strategy_store
    from dealer_station.games.blackjack_rules import load_variant
    from dealer_station.games.blackjack_strategy_table import build

    out: Path = args.out or strategy_store.TABLES
    stale = []
    for name in args.variant or SHIPPED_VARIANTS:
        rules = load_variant(name)
        text = strategy_store.table_file(name, rules, build(rules))
        path = out / f"{name}.json"
        if args.check:
            current = path.is_file() and path.read_text(encoding="utf-8") == text
            print(f"{name}: {'current' if current else 'missing or stale'}")
            if not current:
                stale.append(name)
        else:
            out.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"{name}: written to {path}")
    return 1 if stale else 0
