"""A croupier works the table through the console in a real Chromium while the
shoe simulator feeds the station over a real PTY; a pit boss steps in with the
PIN. Each test saves screenshots to artifacts/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from support.browser_pages import console, shot
from support.station_rig import TOKENS, Rig

from drivers.shoe.simulator import FramedShoeSimulator


def stack(shoe: FramedShoeSimulator, *cards: str) -> None:
    """The next cards out of the shoe, in this order."""
    shoe.cards_left.extend(reversed(cards))


def draw(rig: Rig, table: str, shoe: FramedShoeSimulator, count: int = 1) -> None:
    for _ in range(count):
        before = len(rig.records(table))
        shoe.draw()
        rig.wait_until(lambda before=before: len(rig.records(table)) > before)


def test_a_croupier_deals_a_baccarat_round(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bac"]
    console(page, station, "bac")
    action = page.locator("#action")
    expect(action).to_have_text("OPEN BETS")
    expect(page.locator("#dev-shoe")).to_have_text("SHOE")
    page.get_by_role("button", name="OPEN BETS").click()  # a touch on the button
    expect(action).to_have_text("BETS OPEN")
    expect(page.locator("#countdown")).to_have_text(re.compile(r"^\d+s$"))
    bet = {"player": "ann", "spot": "player", "amount": "25"}
    assert station.post("/tables/bac/bets", "game_server", bet).status_code == 200
    shot(page, "console-baccarat-bets-open")
    page.keyboard.press("n")  # the shortcut shown on NO MORE BETS
    expect(action).to_have_text("CARD TO PLAYER")
    # Player 2 3 (5) draws; Banker 4 2 (6) stands on the Player's third card 3.
    stack(shoe, "2S", "4C", "3D", "2H", "3C")
    draw(station, "bac", shoe, 4)
    expect(action).to_have_text("PLAYER THIRD CARD")
    expect(page.locator(".side.player .score")).to_have_text("5")
    expect(page.locator(".side.banker .score")).to_have_text("6")
    expect(page.locator(".side.player .card")).to_have_count(2)
    shot(page, "console-baccarat-third-card")
    draw(station, "bac", shoe)
    expect(action).to_have_text("PLAYER WINS BANKER 6 - PLAYER 8")
    expect(page.locator(".road-bead .mark")).to_have_count(1)
    shot(page, "console-baccarat-result")


def test_a_croupier_deals_a_blackjack_round(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bj"]
    console(page, station, "bj")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    for box, player in ((1, "ann"), (3, "bob")):
        bet = {"player": player, "spot": "main", "box": box, "amount": "50"}
        assert station.post("/tables/bj/bets", "game_server", bet).status_code == 200
    page.get_by_role("button", name="NO MORE BETS").click()
    expect(action).to_have_text("CARD TO BOX 1 - HAND 1")
    # Box 1: T 6 (16); box 3: A 7 (soft 18); dealer shows 7.
    stack(shoe, "TS", "AH", "7S", "6D", "7C", "5C", "KH")
    draw(station, "bj", shoe, 5)
    expect(action).to_have_text("DECISION: BOX 1 - HAND 1")
    expect(page.locator(".box").nth(1).locator(".total")).to_have_text("soft 18")
    hit = {"box": 1, "action": "hit"}
    assert station.post("/tables/bj/decisions", "game_server", hit).status_code == 200
    expect(action).to_have_text("CARD TO BOX 1 - HAND 1")
    expect(page.locator(".box").first.locator(".said-one")).to_have_text(["HIT"])
    draw(station, "bj", shoe)  # 5: 21 stands by itself
    expect(action).to_have_text("DECISION: BOX 3 - HAND 1")
    shot(page, "console-blackjack-decision")
    stand = {"box": 3, "action": "stand"}
    assert station.post("/tables/bj/decisions", "game_server", stand).status_code == 200
    expect(action).to_have_text("DEALER DRAWS")
    draw(station, "bj", shoe)  # K: the dealer stands on 17
    expect(action).to_have_text("DEALER 17")
    expect(page.locator(".decisions li")).to_have_count(2)
    shot(page, "console-blackjack-result")


def test_a_pit_boss_enters_an_unread_card_and_voids_the_round(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bj"]
    console(page, station, "bj")
    action = page.locator("#action")
    page.keyboard.press("o")
    # A key press reaches the station later than the test's next line: wait.
    expect(action).to_have_text("BETS OPEN")
    bet = {"player": "ann", "spot": "main", "box": 2, "amount": "100"}
    assert station.post("/tables/bj/bets", "game_server", bet).status_code == 200
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO BOX 2 - HAND 1")
    stack(shoe, "9C")
    draw(station, "bj", shoe)
    shoe.draw_unread()
    expect(action).to_have_text("CALL PIT BOSS: CARD UNREAD")
    expect(page.locator(".alarm")).to_contain_text("enter it by hand")
    shot(page, "console-alarm-card-unread")

    page.keyboard.press("p")
    page.get_by_role("button", name="EVA NOVAK").click()
    for digit in "4711":
        page.keyboard.press(digit)
    shot(page, "console-pit-boss-pin")
    page.keyboard.press("Enter")
    expect(page.locator("#modal h2")).to_have_text("PIT BOSS: Eva Novak")
    shot(page, "console-pit-boss-menu")
    page.get_by_role("button", name="ENTER CARD").click()
    page.get_by_role("button", name="CARD UNREAD BY THE SCANNER").click()
    page.locator(".pad.ranks").get_by_role("button", name="Q", exact=True).click()
    page.locator(".pad.suits").get_by_role("button", name="\u2665").click()
    shot(page, "console-pit-boss-card")
    page.locator("#modal").get_by_role("button", name="OK").click()
    # The unread card was the dealer's: the deal goes on to box 2's second card.
    expect(action).to_have_text("CARD TO BOX 2 - HAND 1")
    expect(page.locator(".dealer .card")).to_have_count(1)
    expect(page.locator(".alarm")).to_have_count(0)
    manual = station.records("bj")[-1]
    assert (manual.body["type"], manual.body["card"], manual.by) == (
        "manual_card",
        "QH",
        "Eva Novak",
    )

    page.keyboard.press("p")  # the PIN session is still open
    page.get_by_role("button", name="VOID ROUND").click()
    page.get_by_role("button", name="DEALER ERROR").click()
    expect(action).to_have_text("ROUND VOID: STAKES RETURNED")
    void = station.records("bj")[-1]
    assert (void.body["type"], void.source, void.by, void.why) == (
        "void",
        "pit_boss",
        "Eva Novak",
        "Dealer error",
    )
    shot(page, "console-pit-boss-void")


def test_a_refusal_is_shown_with_its_reason(page: Page, station: Rig) -> None:
    console(page, station, "bj")
    page.keyboard.press("n")  # no round is open
    expect(page.locator("#toast")).to_contain_text("REFUSED: No round is open")


def test_roulette_console_and_overlays(page: Page, station: Rig) -> None:
    for number in (17, 32, 17, 0, 5, 26, 17, 11):
        station.post("/tables/rou/round/open", "croupier")
        station.post("/tables/rou/round/close-bets", "croupier")
        station.post("/tables/rou/wheel/result", "croupier", {"number": number})
    console(page, station, "rou")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    page.keyboard.press("n")
    expect(action).to_have_text("NO MORE BETS: SPIN")
    page.keyboard.press("r")
    shot(page, "console-roulette-number-pad")
    page.locator(".pad.numbers").get_by_role("button", name="23", exact=True).click()
    page.locator("#modal").get_by_role("button", name="23 RED - CONFIRM").click()
    expect(action).to_have_text("23 RED")
    expect(page.locator("#side .last .pocket").first).to_have_text("23")
    shot(page, "console-roulette-result")

    for table in ("rou", "bac", "bj"):
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.goto(f"{station.url}/overlay/{table}#token={TOKENS['viewer']}")
        expect(page.locator("body")).not_to_have_class(re.compile("stale"))
        expect(page.locator("#table > *").first).to_be_visible()
        shot(page, f"overlay-{table}", omit_background=True)


def test_the_console_shows_a_lost_link_and_reconnects(page: Page, station: Rig) -> None:
    console(page, station, "bac")
    station.http_down()
    expect(page.locator("#dev-feed")).to_have_text("STALE", timeout=15_000)
    expect(page.locator("#stale-note")).to_be_visible()
    shot(page, "console-stale")
    station.http_up()
    expect(page.locator("#dev-feed")).to_have_text("LIVE", timeout=15_000)
    expect(page.locator("#stale-note")).to_be_hidden()
