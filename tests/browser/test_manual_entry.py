"""Manual entry in a real Chromium (issue 13, rule 8): the ENTER CARD dialog names
where the card goes and is refused when that place changed while it was open; a
button is disabled while its request is in flight, so a double-click sends one;
a roulette number by hand is tapped, then confirmed as read back with its colour;
while the camera reads the wheel a croupier cannot commit a number. The station
runs for real, its shoes are simulators on real PTYs, its camera a recorded
wheel video."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, Request, expect
from support.browser_pages import WHEEL_VIDEO, console, shot, sign_in_pit_boss
from support.station_rig import Rig

from drivers.shoe.simulator import FramedShoeSimulator

WHY = {"why": "end of test"}


def posts_to(page: Page, path: str) -> list[str]:
    """Every POST the page sends whose path ends with ``path``, as it leaves."""
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith(path):
            sent.append(request.post_data or "")

    page.on("request", seen)
    return sent


def view(rig: Rig, table: str) -> dict[str, object]:
    state: dict[str, object] = rig.get(f"/tables/{table}/state", "pit_boss").json()["state"]
    return state


def next_to(rig: Rig, table: str) -> Callable[[], str]:
    return lambda: str(view(rig, table)["next"].get("to", ""))  # type: ignore[attr-defined]


def test_enter_card_names_the_destination_and_a_double_click_sends_one_request(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bj"]
    console(page, station, "bj")
    opens = posts_to(page, "/round/open")
    cards = posts_to(page, "/pit-boss/card")
    action = page.locator("#action")
    page.get_by_role("button", name="OPEN BETS").dblclick()
    expect(action).to_have_text("BETS OPEN")
    bet = {"player": "ann", "spot": "main", "box": 2, "amount": "100"}
    assert station.post("/tables/bj/bets", "game_server", bet).status_code == 200
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO BOX 2 - HAND 1")
    shoe.draw_unread()  # box 2's first card
    expect(action).to_have_text("CALL PIT BOSS: CARD UNREAD")

    sign_in_pit_boss(page)
    page.get_by_role("button", name="ENTER CARD").click()
    page.get_by_role("button", name="CARD UNREAD BY THE SCANNER").click()
    expect(page.locator("#modal h2")).to_have_text("CARD FOR BOX 2 - HAND 1")
    page.locator(".pad.ranks").get_by_role("button", name="9", exact=True).click()
    page.locator(".pad.suits").get_by_role("button", name="\u2663").click()
    shot(page, "console-enter-card-for-box-2")
    page.locator("#modal").get_by_role("button", name="OK").dblclick()
    expect(action).to_have_text("DEALER DRAWS")
    expect(page.locator("#modal")).not_to_be_visible()

    assert len(opens) == 1, opens
    assert [json.loads(body)["card"] for body in cards] == ["9C"]
    assert json.loads(cards[0])["to"] == "box 2 hand 0"
    manual = [r for r in station.records("bj") if r.body.get("type") == "manual_card"]
    assert [(r.status, r.body["card"]) for r in manual] == [("accepted", "9C")]
    table = view(station, "bj")["view"]
    assert table["boxes"][0]["hands"][0]["cards"] == ["9C"]  # type: ignore[index]
    assert table["dealer"]["cards"] == []  # type: ignore[index]

    # A reason typed, then OK double-clicked: one void.
    voids = posts_to(page, "/pit-boss/void")
    page.keyboard.press("p")  # the PIN session is still open
    page.get_by_role("button", name="VOID ROUND").click()
    page.locator("#why-text").fill("double-click drill")
    page.locator("#modal").get_by_role("button", name="OK").dblclick()
    expect(action).to_have_text("ROUND VOID: STAKES RETURNED")
    assert len(voids) == 1, voids


def test_a_card_for_a_place_that_changed_while_the_dialog_was_open_is_refused(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bac"]
    console(page, station, "bac")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO PLAYER")
    shoe.draw_unread()  # the Player's first card
    station.wait_until(lambda: next_to(station, "bac")() == "player")

    sign_in_pit_boss(page)
    page.get_by_role("button", name="ENTER CARD").click()
    page.get_by_role("button", name="CARD UNREAD BY THE SCANNER").click()
    expect(page.locator("#modal h2")).to_have_text("CARD FOR PLAYER")
    page.locator(".pad.ranks").get_by_role("button", name="9", exact=True).click()
    page.locator(".pad.suits").get_by_role("button", name="\u2663").click()

    # Meanwhile a second pit boss enters the Player's card, and the Banker's
    # card passes unread too: the round holds again, now for the Banker.
    other = {"card": "4D", "to": "player", "why": "entered at the other console"}
    assert station.post("/tables/bac/pit-boss/card", "pit_boss", other).status_code == 200
    shoe.draw_unread()
    station.wait_until(lambda: next_to(station, "bac")() == "banker")
    expect(page.locator("#modal h2")).to_have_text("CARD FOR PLAYER")

    # The dialog's answer names the step the table showed when it opened (and
    # its place): the table has moved on, so the card is refused, not dealt to
    # the Banker. The API's own destination check is test_manual_entry's in
    # tests/adversarial.
    page.locator("#modal").get_by_role("button", name="OK").click()
    expect(page.locator("#toast")).to_contain_text("REFUSED: The table moved on")
    shot(page, "console-enter-card-place-changed")
    last = station.records("bac")[-1]
    assert (last.status, last.reason, last.body["card"]) == ("rejected", "stale", "9C")
    table = view(station, "bac")["view"]
    assert table["player"]["cards"] == ["4D"]  # type: ignore[index]
    assert table["banker"]["cards"] == []  # type: ignore[index]
    assert view(station, "bac")["hold"] == "card_unread"
    assert station.post("/tables/bac/pit-boss/void", "pit_boss", WHY).status_code == 200


def test_a_roulette_number_is_tapped_then_confirmed_with_its_colour(
    page: Page, station: Rig
) -> None:
    assert station.post("/tables/rou/round/open", "croupier").status_code == 200
    assert station.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    console(page, station, "rou")
    results = posts_to(page, "/wheel/result")
    action = page.locator("#action")
    expect(action).to_have_text("NO MORE BETS: SPIN")
    page.keyboard.press("r")
    pad = page.locator(".pad.numbers")
    pad.get_by_role("button", name="17", exact=True).click()
    confirm = page.locator("#modal button.confirm")
    expect(confirm).to_contain_text("17 BLACK - CONFIRM")
    pad.get_by_role("button", name="23", exact=True).click()  # the croupier looks again
    expect(confirm).to_contain_text("23 RED - CONFIRM")
    shot(page, "console-roulette-confirm")
    assert results == []  # a tap alone sends nothing
    expect(action).to_have_text("NO MORE BETS: SPIN")
    confirm.dblclick()
    expect(action).to_have_text("23 RED")
    assert [json.loads(body) for body in results] == [{"number": 23}]


def test_a_croupier_cannot_commit_a_number_while_the_camera_reads_the_wheel(
    page: Page, station: Rig
) -> None:
    truth = json.loads(Path(WHEEL_VIDEO).with_suffix(".json").read_text())
    assert truth["number"] != 17
    console(page, station, "cam")
    expect(page.locator("#dev-camera")).to_have_class("dev ok")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    page.keyboard.press("n")  # the recorded spin starts
    expect(action).to_have_text("NO MORE BETS: SPIN")
    page.keyboard.press("r")
    page.locator(".pad.numbers").get_by_role("button", name="17", exact=True).click()
    page.locator("#modal button.confirm").click()
    expect(page.locator("#modal-msg")).to_contain_text("REFUSED: The camera reads the wheel")
    shot(page, "console-roulette-camera-online")
    expect(action).to_have_text(f"{truth['number']} {truth['colour'].upper()}", timeout=90_000)
    results = [r for r in station.records("cam") if r.body.get("type") == "wheel_result"]
    assert [(r.source, r.status, r.body["number"]) for r in results] == [
        ("camera", "accepted", truth["number"])
    ]
