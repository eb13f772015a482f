"""A croupier's sign-on at the console attacked over real HTTP (a real station,
tests/support/station_rig.py, a real mosquitto): guessed PINs, roles that may
not sign anyone on, a double-click, another table's console, a name nobody
has, bodies too big or malformed, a restart mid-shift, and what the overlay and
the studio's broker may see of a dealer. The rules: docs/api.md, "A dealer at
the console"; docs/decisions.md, "Dealer sign-on"."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.broker import Broker, Subscriber
from support.station_rig import SLOW, Rig, auth_section, running, station_config
from websockets.sync.client import connect

from dealer_station.api.auth import PAIR_FAILURES
from dealer_station.credentials import hash_pin, hash_token
from dealer_station.preconditions import fingerprint

pytestmark = pytest.mark.adversarial

# Each table's console has a token of its own, bound to its table.
CONSOLES = {"bac": "test-console-of-bac-0123456789", "rou": "test-console-of-rou-0123456789"}
# Sign-on name -> (display name, PIN). Bo has no display name: the table shows his name.
DEALERS = {"Ana Petrova": ("Ana P.", "4711"), "Bo Lind": (None, "2580")}
# What the overlay may show of each dealer.
SHOWN = {"Ana Petrova": "Ana P.", "Bo Lind": "Bo Lind"}
# The roulette table will not open a round without a dealer.
TABLES = [
    {"id": "bac", "game": "baccarat", "timers": SLOW},
    {"id": "rou", "game": "roulette", "timers": SLOW, "require_dealer": True},
]
_HASHED: dict[str, Any] = {}


def auth() -> dict[str, Any]:
    if not _HASHED:
        base = auth_section()
        _HASHED["tokens"] = [
            *base["tokens"],
            *(
                {"name": f"console-{t}", "role": "croupier", "sha256": hash_token(tok), "table": t}
                for t, tok in CONSOLES.items()
            ),
        ]
        _HASHED["pit_bosses"] = base["pit_bosses"]
        _HASHED["dealers"] = [
            {"name": name, "pin_scrypt": hash_pin(pin)}
            | ({} if display is None else {"display_name": display})
            for name, (display, pin) in DEALERS.items()
        ]
    return _HASHED


def config(tmp: Path, port: int, **extra: Any) -> Any:
    return station_config(tmp, port, TABLES, auth=auth(), **extra)


@pytest.fixture
def rig(broker: Broker, tmp_path: Path) -> Iterator[Rig]:
    with running(config(tmp_path, broker.port)) as station:
        yield station


def sign_on(
    rig: Rig, table: str, name: str, pin: str | None = None, token: str | None = None, **kw: Any
) -> httpx.Response:
    pin = DEALERS[name][1] if pin is None and name in DEALERS else pin
    return rig.post(
        f"/tables/{table}/dealer", token or CONSOLES[table], {"name": name, "pin": pin}, **kw
    )


def dealer_now(rig: Rig, table: str) -> Any:
    return rig.get(f"/tables/{table}/state", "viewer").json()["state"]["dealer"]


def dealer_records(rig: Rig, table: str) -> list[Any]:
    return [r for r in rig.records(table) if r.body.get("type") == "dealer"]


# -- guessing ------------------------------------------------------------------------------------


def test_wrong_pins_lock_the_name_at_that_console_as_for_a_pit_boss(rig: Rig) -> None:
    for n in range(PAIR_FAILURES):
        assert sign_on(rig, "bac", "Ana Petrova", f"{n:04d}").status_code == 401
    locked = sign_on(rig, "bac", "Ana Petrova")  # the right PIN, too late
    assert locked.status_code == 429, locked.text
    assert int(locked.headers["Retry-After"]) > 0
    assert dealer_records(rig, "bac") == [] and dealer_now(rig, "bac") is None
    # Locked for that name at that console only: Bo signs on there, Ana at the
    # other table's console, and a pit boss still signs in at this one.
    assert sign_on(rig, "bac", "Bo Lind").status_code == 200
    assert sign_on(rig, "rou", "Ana Petrova").status_code == 200
    pit = rig.post("/auth/pit-boss", CONSOLES["bac"], {"name": "Jan", "pin": "2580"})
    assert pit.status_code == 200, pit.text


def test_concurrent_guesses_get_no_more_checks_than_the_limit(rig: Rig) -> None:
    pins = [f"{n:04d}" for n in range(3000, 3059)] + [DEALERS["Bo Lind"][1]]
    step = rig.step("bac")

    async def all_at_once() -> list[int]:
        limits = httpx.Limits(max_connections=60)
        async with httpx.AsyncClient(base_url=rig.url, limits=limits, timeout=60) as client:
            answers = await asyncio.gather(
                *(
                    client.post(
                        "/tables/bac/dealer",
                        json={"name": "Bo Lind", "pin": pin},
                        headers={
                            "Authorization": f"Bearer {CONSOLES['bac']}",
                            "If-Match": f'"{step}"',
                            "Idempotency-Key": uuid.uuid4().hex,
                        },
                    )
                    for pin in pins
                )
            )
        return [a.status_code for a in answers]

    statuses = Counter(asyncio.run(all_at_once()))
    assert statuses[401] <= PAIR_FAILURES, statuses
    assert statuses[200] == 0, statuses
    assert statuses[429] == len(pins) - statuses[401], statuses
    assert dealer_records(rig, "bac") == []


def test_names_nobody_has_are_refused_and_counted_against_the_console(rig: Rig) -> None:
    for n in range(2 * PAIR_FAILURES):
        answer = sign_on(rig, "bac", f"Nobody {n}", "1234")
        assert answer.status_code == 401, answer.text
        assert answer.json()["detail"] == "wrong name or PIN"  # no hint which was wrong
    # Spraying names locks the console out of dealer sign-on, real names too.
    assert sign_on(rig, "bac", "Ana Petrova").status_code == 429
    assert dealer_records(rig, "bac") == []


# -- who may sign on where -----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["viewer", "game_server", "pit_boss"])
def test_only_a_console_signs_a_dealer_on(rig: Rig, role: str) -> None:
    answer = sign_on(rig, "bac", "Ana Petrova", token=role)
    assert answer.status_code == 403, answer.text
    assert dealer_records(rig, "bac") == []
    listing = rig.get("/auth/dealers", role)
    assert listing.status_code == (200 if role == "pit_boss" else 403)


@pytest.mark.parametrize("role", ["viewer", "game_server"])
def test_nor_do_they_end_a_shift(rig: Rig, role: str) -> None:
    assert sign_on(rig, "bac", "Ana Petrova").status_code == 200
    assert rig.post("/tables/bac/dealer/sign-off", role).status_code == 403
    assert dealer_now(rig, "bac") == "Ana P." and len(dealer_records(rig, "bac")) == 1


def test_a_pit_boss_ends_a_shift(rig: Rig) -> None:
    assert sign_on(rig, "bac", "Ana Petrova").status_code == 200
    off = rig.post("/tables/bac/dealer/sign-off", "pit_boss")
    assert off.status_code == 200, off.text
    assert dealer_now(rig, "bac") is None
    record = dealer_records(rig, "bac")[-1]
    assert (record.source, record.by, record.status) == ("pit_boss", "pit-boss-1", "accepted")


def test_a_console_signs_on_only_at_its_own_table(rig: Rig) -> None:
    answer = sign_on(rig, "bac", "Ana Petrova", token=CONSOLES["rou"])
    assert answer.status_code == 403, answer.text
    assert "rou" in answer.json()["detail"]
    assert sign_on(rig, "bac", "Ana Petrova").status_code == 200
    # Nor may it end a shift at another table.
    assert rig.post("/tables/bac/dealer/sign-off", CONSOLES["rou"]).status_code == 403
    assert dealer_now(rig, "bac") == "Ana P."
    assert len(dealer_records(rig, "bac")) == 1 and dealer_records(rig, "rou") == []


# -- double-clicks and retries -------------------------------------------------------------------


def test_a_double_clicked_sign_on_is_one_journal_record(rig: Rig) -> None:
    key = uuid.uuid4().hex
    first = sign_on(rig, "bac", "Ana Petrova", key=key)
    again = sign_on(rig, "bac", "Ana Petrova", key=key)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert len(dealer_records(rig, "bac")) == 1
    # A retry sent before the first is answered (a console that timed out and
    # sent again, twice): still one record. No more than the name's allowance
    # of PIN checks run at once: as for a pit boss, more are 429.
    key = uuid.uuid4().hex
    step = rig.step("bac")

    async def retries() -> list[int]:
        async with httpx.AsyncClient(base_url=rig.url, timeout=60) as client:
            answers = await asyncio.gather(
                *(
                    client.post(
                        "/tables/bac/dealer",
                        json={"name": "Bo Lind", "pin": DEALERS["Bo Lind"][1]},
                        headers={
                            "Authorization": f"Bearer {CONSOLES['bac']}",
                            "If-Match": f'"{step}"',
                            "Idempotency-Key": key,
                        },
                    )
                    for _ in range(PAIR_FAILURES - 1)
                )
            )
        return [a.status_code for a in answers]

    assert set(asyncio.run(retries())) == {200}
    assert [r.body.get("dealer") for r in dealer_records(rig, "bac")] == ["Ana P.", "Bo Lind"]
    # Two presses with keys of their own: the second is refused, journaled as such.
    second = sign_on(rig, "bac", "Bo Lind")
    assert second.status_code == 409, second.text
    assert second.json()["reason"] == "already_signed_on"
    records = dealer_records(rig, "bac")
    assert [r.status for r in records] == ["accepted", "accepted", "rejected"]
    assert records[-1].reason == "already_signed_on"
    assert dealer_now(rig, "bac") == "Bo Lind"


def test_a_retry_with_the_same_key_and_another_pin_is_not_let_through(rig: Rig) -> None:
    key = uuid.uuid4().hex
    assert sign_on(rig, "bac", "Ana Petrova", key=key).status_code == 200
    # The answer kept for the key is the console's, but only for the right PIN.
    assert sign_on(rig, "bac", "Ana Petrova", "0000", key=key).status_code == 401


def test_the_journal_keeps_no_pin_nor_a_hash_of_one(rig: Rig) -> None:
    assert sign_on(rig, "bac", "Ana Petrova").status_code == 200
    pin = DEALERS["Ana Petrova"][1]
    body = json.dumps({"name": "Ana Petrova", "pin": pin}).encode()
    # A request's fingerprint is kept with its key; one over the PIN would fall
    # to ten thousand guesses.
    naive = fingerprint("POST", "/tables/bac/dealer", body)
    assert rig.station is not None
    with sqlite3.connect(rig.station.journal.path) as db:
        rows = [
            json.dumps(row)
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            for row in db.execute(f"SELECT * FROM {name}")
        ]
    kept = "\n".join(rows)
    assert naive not in kept
    assert '"pin"' not in kept and "scrypt" not in kept


# -- malformed ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Ana Petrova"},
        {"name": "Ana Petrova", "pin": "47a1"},
        {"name": "Ana Petrova", "pin": 4711},
        {"name": "Ana Petrova", "pin": "4711", "display_name": "The House"},
        {"name": "x" * 65, "pin": "4711"},
        {"name": "Ana\nPetrova", "pin": "4711"},
        ["Ana Petrova", "4711"],
    ],
)
def test_a_malformed_body_is_422_and_journals_nothing(rig: Rig, body: Any) -> None:
    answer = rig.post("/tables/bac/dealer", CONSOLES["bac"], body)
    assert answer.status_code == 422, answer.text
    assert dealer_records(rig, "bac") == []


def test_an_oversized_body_is_413_unread(rig: Rig) -> None:
    body = {"name": "Ana Petrova", "pin": "4711", "pad": "x" * 70_000}
    answer = rig.post("/tables/bac/dealer", CONSOLES["bac"], body)
    assert answer.status_code == 413
    assert dealer_records(rig, "bac") == []


# -- a dealer's shift in the journal -------------------------------------------------------------


@pytest.mark.parametrize("snapshot_every", [1, 1000])
def test_a_restart_mid_shift_keeps_the_dealer(
    broker: Broker, tmp_path: Path, snapshot_every: int
) -> None:
    """From a snapshot (every record) or by replaying the journal."""
    cfg = config(tmp_path, broker.port, snapshot_every=snapshot_every)
    with running(cfg) as rig:
        assert sign_on(rig, "rou", "Ana Petrova").status_code == 200
        assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    with running(cfg) as rig:
        assert dealer_now(rig, "rou") == "Ana P."
        # The round in play was voided by the restart, as the table's recovery says.
        assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
        assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
        assert rig.command("rou", {"type": "wheel_result", "number": 7}, source="camera").accepted
        kinds = [r.body["type"] for r in rig.records("rou") if r.status == "accepted"]
        # Signed on once, before the first round; nobody signed on again.
        assert [k for k in kinds if k in ("dealer", "round_open")] == [
            "dealer",
            "round_open",
            "round_open",
        ]
        listed = rig.get("/tables/rou/rounds", "pit_boss").json()["rounds"]
        # Both rounds, the one the restart voided and the one after, are Ana's.
        assert [(r["status"], r["settlement"]["dealt_by"]) for r in listed] == [
            ("settled", "Ana P."),
            ("void", "Ana P."),
        ]


def test_a_table_that_requires_a_dealer_opens_no_round_without_one(rig: Rig) -> None:
    refused = rig.post("/tables/rou/round/open", "croupier")
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "no_dealer"
    assert sign_on(rig, "rou", "Bo Lind").status_code == 200
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    # A sign-off during the round: the round keeps its dealer to the end...
    off = rig.post("/tables/rou/dealer/sign-off", CONSOLES["rou"])
    assert off.status_code == 200, off.text
    assert dealer_now(rig, "rou") == "Bo Lind"
    state = rig.get("/tables/rou/state", "viewer").json()["state"]
    assert state["dealer_next"] == {"dealer": None}  # the console says what comes
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    assert rig.command("rou", {"type": "wheel_result", "number": 7}, source="camera").accepted
    # ...and the next round has none, so it does not open.
    assert dealer_now(rig, "rou") is None
    assert rig.post("/tables/rou/round/open", "croupier").json()["reason"] == "no_dealer"


# -- what goes out -------------------------------------------------------------------------------


def test_the_overlay_and_the_broker_see_only_the_display_name(rig: Rig, broker: Broker) -> None:
    mqtt = Subscriber(broker.port, "dealer-station/test/bac/#")
    seen: list[str] = []
    try:
        with connect(rig.url.replace("http", "ws") + "/tables/bac/ws", open_timeout=10) as ws:
            ws.send(json.dumps({"token": "test-viewer-token-0123456789"}))
            assert sign_on(rig, "bac", "Ana Petrova").status_code == 200
            # A refused sign-on (a second press) echoes its input on round/event.
            assert sign_on(rig, "bac", "Ana Petrova").status_code == 409
            assert rig.post("/tables/bac/round/open", "croupier").status_code == 200
            stale = sign_on(rig, "bac", "Bo Lind", step="bac-000099/bets/0")
            assert stale.status_code == 409 and stale.json()["reason"] == "stale"
            assert rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "test"}).is_success
            assert rig.post("/tables/bac/dealer/sign-off", CONSOLES["bac"]).status_code == 200
            shown: list[str | None] = []
            for _ in range(200):
                seen.append(str(ws.recv(timeout=10)))
                message = json.loads(seen[-1])
                if message["topic"] == "round/state":
                    shown.append(message["payload"]["dealer"])
                if len(shown) > 1 and shown[-2] is not None and shown[-1] is None:
                    break  # signed off
            assert "Ana P." in shown, shown
        mqtt.wait_for(lambda ms: any(b'"round_settled"' in m.payload for m in ms))
        seen += [m.payload.decode() for m in mqtt.messages]
    finally:
        mqtt.close()
    everything = "\n".join(seen)
    for secret in ("Ana Petrova", "scrypt", f'"{DEALERS["Ana Petrova"][1]}"', '"pin"'):
        assert secret not in everything, secret
    events = [json.loads(s) for s in seen]
    payloads = [e.get("payload", e) for e in events]
    settled = [p["data"] for p in payloads if p.get("type") == "round_settled"]
    assert settled and {s["dealt_by"] for s in settled} == {"Ana P."}
