"""What a reload of the config file may change (issue 19): tokens and PINs at
once, a table's timers between rounds, nothing else (tables, broker, journal,
HTTP: refused whole). The station-level proof, a real process taking SIGHUP, is
tests/runtime/test_station_process.py; these are the parts under it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from dealer_station.actor import TableActor
from dealer_station.api.auth import Authority, Principal
from dealer_station.autoplay import Autoplay
from dealer_station.config import AuthConfig, StationConfig, TableConfig, parse_config
from dealer_station.config_reload import unreloadable
from dealer_station.credentials import hash_pin
from dealer_station.games.events import Event, WheelResult
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command

BASE = 'studio = "s"\nstation = "st"\njournal = "/tmp/j.sqlite3"\n'
TABLE = '[[tables]]\nid = "r1"\ngame = "roulette"\n'


def config(text: str = "", tables: str = TABLE) -> StationConfig:
    return parse_config(BASE + text + tables)


def test_auth_and_timers_may_change() -> None:
    boss = f'[[auth.pit_bosses]]\nname = "Ada"\npin_scrypt = "{hash_pin("2222")}"\n'
    timed = TABLE + "[tables.timers]\nbetting_seconds = 40\n"
    assert unreloadable(config(), config(boss, timed)) == []


def test_everything_else_is_named_in_the_refusal() -> None:
    running = config()
    assert unreloadable(running, config('[mqtt]\nhost = "broker-2"\n')) == ["mqtt"]
    assert unreloadable(running, parse_config(BASE.replace("/tmp/j", "/tmp/k") + TABLE)) == [
        "journal"
    ]
    assert unreloadable(running, config("[http]\nport = 9000\n")) == ["http"]
    assert unreloadable(running, config(tables=TABLE + 'recovery = "resume"\n')) == [
        "tables[r1].recovery"
    ]
    two = TABLE + '[[tables]]\nid = "r2"\ngame = "roulette"\n'
    assert unreloadable(running, config(tables=two)) == ["tables (which tables, or their order)"]
    assert unreloadable(
        running, config('[mqtt]\nport = 1884\n', TABLE.replace("r1", "r3"))
    ) == ["mqtt", "tables (which tables, or their order)"]


NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _source(event: Event) -> str:
    return "camera" if isinstance(event, WheelResult) else "croupier"


def test_a_tables_new_timers_wait_for_the_round_in_play_to_end(tmp_path: Path) -> None:
    old = TableConfig.model_validate({"id": "r1", "game": "roulette"})
    new = TableConfig.model_validate(
        {"id": "r1", "game": "roulette", "timers": {"betting_seconds": 40}}
    )

    async def scenario() -> None:
        actor = TableActor(old, "s", Journal(tmp_path / "j.sqlite3"), Topics("p", "s", "r1"),
                           clock=lambda: NOW)
        actor.recover()
        robot = Autoplay("roulette", seed=1, table="r1")

        def step() -> None:
            event = robot.next_event(actor.state)
            actor.handle(Command(_source(event), event))

        step()  # the round opens: betting, timed by the old config
        assert actor.timer.ends == NOW + timedelta(seconds=old.timers.betting_seconds)
        actor.reconfigure(new)
        assert actor.config is old
        assert actor.state is not None
        while not actor.state.round_over:
            step()
        assert actor.config is new
        step()  # the next round opens
        assert actor.timer.ends == NOW + timedelta(seconds=40)

    asyncio.run(scenario())


def test_a_table_between_rounds_takes_its_timers_at_once(tmp_path: Path) -> None:
    old = TableConfig.model_validate({"id": "r1", "game": "roulette"})
    new = old.model_copy(update={"timers": old.timers.model_copy(update={"betting_seconds": 7})})
    actor = TableActor(old, "s", Journal(tmp_path / "j.sqlite3"), Topics("p", "s", "r1"))
    actor.recover()
    actor.reconfigure(new)
    assert actor.config is new
    assert actor.timer.timers.betting_seconds == 7


CONSOLE = Principal("console", "croupier")


# Hashed once: a PIN hash is salted, and an entry the file keeps keeps its string.
PINS = {pin: hash_pin(pin) for pin in ("1111", "2222", "3333", "4444")}


def _auth(*bosses: tuple[str, str]) -> AuthConfig:
    return AuthConfig.model_validate(
        {"pit_bosses": [{"name": n, "pin_scrypt": PINS[p]} for n, p in bosses]}
    )


def test_a_reloaded_auth_ends_the_sessions_of_pit_bosses_gone_or_with_a_new_pin() -> None:
    async def scenario() -> None:
        authority = Authority(_auth(("Jan", "1111"), ("Ada", "2222"), ("Eve", "3333")))
        jan = await authority.pin_login("Jan", "1111", CONSOLE)
        ada = await authority.pin_login("Ada", "2222", CONSOLE)
        eve = await authority.pin_login("Eve", "3333", CONSOLE)
        assert jan and ada and eve
        # Jan is gone, Ada has a new PIN, Eve is as she was.
        authority.reconfigure(_auth(("Ada", "4444"), ("Eve", "3333")))
        assert authority.principal(jan[0]) is None
        assert authority.principal(ada[0]) is None
        assert authority.principal(eve[0]) == Principal("Eve", "pit_boss")
        assert await authority.pin_login("Ada", "2222", CONSOLE) is None
        assert await authority.pin_login("Ada", "4444", CONSOLE) is not None
        assert authority.pit_boss_names() == ["Ada", "Eve"]

    asyncio.run(scenario())
