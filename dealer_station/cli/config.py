"""``dealer-station config check FILE``: validate a station config."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("config", help="check a station config file")
    commands = parser.add_subparsers(dest="config_command", required=True)
    check = commands.add_parser(
        "check", help="validate FILE: every unknown key, bad value and bad variant, named"
    )
    check.add_argument("file", type=Path)
    check.set_defaults(handler=check_config)


def check_config(args: argparse.Namespace) -> int:
    from dealer_station.config import ConfigError, load_config
    from dealer_station.games import table
    from dealer_station.games.rulefile import RuleFileError

    try:
        config = load_config(args.file)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    problems = []
    for t in config.tables:
        try:
            table.GAMES[t.game](t.variant, None)
        except RuleFileError as exc:
            problems.append(f"{args.file}: tables[{t.id}].variant: {exc}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    tables = ", ".join(f"{t.id} ({t.game})" for t in config.tables)
    print(f"{args.file}: OK: studio {config.studio}, station {config.station}, tables {tables}")
    return 0
