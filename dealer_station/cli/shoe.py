"""`dealer-station shoe`: read shoe captures, run a simulated shoe.

The protocols offered and what each can do come from `drivers.shoe.BACKENDS`.
"""

from __future__ import annotations

import argparse
from typing import Any

from drivers.shoe import BACKENDS
from drivers.shoe.backends import SIMULATED, WIRED


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    shoe = subparsers.add_parser("shoe", help="the card shoe: decode captures, simulate")
    commands = shoe.add_subparsers(dest="shoe_command", metavar="SUBCOMMAND", required=True)

    decode = commands.add_parser(
        "decode",
        help="print the events in a serial capture",
        description="Print the events a station would read from CAPTURE: raw bytes from "
        "the shoe, or a pyserial spy:// hexdump (spy:///dev/dealer-shoe?file=capture.txt).",
    )
    decode.add_argument("capture", metavar="CAPTURE")
    decode.add_argument("--protocol", choices=WIRED, default=BACKENDS.default)
    decode.add_argument("--json", action="store_true", help="one JSON object a line")
    decode.set_defaults(handler=_decode)

    simulate = commands.add_parser(
        "simulate",
        help="run a simulated shoe on a pseudo-terminal",
        description="Deal from a shuffled shoe on a pseudo-terminal that a station can "
        "open like the real device; prints the port path.",
    )
    simulate.add_argument("--protocol", choices=SIMULATED, default=BACKENDS.default)
    simulate.add_argument("--decks", type=int, default=8)
    simulate.add_argument("--seed", type=int)
    simulate.add_argument("--interval", type=float, default=2.0,
                          help="seconds between cards (default 2)")
    simulate.add_argument("--link", help="path of the symlink to the port (default: a temp dir)")
    faulty = ", ".join(name for name in SIMULATED if BACKENDS[name].can.line_faults)
    simulate.add_argument("--fault-rate", type=float, default=0.0,
                          help=f"share of bytes damaged on the line (only: {faulty})")
    simulate.set_defaults(handler=_simulate)


def _decode(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from dealer_station.cli._decoded import print_decoded
    from drivers.shoe import ShoeError
    from drivers.shoe.capture import decode_capture, read_capture
    from drivers.shoe.event_json import event_to_json

    try:
        decoded = decode_capture(read_capture(Path(args.capture)), args.protocol)
    except (OSError, ShoeError) as exc:
        print(f"shoe decode: {exc}", file=sys.stderr)
        return 2
    print_decoded(map(event_to_json, decoded.events), decoded.counters, as_json=args.json,
                  width=11)
    return 0


def _simulate(args: argparse.Namespace) -> int:
    import dataclasses
    import time
    from pathlib import Path

    from drivers.line_faults import LineFaults

    backend = BACKENDS[args.protocol]
    assert backend.simulator is not None  # the choices are the simulated protocols
    settings: dict[str, Any] = {"decks": args.decks, "seed": args.seed,
                                "link_path": Path(args.link) if args.link else None}
    if backend.can.line_faults:
        settings["faults"] = LineFaults.mixed(args.fault_rate, seed=args.seed or 0)
    baudrate = dataclasses.asdict(backend.options()).get("baudrate")
    with backend.simulator(**settings) as sim:
        print(f"{args.protocol} shoe on {sim.port} ({baudrate} baud); Ctrl-C to stop",
              flush=True)
        try:
            while sim.cards_left:
                time.sleep(args.interval)
                print(f"{sim.draw(1)[0]}  {sim.status()}".rstrip(), flush=True)
        except KeyboardInterrupt:
            pass
    return 0
