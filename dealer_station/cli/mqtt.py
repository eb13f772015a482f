"""``dealer-station mqtt``: the station's broker, seen from its config.

``forget --table T`` clears the retained topics of a table taken out of the
config; ``acl`` prints the mosquitto ACL that lets the station publish under
every table it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("mqtt", help="the station's broker: forget a table, its ACL")
    commands = parser.add_subparsers(dest="mqtt_command", required=True)
    forget = commands.add_parser(
        "forget",
        help="clear the retained topics of a table removed from the config (empty retained "
        "payloads, each acknowledged by the broker)",
    )
    forget.add_argument("--config", type=Path, required=True, help="the station's TOML file")
    forget.add_argument("--table", required=True, help="the table's id")
    forget.add_argument(
        "--force",
        action="store_true",
        help="clear a table the config still runs (its station publishes it again when it "
        "next connects)",
    )
    forget.set_defaults(handler=forget_table)
    acl = commands.add_parser(
        "acl", help="print a mosquitto ACL for the station: every table it runs, its info topic"
    )
    acl.add_argument("--config", type=Path, required=True, help="the station's TOML file")
    acl.set_defaults(handler=print_acl)


def forget_table(args: argparse.Namespace) -> int:
    import asyncio

    from dealer_station.config import ConfigError, load_config
    from dealer_station.mqtt_forget import ForgetFailed, forget_table

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    if any(t.id == args.table for t in config.tables) and not args.force:
        print(
            f"{args.config}: table {args.table} is still in the config, and its station "
            "publishes its topics again on connecting: remove it first, or --force",
            file=sys.stderr,
        )
        return 2
    try:
        cleared = asyncio.run(forget_table(config, args.table))
    except ForgetFailed as exc:
        print(f"dealer-station: nothing certain was cleared: {exc}", file=sys.stderr)
        return 1
    for topic in cleared:
        print(f"cleared {topic}")
    return 0


def print_acl(args: argparse.Namespace) -> int:
    from dealer_station.config import ConfigError, parse_config
    from dealer_station.mqtt_acl import NoUsername, station_acl

    # Only names are read: the ACL is written on the broker's host, which has
    # none of the station's files (its password, its CA, its calibration).
    try:
        config = parse_config(args.config.read_text(encoding="utf-8"), str(args.config))
        print(station_acl(config, str(args.config)), end="")
    except OSError as exc:
        print(f"{args.config}: {exc.strerror}", file=sys.stderr)
        return 2
    except (ConfigError, NoUsername, UnicodeDecodeError) as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0
