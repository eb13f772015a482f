"""The `dealer-station` command.

Each module of this package holds one command (or one group of subcommands) and
defines ``register(subparsers)``. Commands are discovered, not listed, so that a
new command is one new file. Heavy imports (cv2, paho, fastapi) belong inside the
command's handler, so that ``dealer-station --help`` stays fast on a Pi.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from dealer_station import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-station",
        description="The station under a live casino table.",
    )
    parser.add_argument("--version", action="version", version=f"dealer-station {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.handler(args)
    except BrokenPipeError:
        # `dealer-station replay big.jsonl | head` must not end in a traceback.
        sys.stderr.close()
        return 0
    return result
