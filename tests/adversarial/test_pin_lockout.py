"""PIN sign-in attacked over real HTTP (a real station, tests/api/station_rig.py):
200 concurrent guesses, a croupier console hammering one pit boss's name, and
10,000 distinct names (none is kept, so a thousand or a million show the same).
The rules: docs/api.md, "A pit boss at the console"."""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.broker import Broker
from support.station_rig import PIT_BOSSES, TABLES, Rig, auth_section, running, station_config

from dealer_station.api.auth import PAIR_FAILURES, Authority
from dealer_station.credentials import hash_token

pytestmark = pytest.mark.adversarial

# A second console at another table, with a croupier token of its own.
OTHER_CONSOLE = "test-croupier-token-of-table-2-0123"


@pytest.fixture
def rig(broker: Broker, tmp_path: Path) -> Iterator[Rig]:
    section = auth_section()
    auth = {
        "tokens": [
            *section["tokens"],
            {"name": "croupier-2", "role": "croupier", "sha256": hash_token(OTHER_CONSOLE)},
        ],
        "pit_bosses": section["pit_bosses"],
    }
    with running(station_config(tmp_path, broker.port, TABLES[:1], auth=auth)) as station:
        yield station


def guess(rig: Rig, name: str, pin: str, token: str = "croupier") -> httpx.Response:
    return rig.post("/auth/pit-boss", token, {"name": name, "pin": pin})


def test_concurrent_guesses_get_no_more_checks_than_the_limit(rig: Rig) -> None:
    pins = [f"{n:04d}" for n in range(1000, 1199)] + [PIT_BOSSES["Jan"]]  # the right one last

    async def all_at_once() -> list[int]:
        limits = httpx.Limits(max_connections=200)
        async with httpx.AsyncClient(base_url=rig.url, limits=limits, timeout=60) as client:
            answers = await asyncio.gather(
                *(
                    client.post(
                        "/auth/pit-boss",
                        json={"name": "Jan", "pin": pin},
                        headers=rig.headers("croupier"),
                    )
                    for pin in pins
                )
            )
        return [a.status_code for a in answers]

    statuses = Counter(asyncio.run(all_at_once()))
    # Each 401 is a PIN that was checked; every other guess was refused unchecked.
    assert statuses[401] <= PAIR_FAILURES, statuses
    assert statuses[200] == 0, statuses
    assert statuses[429] == len(pins) - statuses[401], statuses
    # And the right PIN, now, is still refused: the lockout holds.
    assert guess(rig, "Jan", PIT_BOSSES["Jan"]).status_code == 429


def test_one_console_cannot_lock_a_pit_boss_out_of_another(rig: Rig) -> None:
    for n in range(50):
        assert guess(rig, "Jan", f"{n:04d}").status_code in (401, 429)
    # This console may not guess Jan's PIN for a while...
    assert guess(rig, "Jan", PIT_BOSSES["Jan"]).status_code == 429
    # ...but Jan signs in at the console of another table.
    assert guess(rig, "Jan", PIT_BOSSES["Jan"], OTHER_CONSOLE).status_code == 200


def _remembered() -> int:
    """What PIN rationing holds: every entry of every Authority's tables. The
    station runs in this process (a thread), so they are here to count; those of
    stations stopped earlier do not change."""
    authorities = [o for o in gc.get_objects() if isinstance(o, Authority)]
    return sum(len(v) for a in authorities for v in vars(a).values() if isinstance(v, dict))


async def _status(reader: asyncio.StreamReader) -> int:
    """Read one whole answer; its status."""
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) != b"\r\n":
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


def test_distinct_names_do_not_grow_memory(rig: Rig) -> None:
    count = 10_000

    async def pipelined() -> Counter[int]:
        # One connection, every request written ahead of the answers: quick
        # enough to send 10,000 names through the real HTTP server.
        reader, writer = await asyncio.open_connection("127.0.0.1", rig.port)
        token = rig.headers("croupier")["Authorization"]

        async def write() -> None:
            for n in range(count):
                body = f'{{"name": "nobody-{n}", "pin": "0000"}}'
                writer.write(
                    f"POST /auth/pit-boss HTTP/1.1\r\nHost: x\r\nAuthorization: {token}\r\n"
                    f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                    f"{body}".encode()
                )
                if n % 500 == 0:
                    await writer.drain()
            await writer.drain()

        statuses: Counter[int] = Counter()
        sending = asyncio.create_task(write())
        for _ in range(count):
            statuses[await _status(reader)] += 1
        await sending
        writer.close()
        return statuses

    before = _remembered()
    statuses: Any = asyncio.run(pipelined())
    assert sum(statuses.values()) == count and set(statuses) <= {401, 429}, statuses
    assert _remembered() - before <= 3  # a console, at most: names nobody has are not kept
