"""A dealer's entry: what `dealer-station auth hash-pin --dealer` prints, what the
config accepts and refuses, and the sign-on's PIN check on its own counts."""

from __future__ import annotations

import asyncio
import io
from contextlib import redirect_stdout

import pytest

from dealer_station.api.auth import PAIR_FAILURES, Authority, PinLocked, Principal
from dealer_station.cli import main
from dealer_station.config import ConfigError, parse_config
from dealer_station.credentials import hash_pin, hash_token

CONSOLE = Principal("console-1", "croupier", "t1")
BASE = 'studio = "s"\nstation = "st"\n[[tables]]\nid = "t1"\ngame = "baccarat"\n'


def _hash_pin(monkeypatch: pytest.MonkeyPatch, pin: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{pin}\n"))
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["auth", "hash-pin", "--stdin", *args])
    return status, out.getvalue()


def test_the_cli_prints_a_dealer_entry_the_config_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    status, entry = _hash_pin(
        monkeypatch, "4711", "--name", "Ana Petrova", "--dealer", "--display-name", "Ana P."
    )
    assert status == 0 and entry.startswith("[[auth.dealers]]\n")
    assert "4711" not in entry
    config = parse_config(BASE + entry)
    (dealer,) = config.auth.dealers
    assert (dealer.name, dealer.shown) == ("Ana Petrova", "Ana P.")
    authority = Authority(config.auth)
    assert authority.dealer_names() == ["Ana Petrova"]
    assert asyncio.run(authority.dealer_sign_on("Ana Petrova", "4711", CONSOLE)) == dealer
    assert asyncio.run(authority.dealer_sign_on("Ana Petrova", "4712", CONSOLE)) is None
    # A dealer is no pit boss: the PIN opens no pit-boss session.
    assert asyncio.run(authority.pin_login("Ana Petrova", "4711", CONSOLE)) is None


def test_a_display_name_is_a_dealer_s_only(monkeypatch: pytest.MonkeyPatch) -> None:
    status, _ = _hash_pin(monkeypatch, "4711", "--name", "Jan", "--display-name", "J")
    assert status == 2


def test_the_config_refuses_twins_and_consoles_of_no_table() -> None:
    pin = hash_pin("4711")
    twins = "".join(
        f'[[auth.dealers]]\nname = "{name}"\ndisplay_name = "Ana"\npin_scrypt = "{pin}"\n'
        for name in ("Ana Petrova", "Ana Novak")
    )
    with pytest.raises(ConfigError, match="dealer display name 'Ana' is used twice"):
        parse_config(BASE + twins)
    shown_as_other = (
        f'[[auth.dealers]]\nname = "Ana"\npin_scrypt = "{pin}"\n'
        f'[[auth.dealers]]\nname = "Ana Novak"\ndisplay_name = "Ana"\npin_scrypt = "{pin}"\n'
    )
    with pytest.raises(ConfigError, match="dealer display name 'Ana' is used twice"):
        parse_config(BASE + shown_as_other)
    stray = (
        f'[[auth.tokens]]\nname = "c"\nrole = "croupier"\nsha256 = "{hash_token("x")}"\n'
        'table = "t9"\n'
    )
    with pytest.raises(ConfigError, match="token 'c' names no table"):
        parse_config(BASE + stray)
    plain = '[[auth.dealers]]\nname = "Ana"\npin_scrypt = "4711"\n'
    with pytest.raises(ConfigError, match=r"auth\.dealers\[0\]\.pin_scrypt"):
        parse_config(BASE + plain)


def test_a_dealer_s_wrong_pins_do_not_lock_the_pit_boss_out() -> None:
    pin = hash_pin("4711")
    config = parse_config(
        BASE
        + f'[[auth.dealers]]\nname = "Ana"\npin_scrypt = "{pin}"\n'
        + f'[[auth.pit_bosses]]\nname = "Ana"\npin_scrypt = "{pin}"\n'
    )
    authority = Authority(config.auth)

    async def guesses() -> None:
        for n in range(PAIR_FAILURES):
            assert await authority.dealer_sign_on("Ana", f"{n:04d}", CONSOLE) is None
        with pytest.raises(PinLocked):
            await authority.dealer_sign_on("Ana", "4711", CONSOLE)
        assert await authority.pin_login("Ana", "4711", CONSOLE) is not None

    asyncio.run(guesses())
