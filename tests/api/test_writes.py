"""What every write must say, against a real station (real mosquitto, real HTTP):
the step it means (If-Match), its own name (Idempotency-Key), and a round id
that cannot be the station's own (docs/api.md, "Preconditions")."""

from __future__ import annotations

import sqlite3
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker
from support.station_rig import TABLES, Rig, running, station_config

BET = {"player": "ann", "spot": "main", "box": 1, "amount": "100"}


def now(rig: Rig, table: str) -> dict[str, Any]:
    state: dict[str, Any] = rig.get(f"/tables/{table}/state", "viewer").json()["state"]
    return state


def stake(rig: Rig, table: str, box: int = 1) -> str:
    boxes = (now(rig, table)["view"] or {}).get("boxes", [])
    return next((str(b["stake"]) for b in boxes if b["box"] == box), "0")


def round_inputs(rig: Rig, table: str) -> list[Any]:
    """The records since the last round opened."""
    records = rig.records(table)
    start = max(i for i, r in enumerate(records) if r.body.get("type") == "round_open")
    return records[start:]


def new_round(rig: Rig, table: str) -> str:
    """Whatever the table was doing ends, and a new round takes bets."""
    if now(rig, table)["next"]["kind"] not in ("round_open", "settled", "shuffle"):
        assert rig.post(
            f"/tables/{table}/pit-boss/void", "pit_boss", {"why": "next test"}
        ).is_success
    if now(rig, table)["next"]["kind"] == "shuffle":
        assert rig.post(f"/tables/{table}/shoe/shuffle", "croupier").is_success
    opened = rig.post(f"/tables/{table}/round/open", "game_server")
    assert opened.status_code == 200, opened.text
    return str(opened.json()["state"]["round"])


# -- preconditions ------------------------------------------------------------------------------


def test_a_write_without_if_match_is_428_and_reaches_no_table(rig: Rig) -> None:
    new_round(rig, "bj")
    before = len(rig.records("bj"))
    response = rig.post("/tables/bj/bets", "game_server", BET, step=None)
    assert response.status_code == 428, response.text
    assert response.json()["reason"] == "precondition_required"
    for role, path in (("croupier", "/round/close-bets"), ("pit_boss", "/pit-boss/void")):
        body = {"why": "no step said"} if role == "pit_boss" else None
        assert rig.post(f"/tables/bj{path}", role, body, step=None).status_code == 428
    assert len(rig.records("bj")) == before
    assert stake(rig, "bj") == "0"


def test_the_step_stays_while_others_bet_and_answer(rig: Rig) -> None:
    """Other players' bets and insurance answers must not make a croupier's
    button stale; a card must."""
    new_round(rig, "bj")
    seen = rig.step("bj")
    for box, player in ((1, "ann"), (2, "bob")):
        bet = {"player": player, "spot": "main", "box": box, "amount": "50"}
        assert rig.post("/tables/bj/bets", "game_server", bet).status_code == 200
    assert rig.step("bj") == seen
    assert rig.post("/tables/bj/round/close-bets", "croupier", step=seen).status_code == 200
    for card in ("8S", "9S", "AD", "8H", "KH"):  # box 2 has 19, the dealer shows an ace
        assert rig.command("bj", {"type": "card", "card": card}, source="shoe").accepted
    offered = rig.step("bj")
    assert now(rig, "bj")["next"]["kind"] == "insurance"
    take = {"box": 1, "player": "ann", "offer": "insurance", "take": True}
    assert rig.post("/tables/bj/offers", "game_server", take).status_code == 200
    assert rig.step("bj") == offered
    assert rig.post("/tables/bj/round/deal", "croupier", step=offered).status_code == 200
    assert rig.step("bj") != offered


def test_a_malformed_if_match_is_400(rig: Rig) -> None:
    headers = {"If-Match": '"a", "b"'}
    response = rig.post("/tables/bj/round/close-bets", "croupier", step=None, headers=headers)
    assert (response.status_code, response.json()["reason"]) == (400, "bad_precondition")


# -- idempotency ----------------------------------------------------------------------------------


def test_a_retried_bet_with_its_key_gets_the_first_answer_and_stakes_once(rig: Rig) -> None:
    new_round(rig, "bj")
    key = str(uuid.uuid4())
    first = rig.post("/tables/bj/bets", "game_server", BET, key=key)
    again = rig.post("/tables/bj/bets", "game_server", BET, key=key)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert stake(rig, "bj") == "100"
    assert [r.body["type"] for r in round_inputs(rig, "bj")].count("bet") == 1


def test_the_same_key_with_another_body_is_422_and_changes_nothing(rig: Rig) -> None:
    new_round(rig, "bj")
    key = str(uuid.uuid4())
    assert rig.post("/tables/bj/bets", "game_server", BET, key=key).status_code == 200
    before = len(rig.records("bj"))
    other = rig.post("/tables/bj/bets", "game_server", {**BET, "amount": "500"}, key=key)
    assert other.status_code == 422, other.text
    assert other.json()["detail"][0]["loc"] == ["header", "idempotency-key"]
    assert len(rig.records("bj")) == before
    assert stake(rig, "bj") == "100"


def test_twenty_concurrent_requests_with_one_key_make_one_bet(rig: Rig) -> None:
    new_round(rig, "bj")
    step, key = rig.step("bj"), str(uuid.uuid4())
    with ThreadPoolExecutor(20) as pool:
        answers = list(
            pool.map(
                lambda _: rig.post("/tables/bj/bets", "game_server", BET, step=step, key=key),
                range(20),
            )
        )
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert stake(rig, "bj") == "100"


def test_the_game_server_must_name_its_writes_and_others_may(rig: Rig) -> None:
    new_round(rig, "bj")
    before = len(rig.records("bj"))
    unnamed = rig.post("/tables/bj/bets", "game_server", BET, key=None)
    assert (unnamed.status_code, unnamed.json()["reason"]) == (400, "idempotency_key_required")
    assert len(rig.records("bj")) == before
    # A croupier's command without a key is taken; one with a key is kept like any.
    assert rig.post("/tables/bj/round/close-bets", "croupier", key=None).status_code == 200


def test_keys_belong_to_their_client(rig: Rig) -> None:
    """Another client sending the same key gets its own answer, never the first
    client's: a guessed key reads nothing."""
    new_round(rig, "bac")
    key = str(uuid.uuid4())
    step = rig.step("bac")
    assert rig.post("/tables/bac/round/close-bets", "game_server", step=step, key=key).is_success
    theirs = rig.post("/tables/bac/round/close-bets", "croupier", step=step, key=key)
    assert theirs.status_code == 409  # stale: betting closed by the game server
    assert theirs.json()["reason"] == "stale"
    assert "idempotent-replayed" not in theirs.headers


def test_keys_survive_a_restart(module_broker: Broker, tmp_path: Path) -> None:
    config = station_config(tmp_path, module_broker.port, TABLES)
    key = str(uuid.uuid4())
    with running(config) as rig:
        new_round(rig, "bj")
        step = rig.step("bj")
        first = rig.post("/tables/bj/bets", "game_server", BET, step=step, key=key)
        assert first.status_code == 200
    with running(config) as rig:
        again = rig.post("/tables/bj/bets", "game_server", BET, step=step, key=key)
        assert (again.status_code, again.json()) == (200, first.json())
        assert stake(rig, "bj") == "100"


def test_a_key_and_its_input_are_one_transaction(tmp_path: Path) -> None:
    """If the key's answer cannot be written, the input is not journaled either:
    a power cut between them is impossible (SQLite refuses the insert here, as
    a full disk would)."""
    from dealer_station.journal import Answer, Journal, Record

    journal = Journal(tmp_path / "j.sqlite3")
    journal._db.execute(
        "CREATE TRIGGER no_answers BEFORE INSERT ON idempotency"
        " BEGIN SELECT RAISE(ABORT, 'disk full'); END"
    )
    record = Record("t", "2026-01-01T00:00:00.000Z", "api", "event", {"type": "bet"}, "accepted")
    with pytest.raises(sqlite3.IntegrityError):
        journal.append(record, [], Answer("gs", "k", "f", {"accepted": True}))
    assert list(journal.records("t")) == []
    journal.close()


# -- round ids ----------------------------------------------------------------------------------


def test_a_game_server_cannot_take_the_stations_own_round_ids(rig: Rig) -> None:
    """Both ways: a given id of the generated shape (a later round's) is refused,
    and the generated rounds that reach that number are the only ones with it."""
    new_round(rig, "rou")
    generated = now(rig, "rou")["round"]
    number = int(generated.rsplit("-", 1)[1])
    later = f"rou-{number + 1:06d}"
    assert rig.post("/tables/rou/pit-boss/void", "pit_boss", {"why": "next"}).is_success
    taken = rig.post("/tables/rou/round/open", "game_server", {"round": later})
    assert (taken.status_code, taken.json()["reason"]) == (409, "round_id_reserved")
    earlier = rig.post("/tables/rou/round/open", "game_server", {"round": generated})
    assert earlier.status_code == 409
    opened = rig.post("/tables/rou/round/open", "game_server")
    assert opened.json()["state"]["round"] == later
    ids = [r["round"] for r in rig.get("/tables/rou/rounds", "pit_boss").json()["rounds"]]
    assert ids.count(later) == 1 and ids.count(generated) == 1
    given = rig.post("/tables/rou/pit-boss/void", "pit_boss", {"why": "next"})
    assert given.is_success
    mine = rig.post("/tables/rou/round/open", "game_server", {"round": "gs-rou-1"})
    assert mine.status_code == 200


def test_a_retried_open_with_a_given_id_gets_the_first_answer(rig: Rig) -> None:
    """The id is taken by the first request itself: its retry must not be told
    ``round_id_taken``."""
    new_round(rig, "bac")
    assert rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "next"}).is_success
    step, key = rig.step("bac"), str(uuid.uuid4())
    body = {"round": f"gs-{key[:8]}"}
    first = rig.post("/tables/bac/round/open", "game_server", body, step=step, key=key)
    again = rig.post("/tables/bac/round/open", "game_server", body, step=step, key=key)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
