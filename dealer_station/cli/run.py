"""``dealer-station run --config FILE``: the production entry point."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the station: every table of the config, its shoe, camera and broker link",
    )
    parser.add_argument("--config", type=Path, required=True, help="the station's TOML file")
    parser.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING"))
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station.config import ConfigError, load_config
    from dealer_station.journal import JournalInUse
    from dealer_station.logging_setup import setup_logging
    from dealer_station.station import Station

    setup_logging(args.log_level)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2

    async def main() -> None:
        await Station(config, config_file=args.config).run()

    try:
        asyncio.run(main())
    except JournalInUse as exc:
        # Not 2: under systemd a start refused because another station still
        # holds the journal is retried, and succeeds once that one has stopped.
        print(f"dealer-station: {exc}", file=sys.stderr)
        return 1
    return 0
