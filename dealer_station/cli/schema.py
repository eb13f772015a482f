"""``dealer-station schema``: the JSON Schema of every MQTT payload."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "schema", help="print the JSON Schema of every MQTT payload, generated from the code"
    )
    parser.set_defaults(handler=print_schema)


def print_schema(args: argparse.Namespace) -> int:
    from dealer_station.payloads import json_schemas

    print(json.dumps(json_schemas(), indent=2, sort_keys=True))
    return 0
