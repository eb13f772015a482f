"""``dealer-station schema``: the JSON Schema of every MQTT payload, or with
``--config`` of the station's config file; with ``--write DIR`` every contract
(the payloads' JSON Schemas, the AsyncAPI and OpenAPI documents) into DIR, and
with ``--check DIR`` whether DIR still holds what the code says."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "schema", help="print the JSON Schema of every MQTT payload, generated from the code"
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--config",
        action="store_true",
        help="print the JSON Schema of the station's config file instead",
    )
    what.add_argument(
        "--write",
        metavar="DIR",
        type=Path,
        help="write every contract (JSON Schemas, AsyncAPI, OpenAPI) into DIR (contracts/)",
    )
    what.add_argument(
        "--check",
        metavar="DIR",
        type=Path,
        help="exit 1 with the diff when DIR's contracts differ from the code's",
    )
    parser.set_defaults(handler=print_schema)


def print_schema(args: argparse.Namespace) -> int:
    if args.write is not None or args.check is not None:
        from dealer_station.api import contract_files

        if args.write is not None:
            for name in contract_files.write(args.write):
                print(f"wrote {args.write / name}")
            return 0
        diff = contract_files.differences(args.check)
        if diff:
            sys.stdout.write(diff)
            print(f"the contracts differ from the code: run `{contract_files.WRITE_COMMAND}`")
            return 1
        return 0
    if args.config:
        from dealer_station.config import StationConfig

        schema: dict[str, Any] = StationConfig.model_json_schema()
    else:
        from dealer_station.contracts.schemas import json_schemas

        schema = json_schemas()
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0
