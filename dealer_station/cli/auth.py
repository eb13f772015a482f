"""``dealer-station auth hash-token`` / ``hash-pin``: what a studio pastes into
the station's ``[auth]`` config. The config keeps only hashes; the token or PIN
itself goes to its holder and nowhere else."""

from __future__ import annotations

import argparse
import getpass
import json
import re
import sys
from typing import Any

ROLES = ("croupier", "pit_boss", "game_server", "viewer")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("auth", help="hash API tokens and pit-boss PINs for the config")
    commands = parser.add_subparsers(dest="auth_command", required=True)
    token = commands.add_parser(
        "hash-token",
        help="make a new token (or hash TOKEN) and print its [[auth.tokens]] entry",
    )
    token.add_argument("--name", required=True, help="who holds it: journaled as `by`")
    token.add_argument("--role", required=True, choices=ROLES)
    token.add_argument("--token", help="hash this token instead of making a new one")
    token.set_defaults(handler=hash_token_command)
    pin = commands.add_parser(
        "hash-pin",
        help="read a pit boss's (or, with --dealer, a dealer's) PIN and print its "
        "[[auth.pit_bosses]] ([[auth.dealers]]) entry",
    )
    pin.add_argument("--name", required=True, help="the person's name, as the console lists it")
    pin.add_argument("--stdin", action="store_true", help="read the PIN from standard input")
    pin.add_argument(
        "--dealer", action="store_true", help="a croupier who signs on at a table's console"
    )
    pin.add_argument(
        "--display-name", help="a dealer's name as the table shows it (default: --name)"
    )
    pin.set_defaults(handler=hash_pin_command)


def _toml(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def hash_token_command(args: argparse.Namespace) -> int:
    from dealer_station.credentials import hash_token, new_token

    token = args.token or new_token()
    if not args.token:
        print(f"# the token, for its holder only (the config keeps its hash):\n#   {token}")
    print(
        f"[[auth.tokens]]\nname = {_toml(args.name)}\nrole = {_toml(args.role)}\n"
        f"sha256 = {_toml(hash_token(token))}"
    )
    return 0


def hash_pin_command(args: argparse.Namespace) -> int:
    from dealer_station.credentials import hash_pin

    pin = sys.stdin.readline().strip() if args.stdin else getpass.getpass("PIN: ")
    if not re.fullmatch(r"[0-9]{4,12}", pin):
        print("dealer-station auth hash-pin: a PIN is 4 to 12 digits", file=sys.stderr)
        return 2
    if args.display_name is not None and not args.dealer:
        print("dealer-station auth hash-pin: --display-name is a dealer's", file=sys.stderr)
        return 2
    entry = "[[auth.dealers]]" if args.dealer else "[[auth.pit_bosses]]"
    shown = "" if args.display_name is None else f"display_name = {_toml(args.display_name)}\n"
    print(f"{entry}\nname = {_toml(args.name)}\n{shown}pin_scrypt = {_toml(hash_pin(pin))}")
    return 0
