"""The console and the overlay in a real Chromium, fed by a real PTY shoe: while
the players decide, neither page holds the hole card's value anywhere in its
DOM (text or attributes), the dealer shows one card and a card back, and the
total says it counts the face-up card only; once the dealer plays, both show
the card and the whole total."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from support.broker import running_broker
from support.browser_pages import LONG, shot
from support.station_rig import TOKENS, Rig, running, station_config

from drivers.shoe.simulator import FramedShoeSimulator

VARIANT = "blackjack-3-position"
# Up TH, hole 8H: the dealer's 18 and the hole card's rank 8 appear nowhere
# else (box 1: 9S 7S = 16, box 2: 5S 6S = 11).
DEAL = ["9S", "5S", "TH", "7S", "6S", "8H"]
HOLE = "8H"


@pytest.fixture(scope="module")
def shoe() -> Iterator[FramedShoeSimulator]:
    with FramedShoeSimulator(decks=6, seed=21) as sim:
        sim.cards_left = list(reversed(DEAL))
        yield sim


@pytest.fixture(scope="module")
def station(shoe: FramedShoeSimulator, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    for broker in running_broker(tmp_path_factory.mktemp("broker")):
        table = {
            "id": "bj3",
            "game": "blackjack",
            "variant": VARIANT,
            "shoe": {"port": shoe.port},
            "timers": LONG,
        }
        with running(
            station_config(tmp_path_factory.mktemp("station"), broker.port, [table])
        ) as rig:
            rig.wait_until(
                lambda: rig.call(lambda: rig.actor("bj3").devices.get("shoe", ("",))[0]) == "online"
            )
            yield rig


def opened(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
    page.goto(url)
    return page


def no_hole_card(page: Page, dealer: str) -> None:
    expect(page.locator(f"{dealer} .card")).to_have_count(2)
    expect(page.locator(f"{dealer} .card.back")).to_have_count(1)
    assert HOLE not in page.content(), "the hole card's code is in the page"
    text = page.locator(dealer).inner_text()
    assert "8" not in text, f"the hole card's rank or the dealer's 18 shows: {text!r}"


def test_console_and_overlay_keep_the_hole_card_face_down_until_the_dealer_plays(
    browser: Browser, station: Rig, shoe: FramedShoeSimulator
) -> None:
    console = opened(browser, f"{station.url}/console/bj3#token={TOKENS['croupier']}")
    overlay = opened(browser, f"{station.url}/overlay/bj3#token={TOKENS['viewer']}")
    expect(console.locator("#dev-feed")).to_have_text("LIVE")
    assert station.post("/tables/bj3/round/open", "croupier").status_code == 200
    for box in (1, 2):
        bet = {"player": "ann", "spot": "main", "box": box, "amount": "10"}
        assert station.post("/tables/bj3/bets", "game_server", bet).status_code == 200
    assert station.post("/tables/bj3/round/close-bets", "croupier").status_code == 200
    for _ in DEAL:
        before = len(station.records("bj3"))
        shoe.draw()
        station.wait_until(lambda before=before: len(station.records("bj3")) > before)
    expect(console.locator("#action")).to_have_text("DECISION: BOX 1 - HAND 1")

    no_hole_card(console, ".dealer")
    expect(console.locator(".dealer .total")).to_have_text("10 + ?")
    expect(overlay.locator("#table .dealer h2")).to_have_text("DEALER 10 + ?")
    no_hole_card(overlay, "#table .dealer")
    shot(console, "console-hole-card-face-down")
    shot(overlay, "overlay-hole-card-face-down", omit_background=True)

    for box in (1, 2):
        stand = {"box": box, "action": "stand"}
        assert station.post("/tables/bj3/decisions", "game_server", stand).status_code == 200
    for page, dealer in ((console, ".dealer"), (overlay, "#table .dealer")):
        expect(page.locator(f"{dealer} .card.back")).to_have_count(0)
        expect(page.locator(f'{dealer} .card[title="{HOLE}"]')).to_have_count(1)
    expect(overlay.locator("#table .dealer h2")).to_have_text("DEALER 18")
    expect(console.locator("#action")).to_have_text("DEALER 18")
    shot(console, "console-hole-card-revealed")
    console.context.close()
    overlay.context.close()
