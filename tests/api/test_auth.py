"""Token and PIN hashing, the config that holds them, and the CLI that makes them."""

from __future__ import annotations

import asyncio
import io
import re
from contextlib import redirect_stdout

import pytest

from dealer_station.api.auth import (
    CLIENT_FAILURES,
    LOCK_SECONDS,
    PAIR_FAILURES,
    Authority,
    PinLocked,
    Principal,
)
from dealer_station.cli import main
from dealer_station.config import AuthConfig, ConfigError, parse_config
from dealer_station.credentials import hash_pin, hash_token, verify_pin

CONSOLE = Principal("console-1", "croupier")
BASE = 'studio = "s"\nstation = "st"\n[[tables]]\nid = "t1"\ngame = "baccarat"\n'


def test_pin_hashes_are_salted_and_verify() -> None:
    one, two = hash_pin("4711"), hash_pin("4711")
    assert one != two
    assert verify_pin("4711", one) and verify_pin("4711", two)
    assert not verify_pin("4712", one)


def test_the_cli_prints_entries_the_config_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["auth", "hash-token", "--name", "gs-1", "--role", "game_server"]) == 0
    token_text = out.getvalue()
    token = re.search(r"#   (\S+)", token_text)
    assert token is not None
    monkeypatch.setattr("sys.stdin", io.StringIO("2580\n"))
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["auth", "hash-pin", "--name", "Jan", "--stdin"]) == 0
    config = parse_config(BASE + token_text + out.getvalue())
    authority = Authority(config.auth)
    principal = authority.principal(token.group(1))
    assert principal is not None and (principal.name, principal.role) == ("gs-1", "game_server")
    assert asyncio.run(authority.pin_login("Jan", "2580", CONSOLE)) is not None


def test_a_bad_pin_is_not_hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert main(["auth", "hash-pin", "--name", "Jan", "--stdin"]) == 2


def test_the_config_refuses_plain_secrets_and_twins() -> None:
    plain = '[[auth.tokens]]\nname = "c"\nrole = "croupier"\nsha256 = "secret"\n'
    with pytest.raises(ConfigError, match=r"auth\.tokens\[0\]\.sha256"):
        parse_config(BASE + plain)
    pin = '[[auth.pit_bosses]]\nname = "Jan"\npin_scrypt = "4711"\n'
    with pytest.raises(ConfigError, match=r"auth\.pit_bosses\[0\]\.pin_scrypt"):
        parse_config(BASE + pin)
    twice = "".join(
        f'[[auth.tokens]]\nname = "c"\nrole = "viewer"\nsha256 = "{hash_token(t)}"\n'
        for t in ("a", "b")
    )
    with pytest.raises(ConfigError, match="token name 'c' is used twice"):
        parse_config(BASE + twice)


def test_a_pin_session_ends_when_its_time_is_up() -> None:
    now = [0.0]
    config = AuthConfig.model_validate(
        {"pit_bosses": [{"name": "Jan", "pin_scrypt": hash_pin("2580")}]}
    )
    authority = Authority(config, clock=lambda: now[0])
    granted = asyncio.run(authority.pin_login("Jan", "2580", CONSOLE))
    assert granted is not None
    token, _, seconds = granted
    assert authority.principal(token) is not None
    now[0] += seconds
    assert authority.principal(token) is None


def _authority(now: list[float]) -> Authority:
    config = AuthConfig.model_validate(
        {"pit_bosses": [{"name": "Jan", "pin_scrypt": hash_pin("2580")}]}
    )
    return Authority(config, clock=lambda: now[0])


def test_a_lock_ends_when_its_time_is_up() -> None:
    now = [0.0]
    authority = _authority(now)

    async def scenario() -> None:
        for _ in range(PAIR_FAILURES):
            assert await authority.pin_login("Jan", "1111", CONSOLE) is None
        with pytest.raises(PinLocked):
            await authority.pin_login("Jan", "2580", CONSOLE)
        now[0] += LOCK_SECONDS
        assert await authority.pin_login("Jan", "2580", CONSOLE) is not None

    asyncio.run(scenario())


def test_unknown_names_count_against_the_console() -> None:
    authority = _authority([0.0])

    async def scenario() -> None:
        for n in range(CLIENT_FAILURES):
            assert await authority.pin_login(f"nobody-{n}", "1111", CONSOLE) is None
        with pytest.raises(PinLocked):
            await authority.pin_login("Jan", "2580", CONSOLE)
        assert await authority.pin_login("Jan", "2580", Principal("console-2", "croupier"))

    asyncio.run(scenario())


def test_a_session_is_over_at_logout() -> None:
    authority = _authority([0.0])

    async def scenario() -> None:
        granted = await authority.pin_login("Jan", "2580", CONSOLE)
        assert granted is not None
        over = asyncio.create_task(authority.session_over(granted[0]))
        await asyncio.sleep(0)
        assert not over.done()
        authority.end_session(granted[0])
        await asyncio.wait_for(over, 10)

    asyncio.run(scenario())
