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
        "check",
        help="validate FILE as `run` would: every unknown key, bad value, bad variant, and "
        "each journal, password or TLS file it cannot use, named",
    )
    check.add_argument("file", type=Path)
    check.set_defaults(handler=check_config)


def check_config(args: argparse.Namespace) -> int:
    from dealer_station.config import ConfigError, load_config

    try:
        config = load_config(args.file)
    except ConfigError as exc:
        # The lines and the status `run` gives for the same file.
        print(exc, file=sys.stderr)
        return 2
    tables = ", ".join(f"{t.id} ({t.game})" for t in config.tables)
    print(f"{args.file}: OK: studio {config.studio}, station {config.station}, tables {tables}")
    return 0
