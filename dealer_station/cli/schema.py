"""``dealer-station schema``: the JSON Schema of every MQTT payload, or with
``--config`` of the station's config file."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "schema", help="print the JSON Schema of every MQTT payload, generated from the code"
    )
    parser.add_argument(
        "--config",
        action="store_true",
        help="print the JSON Schema of the station's config file instead",
    )
    parser.set_defaults(handler=print_schema)


def print_schema(args: argparse.Namespace) -> int:
    if args.config:
        from dealer_station.config import StationConfig

        schema: dict[str, Any] = StationConfig.model_json_schema()
    else:
        from dealer_station.payloads import json_schemas

        schema = json_schemas()
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0
