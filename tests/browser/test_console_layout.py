"""The console at every size the issue names (800x480 to 1920x1080, and a phone),
in a real Chromium, for each game through the phases a croupier sees: no two
text or card boxes overlap, nothing is cut off, and on a table's screen what the
croupier acts on (the banner, the place a card is due, the suggested button, the
alarms) is in sight without scrolling. One page load per game; the window is
resized in it. Screenshots of each phase at each size go to artifacts/screenshots/.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect
from support.browser_pages import console, shot
from support.page_layout import PHONE, SIZES, layout_faults
from support.station_rig import Rig

from drivers.shoe.simulator import FramedShoeSimulator

# Two frames: the console draws on the next animation frame after a resize.
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# A box's outline and fill: what makes words look like a button.
LOOKS = "e => [getComputedStyle(e).borderStyle, getComputedStyle(e).backgroundColor]"
# What a croupier must see at a glance on the table's own screen.
MUST_SEE = "#action, .due, #buttons button.suggested, .alarm, #lost, #stale-note, #blocked"


def stack(shoe: FramedShoeSimulator, *cards: str) -> None:
    shoe.cards_left.extend(reversed(cards))


def draw(rig: Rig, table: str, shoe: FramedShoeSimulator, count: int = 1) -> None:
    for _ in range(count):
        before = len(rig.records(table))
        shoe.draw()
        rig.wait_until(lambda before=before: len(rig.records(table)) > before)


def at_every_size(page: Page, name: str) -> None:
    """The phase on screen now, at each size: its faults, all sizes at once."""
    faults = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(NEXT_FRAME)
        found = layout_faults(page, "" if size == PHONE else MUST_SEE)
        faults += [f"{size} {name}: {f}" for f in found]
        shot(page, f"layout-{name}-{size}", full_page=size == PHONE)
    assert not faults, "\n".join(faults)


def test_baccarat_at_every_size(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bac"]
    for _ in range(3):  # some roads to draw
        assert station.post("/tables/bac/round/open", "croupier").status_code == 200
        assert station.post("/tables/bac/round/close-bets", "croupier").status_code == 200
        draw(station, "bac", shoe, 6)
        if station.next_step("bac")[0] != "settled":
            draw(station, "bac", shoe)
    console(page, station, "bac")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    bet = {"player": "ann", "spot": "banker", "amount": "250"}
    assert station.post("/tables/bac/bets", "game_server", bet).status_code == 200
    at_every_size(page, "baccarat-betting")
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO PLAYER")  # a card before it would be a misdeal
    # Player 2 3 (5) draws; Banker 4 2 (6) stands on the Player's third card 3.
    stack(shoe, "2S", "4C", "3D", "2H", "3C")
    draw(station, "bac", shoe, 2)
    expect(page.locator(".side.player .card")).to_have_count(1)
    at_every_size(page, "baccarat-dealing")
    draw(station, "bac", shoe, 3)
    expect(action).to_have_text("PLAYER WINS BANKER 6 - PLAYER 8")
    expect(page.locator("#action .score-of.player")).to_have_class("score-of player winner")
    expect(page.locator(".side.player")).to_have_class("side player winner")
    expect(page.locator(".side.player h2")).to_have_text("PLAYERWINS")
    at_every_size(page, "baccarat-settled")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO PLAYER")
    shoe.draw_unread()
    expect(action).to_have_text("CALL PIT BOSS: CARD UNREAD")
    at_every_size(page, "baccarat-held")
    why = {"why": "end of test"}
    assert station.post("/tables/bac/pit-boss/void", "pit_boss", why).status_code == 200


def test_blackjack_at_every_size(
    page: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    shoe = shoes["bj"]
    console(page, station, "bj")
    action = page.locator("#action")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    for box, player, amount in (
        (1, "ann", "50"),
        (2, "bob", "100"),
        (3, "cy", "80"),
        (5, "di", "25"),
    ):
        bet = {"player": player, "spot": "main", "box": box, "amount": amount}
        assert station.post("/tables/bj/bets", "game_server", bet).status_code == 200
    at_every_size(page, "blackjack-betting")
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO BOX 1 - HAND 1")
    # Box 1: T 6 (16), box 2: 9 9 (18), box 3: A K (blackjack), box 5: 5 7 (12);
    # the dealer 7, then 10: 17.
    stack(shoe, "TS", "9H", "AH", "5D", "7S", "6D", "9C", "KH", "7C", "TH")
    draw(station, "bj", shoe, 3)
    at_every_size(page, "blackjack-dealing")
    draw(station, "bj", shoe, 6)
    expect(action).to_have_text("DECISION: BOX 1 - HAND 1")
    for box, choice in ((1, "hit"),):
        decision = {"box": box, "action": choice}
        assert station.post("/tables/bj/decisions", "game_server", decision).status_code == 200
    stack(shoe, "8D")
    draw(station, "bj", shoe)  # box 1: 24, bust
    expect(action).to_have_text("DECISION: BOX 2 - HAND 1")
    # The player's choices are words, not something that looks pressable.
    choices = page.locator("#options .opt")
    expect(choices.first).to_have_text("HIT")
    for word in (choices.first, page.locator(".said-one").first):
        assert word.evaluate(LOOKS) == ["none", "rgba(0, 0, 0, 0)"]
    at_every_size(page, "blackjack-decision")
    for box in (2, 5):
        decision = {"box": box, "action": "stand"}
        assert station.post("/tables/bj/decisions", "game_server", decision).status_code == 200
    expect(action).to_have_text("DEALER DRAWS")
    stack(shoe, "TD")
    draw(station, "bj", shoe)  # the dealer: 7 T: 17
    expect(action).to_have_text("DEALER 17")
    results = page.locator(".box .result")
    expect(results).to_have_text(["LOSE \u221250", "WIN +100", "BLACKJACK +120", "LOSE \u221225"])
    at_every_size(page, "blackjack-settled")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    bet = {"player": "ann", "spot": "main", "box": 2, "amount": "100"}
    assert station.post("/tables/bj/bets", "game_server", bet).status_code == 200
    page.keyboard.press("n")
    expect(action).to_have_text("CARD TO BOX 2 - HAND 1")
    shoe.draw_unread()
    expect(action).to_have_text("CALL PIT BOSS: CARD UNREAD")
    at_every_size(page, "blackjack-held")
    why = {"why": "end of test"}
    assert station.post("/tables/bj/pit-boss/void", "pit_boss", why).status_code == 200


def test_roulette_at_every_size(page: Page, station: Rig) -> None:
    for number in (17, 32, 17, 0, 5, 26, 17, 11, 36, 32):
        station.post("/tables/rou/round/open", "croupier")
        station.post("/tables/rou/round/close-bets", "croupier")
        station.post("/tables/rou/wheel/result", "croupier", {"number": number})
    console(page, station, "rou")
    action = page.locator("#action")
    hot = page.locator("#side .hits").first
    expect(hot.locator(".pocket")).to_have_class("pocket black ")
    expect(hot).to_have_text("17\u00d73")
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    at_every_size(page, "roulette-betting")
    page.keyboard.press("n")
    expect(action).to_have_text("NO MORE BETS: SPIN")
    at_every_size(page, "roulette-spin")
    assert station.post("/tables/rou/wheel/result", "croupier", {"number": 23}).status_code == 200
    expect(action).to_have_text("23 RED")
    at_every_size(page, "roulette-settled")
