"""The API's behaviour against the real runtime: what each endpoint does, what
it refuses and why, and that a refusal leaves every round as it was."""

from __future__ import annotations

import json
from typing import Any

import httpx
from support.station_rig import Rig


def state(rig: Rig, table: str) -> dict[str, Any]:
    body: dict[str, Any] = rig.get(f"/tables/{table}/state", "viewer").json()
    return body


def table_now(rig: Rig, table: str) -> dict[str, Any]:
    """The round as it stands, without what changes with every input (time, seq)."""
    s = state(rig, table)["state"]
    return {k: v for k, v in s.items() if k not in ("at", "seq")}


def shoe(rig: Rig, table: str, *cards: str) -> None:
    for card in cards:
        assert rig.command(table, {"type": "card", "card": card}, source="shoe").accepted


def test_malformed_bodies_are_422_naming_the_field_and_journal_nothing(rig: Rig) -> None:
    rig.post("/tables/bac/round/open", "croupier")
    before = len(rig.records("bac"))
    cases = [
        ({"player": "ann", "spot": "banker", "amount": 10.5}, "amount"),  # a float: never money
        ({"player": "ann", "spot": "banker", "amount": "-5"}, "amount"),
        ({"player": "ann", "spot": "banker"}, "amount"),
        ({"player": "", "spot": "banker", "amount": "5"}, "player"),
        ({"player": "ann", "spot": "Banker!", "amount": "5"}, "spot"),
        ({"player": "ann", "spot": "banker", "amount": "5", "colour": "red"}, "colour"),
    ]
    for body, field in cases:
        response = rig.post("/tables/bac/bets", "game_server", body)
        assert response.status_code == 422, body
        assert any(field in error["loc"] for error in response.json()["detail"]), response.text
    response = rig.post("/tables/bj/decisions", "game_server", {"box": 1, "action": "fold"})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "action"]
    response = rig.post("/tables/bac/shoe/burn", "croupier", {"card": "ZZ"})
    assert response.json()["detail"][0]["loc"] == ["body", "card"]
    response = rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": ""})
    assert response.json()["detail"][0]["loc"] == ["body", "why"]
    assert len(rig.records("bac")) == before


def test_game_refusals_are_409_with_the_engines_reason_and_change_no_round(rig: Rig) -> None:
    rig.post("/tables/bac/bets", "game_server", {"player": "bob", "spot": "player", "amount": "20"})
    before = table_now(rig, "bac")
    refusals = [
        ("/tables/bac/bets", {"player": "bob", "spot": "dragon", "amount": "5"}, "unknown_spot"),
        (
            "/tables/bac/bets",
            {"player": "bob", "spot": "player", "amount": "99999999"},
            "above_table_maximum",
        ),
        ("/tables/bac/bets/cancel", {"player": "zoe", "spot": "tie"}, "no_such_bet"),
        ("/tables/bac/decisions", {"box": 1, "action": "hit"}, None),  # baccarat: no decisions
    ]
    for path, body, reason in refusals:
        response = rig.post(path, "game_server", body)
        assert response.status_code == 409, response.text
        refusal = response.json()
        if reason is not None:
            assert refusal["reason"] == reason
        record = rig.records("bac")[-1]
        assert (record.seq, record.status, record.reason) == (
            refusal["seq"],
            "rejected",
            refusal["reason"],
        )
        assert record.by == "game-server-1" and record.source == "api"
    assert table_now(rig, "bac") == before


def test_a_baccarat_round_through_the_api_and_its_recall(rig: Rig) -> None:
    rig.post("/tables/bac/round/close-bets", "croupier")
    # The previous test left the round with bob's bet; settle it.
    shoe(rig, "bac", "4S", "5D", "3H", "KC")  # Player 7, Banker 5: Banker draws
    assert state(rig, "bac")["state"]["action"] == "BANKER THIRD CARD"
    shoe(rig, "bac", "9C")  # Banker 4: Player wins 7 to 4
    round_id = state(rig, "bac")["state"]["round"]
    recall = rig.get(f"/tables/bac/rounds/{round_id}", "pit_boss").json()
    assert recall["status"] == "settled"
    assert recall["settlement"]["winner"] == "player"
    assert [p["net"] for p in recall["settlement"]["payouts"]] == ["20"]
    bodies = [(i["source"], i["body"]["type"], i["status"]) for i in recall["inputs"]]
    assert bodies[0] == ("console", "round_open", "accepted")
    assert ("api", "bet", "rejected") in bodies  # the refused ones are part of the story
    assert bodies[-1] == ("shoe", "card", "accepted")
    assert [e["data"]["card"] for e in recall["events"] if e["type"] == "card_dealt"] == [
        "4S",
        "5D",
        "3H",
        "KC",
        "9C",
    ]
    listed = rig.get("/tables/bac/rounds?limit=1", "game_server").json()
    assert [r["round"] for r in listed["rounds"]] == [round_id]
    older = rig.get(f"/tables/bac/rounds?before={listed['before']}", "game_server").json()
    assert round_id not in [r["round"] for r in older["rounds"]]
    assert rig.get("/tables/bac/rounds/no-such-round", "pit_boss").status_code == 404
    # A page cursor beyond SQLite's 64-bit integers is a bad request, not a crash
    # (schemathesis found the 500).
    assert rig.get(f"/tables/bac/rounds?before={2**64}", "game_server").status_code == 422


def test_events_after_a_seq_page_through_the_outbox_in_order(rig: Rig) -> None:
    """A consumer's catch-up (docs/consumers.md): every round event after a seq,
    oldest first, paged; what it returns is what the outbox holds to publish."""
    assert rig.station is not None
    journal = rig.station.journal
    held = [json.loads(m.payload) for m in rig.call(lambda: journal.outbox("bac", 0, 10**6))]
    assert len(held) > 3
    pages, after = [], 0
    while True:
        page = rig.get(f"/tables/bac/events?after={after}&limit=2", "game_server").json()
        pages.append(page["events"])
        if page["after"] is None:
            break
        assert page["after"] == page["events"][-1]["seq"]
        after = page["after"]
    assert [e for events in pages for e in events] == held
    assert all(len(events) == 2 for events in pages[:-1])
    tail = rig.get(f"/tables/bac/events?after={held[-2]['seq']}", "pit_boss").json()
    assert tail == {"events": [held[-1]], "after": None}
    assert rig.get("/tables/bac/events", "viewer").status_code == 403
    assert rig.get(f"/tables/bac/events?after={2**64}", "game_server").status_code == 422
    assert rig.get("/tables/nope/events", "game_server").status_code == 404


def test_a_round_id_is_used_once(rig: Rig) -> None:
    first = rig.post("/tables/bac/round/open", "game_server", {"round": "gs-42"})
    assert first.status_code == 200
    assert rig.post("/tables/bac/pit-boss/void", "pit_boss", {"why": "test"}).status_code == 200
    again = rig.post("/tables/bac/round/open", "game_server", {"round": "gs-42"})
    assert again.status_code == 409
    assert again.json()["reason"] == "round_id_taken"
    recall = rig.get("/tables/bac/rounds/gs-42", "pit_boss").json()
    assert recall["status"] == "void"
    void = next(i for i in recall["inputs"] if i["body"]["type"] == "void")
    assert (void["source"], void["by"], void["why"]) == ("pit_boss", "pit-boss-1", "test")


def test_blackjack_decisions_offers_and_bet_behind(rig: Rig) -> None:
    assert rig.post("/tables/bj/round/open", "game_server").status_code == 200
    for box, player in ((1, "ann"), (2, "bob")):
        bet = {"player": player, "spot": "main", "box": box, "amount": "50"}
        assert rig.post("/tables/bj/bets", "game_server", bet).status_code == 200
    behind = {"player": "cy", "spot": "bet_behind", "box": 1, "amount": "10"}
    assert rig.post("/tables/bj/bets", "game_server", behind).status_code == 200
    assert rig.post("/tables/bj/round/close-bets", "game_server").status_code == 200
    shoe(rig, "bj", "8S", "AS", "AD", "8H", "KH")  # box 1: 8 8, box 2: A K, dealer: A
    now = state(rig, "bj")
    assert now["state"]["next"]["kind"] == "insurance"
    assert now["timer"]["on_expiry"].startswith("insurance_closed")
    box1 = now["state"]["view"]["boxes"][0]
    assert (box1["behind"], box1["hands"][0]["total"]) == ("10", 16)
    assert state(rig, "bj")["state"]["view"]["boxes"][1]["hands"][0]["status"] == "blackjack"
    # live-blackjack offers insurance, not even money, to a blackjack too.
    even = {"box": 2, "player": "bob", "offer": "even_money", "take": True}
    refused = rig.post("/tables/bj/offers", "game_server", even)
    assert (refused.status_code, refused.json()["reason"]) == (409, "even_money_not_offered")
    take = {"box": 2, "player": "bob", "offer": "insurance", "take": True}
    assert rig.post("/tables/bj/offers", "game_server", take).status_code == 200
    again = rig.post("/tables/bj/offers", "game_server", take)
    assert (again.status_code, again.json()["reason"]) == (409, "already_answered")
    # The croupier's DEAL ends the insurance offer: whoever has not answered declined.
    assert rig.post("/tables/bj/round/deal", "croupier").status_code == 200
    now = state(rig, "bj")
    assert now["state"]["action"] == "DECISION: BOX 1 - HAND 1"
    assert now["timer"]["on_expiry"] == "stand"
    wrong = rig.post("/tables/bj/decisions", "game_server", {"box": 2, "action": "hit"})
    assert (wrong.status_code, wrong.json()["reason"]) == (409, "not_your_turn")
    split = rig.post("/tables/bj/decisions", "game_server", {"box": 1, "action": "split"})
    assert split.status_code == 200
    assert state(rig, "bj")["state"]["action"] == "CARD TO BOX 1 - HAND 1"
    shoe(rig, "bj", "3C")
    hand = rig.post("/tables/bj/decisions", "game_server", {"box": 1, "hand": 0, "action": "stand"})
    assert hand.status_code == 200
    assert state(rig, "bj")["state"]["action"] == "CARD TO BOX 1 - HAND 2"


def test_roulette_result_respin_and_confirmation(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    bet = {"player": "ann", "spot": "straight", "numbers": [17], "amount": "5"}
    assert rig.post("/tables/rou/bets", "game_server", bet).status_code == 200
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    respin = rig.post("/tables/rou/pit-boss/respin", "pit_boss", {"why": "ball off the track"})
    assert respin.status_code == 202
    rig.wait_until(lambda: bool(state(rig, "rou")["state"]["alarms"]))
    alarm = state(rig, "rou")["state"]["alarms"][0]
    assert alarm["code"] == "respin" and "pit-boss-1" in alarm["message"]
    confirm = {"number": 17, "why": "camera unsure: number checked"}
    done = rig.post("/tables/rou/pit-boss/wheel-result", "pit_boss", confirm)
    assert done.status_code == 200
    settled = next(o for o in done.json()["outputs"] if o["type"] == "round_settled")
    assert settled["payouts"][0]["net"] == "175"
    now = state(rig, "rou")
    assert now["state"]["alarms"] == []
    assert now["stats"]["stats"]["last"][0]["number"] == 17
    refused = rig.post("/tables/rou/wheel/result", "croupier", {"number": 4})
    assert (refused.status_code, refused.json()["reason"]) == (409, "no_round")


def test_pit_boss_pin_session(rig: Rig) -> None:
    assert rig.get("/auth/pit-bosses", "croupier").json() == ["Eva Novak", "Jan"]
    wrong = rig.post("/auth/pit-boss", "croupier", {"name": "Jan", "pin": "0000"})
    assert wrong.status_code == 401
    granted = rig.post("/auth/pit-boss", "croupier", {"name": "Eva Novak", "pin": "4711"})
    assert granted.status_code == 200
    session = {"Authorization": f"Bearer {granted.json()['token']}"}
    me = httpx.get(rig.url + "/auth/me", headers=session).json()
    assert me == {"name": "Eva Novak", "role": "pit_boss"}
    rig.post("/tables/bac/round/open", "croupier")
    token = granted.json()["token"]
    void = rig.post("/tables/bac/pit-boss/void", token, {"why": "drill"})
    assert void.status_code == 200
    record = rig.records("bac")[-1]
    assert (record.source, record.by, record.why, record.body["type"]) == (
        "pit_boss",
        "Eva Novak",
        "drill",
        "void",
    )
    assert httpx.post(rig.url + "/auth/logout", headers=session).status_code == 204
    after = rig.post("/tables/bac/pit-boss/void", token, {"why": "x1"})
    assert after.status_code == 401


def test_wrong_pins_lock_the_name(rig: Rig) -> None:
    for _ in range(5):
        response = rig.post("/auth/pit-boss", "croupier", {"name": "Jan", "pin": "1111"})
        assert response.status_code in (401, 429)
    locked = rig.post("/auth/pit-boss", "croupier", {"name": "Jan", "pin": "2580"})
    assert locked.status_code == 429
    assert int(locked.headers["retry-after"]) > 0
    # Another pit boss is not locked out with Jan.
    other = rig.post("/auth/pit-boss", "croupier", {"name": "Eva Novak", "pin": "4711"})
    assert other.status_code == 200


def test_a_dozen_bet_says_which_by_name_and_the_old_form_still_counts(rig: Rig) -> None:
    assert rig.post("/tables/rou/round/open", "croupier").status_code == 200
    new = {"player": "ann", "spot": "dozen", "dozen": 3, "amount": "5"}
    placed = rig.post("/tables/rou/bets", "game_server", new)
    assert placed.status_code == 200, placed.text
    (out,) = placed.json()["outputs"]
    assert (out["dozen"], "numbers" in out) == (3, False)
    # An older game server's [3] is the same bet: its stake adds to it.
    old = {"player": "ann", "spot": "dozen", "numbers": [3], "amount": "5"}
    (again,) = rig.post("/tables/rou/bets", "game_server", old).json()["outputs"]
    assert (again["dozen"], again["total"]) == (3, "10")
    wrong = rig.post("/tables/rou/bets", "game_server", {**new, "dozen": 4})
    assert wrong.status_code == 422
    assert rig.post("/tables/rou/round/close-bets", "croupier").status_code == 200
