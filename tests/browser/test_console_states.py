"""What the console says when it cannot be trusted, in a real Chromium: no token
(SIGN IN NEEDED, not RECONNECTING, and no game's buttons before the table is
known), a stale feed, a broker gone, a shoe gone (a full-width state and every
button off, saying why), and refusals shown inside the dialog that caused them.
The station is this module's own: its broker is stopped and started, its shoe
silenced, its HTTP taken down."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from support.broker import Broker, running_broker
from support.browser_pages import LONG, console, shot
from support.page_layout import SIZES, layout_faults
from support.station_rig import TOKENS, Rig, running, station_config

from drivers.shoe.simulator import FramedShoeSimulator


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    yield from running_broker(tmp_path_factory.mktemp("broker"))


@pytest.fixture(scope="module")
def shoe() -> Iterator[FramedShoeSimulator]:
    with FramedShoeSimulator(decks=8, seed=21) as simulator:
        yield simulator


@pytest.fixture(scope="module")
def station(
    broker: Broker, shoe: FramedShoeSimulator, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Rig]:
    tables = [
        {"id": "bac", "game": "baccarat", "shoe": {"port": shoe.port}, "timers": LONG},
        {"id": "rou", "game": "roulette", "timers": LONG},
    ]
    config = station_config(tmp_path_factory.mktemp("station"), broker.port, tables)
    with running(config) as rig:
        rig.wait_until(lambda: rig.get("/healthz").json()["status"] == "ok")
        yield rig


def every_press_is_off(page: Page, why: str) -> None:
    expect(page.locator("#blocked")).to_have_text(f"BUTTONS OFF: {why}")
    for button in page.locator("#buttons button:visible").all():
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("title", why)


def test_without_a_token_it_asks_to_sign_in_and_shows_no_game(
    browser: Browser, station: Rig
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{station.url}/console/rou")
    expect(page.locator("#dev-feed")).to_have_text("SIGN IN NEEDED")
    expect(page.locator("#stale-note")).to_have_text("SIGN IN NEEDED: ENTER THIS CONSOLE'S TOKEN.")
    expect(page.locator("#action")).to_have_text("SIGN IN NEEDED")
    expect(page.locator("#modal h2")).to_have_text("CONSOLE LOGIN")
    expect(page.locator("#buttons")).to_be_hidden()  # no game known: no game's buttons
    expect(page.locator("#blocked")).to_have_text("BUTTONS OFF: SIGN IN NEEDED")
    shot(page, "console-sign-in-needed")
    page.locator("#token-text").fill(TOKENS["croupier"])
    page.keyboard.press("Enter")
    expect(page.locator("#dev-feed")).to_have_text("LIVE")
    expect(page.get_by_role("button", name="CONFIRM RESULT")).to_be_enabled()
    expect(page.locator("button[data-do=deal]")).to_be_hidden()  # not a roulette button
    expect(page.locator("#blocked")).to_be_hidden()
    context.close()


def test_a_lost_broker_fills_the_width_and_turns_every_button_off(
    page: Page, station: Rig, broker: Broker
) -> None:
    console(page, station, "bac")
    expect(page.get_by_role("button", name="OPEN BETS")).to_be_enabled()
    broker.stop()
    try:
        lost = page.locator("#lost")
        expect(lost).to_contain_text("BROKER DOWN: PLAYERS AND THE GAME SERVER SEE NOTHING")
        every_press_is_off(page, "BROKER DOWN")
        faults = []
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            faults += [f"{size}: {f}" for f in layout_faults(page, "#lost, #action, #blocked")]
            shot(page, f"console-broker-down-{size}")
        assert not faults, "\n".join(faults)
    finally:
        broker.start()
    expect(page.locator("#lost")).to_be_hidden(timeout=30_000)
    expect(page.get_by_role("button", name="OPEN BETS")).to_be_enabled()


def test_a_silent_shoe_is_named_across_the_screen(
    page: Page, station: Rig, shoe: FramedShoeSimulator
) -> None:
    console(page, station, "bac")
    shoe.silence()
    try:
        expect(page.locator("#lost")).to_contain_text("SHOE OFFLINE", timeout=30_000)
        expect(page.locator("#dev-shoe")).to_have_class("dev down")
        shot(page, "console-shoe-offline")
    finally:
        shoe.silence(False)
    expect(page.locator("#lost")).to_be_hidden(timeout=30_000)


def test_a_stale_feed_turns_every_button_off_the_open_dialog_s_too(
    page: Page, station: Rig
) -> None:
    console(page, station, "bac")
    page.keyboard.press("b")  # the burn card picker, left open
    queen = page.locator(".pad.ranks").get_by_role("button", name="Q", exact=True)
    expect(queen).to_be_enabled()
    station.http_down()
    try:
        expect(page.locator("#dev-feed")).to_have_text("STALE", timeout=15_000)
        every_press_is_off(page, "NO LIVE DATA")
        expect(page.locator("#modal-msg")).to_have_text("BUTTONS OFF: NO LIVE DATA")
        expect(queen).to_be_disabled()
        expect(page.locator("#modal button.close")).to_be_enabled()
        shot(page, "console-stale-dialog-off")
    finally:
        station.http_up()
    expect(page.locator("#dev-feed")).to_have_text("LIVE", timeout=15_000)
    expect(queen).to_be_enabled()
    expect(page.locator("#modal-msg")).to_be_hidden()
    page.keyboard.press("Escape")
    every_press_is_on(page)


def every_press_is_on(page: Page) -> None:
    expect(page.locator("#blocked")).to_be_hidden()
    for button in page.locator("#buttons button:visible").all():
        expect(button).to_be_enabled()


def test_refusals_are_shown_inside_the_dialog_that_caused_them(page: Page, station: Rig) -> None:
    console(page, station, "rou")
    expect(page.locator("#action")).to_have_text("OPEN BETS")
    message = page.locator("#modal #modal-msg")
    # A number when no spin is due: the station refuses it; the pad stays open
    # with the reason in it, where the croupier is looking.
    page.keyboard.press("r")
    page.locator(".pad.numbers").get_by_role("button", name="5", exact=True).click()
    page.locator("#modal button.confirm").click()
    expect(message).to_contain_text("REFUSED:")
    expect(message).to_be_visible()
    dialog_fits(page, "number-refused")
    page.keyboard.press("Escape")
    # A wrong PIN: the pad clears and says so inside itself.
    page.keyboard.press("p")
    page.get_by_role("button", name="EVA NOVAK").click()
    for digit in "0000":
        page.keyboard.press(digit)
    page.keyboard.press("Enter")
    expect(message).to_have_text("WRONG PIN")
    expect(message).to_be_visible()
    expect(page.locator("#modal h2")).to_have_text("PIN: Eva Novak")
    dialog_fits(page, "wrong-pin")
    page.keyboard.press("Escape")
    console(page, station, "bac")
    page.keyboard.press("b")
    page.locator(".pad.ranks").get_by_role("button", name="Q", exact=True).click()
    page.locator(".pad.suits").get_by_role("button", name="\u2665").click()
    dialog_fits(page, "card-pad")


def dialog_fits(page: Page, name: str) -> None:
    """The open dialog, all of it in the window, at every size."""
    faults = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        faults += [f"{size}: {f}" for f in layout_faults(page, within="#modal")]
        shot(page, f"console-dialog-{name}-{size}")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not faults, "\n".join(faults)


def test_the_floor_lists_every_table_with_its_state_alarms_and_dealer(
    page: Page, station: Rig, shoe: FramedShoeSimulator
) -> None:
    icon = station.get("/favicon.ico")
    assert (icon.status_code, icon.headers["content-type"]) == (200, "image/svg+xml")
    assert station.post("/tables/bac/round/open", "croupier").status_code == 200
    assert station.post("/tables/bac/round/close-bets", "croupier").status_code == 200
    station.wait_for_step("bac", "card")
    shoe.draw_unread()
    station.wait_for_step("bac", "pit_boss")
    page.goto(f"{station.url}/floor#token={TOKENS['viewer']}")
    rows = page.locator("article.table")
    expect(rows).to_have_count(2)
    bac, rou = rows.nth(0), rows.nth(1)
    expect(bac.locator(".state")).to_have_text("CALL PIT BOSS: CARD UNREAD")
    unread = "CARD UNREAD: A card passed the scanner unread"
    expect(bac.locator(".alarms li")).to_contain_text([unread])
    expect(bac).to_have_class("table trouble")
    expect(rou.locator(".state")).to_have_text("OPEN BETS")
    expect(rou.locator(".alarms li")).to_have_count(0)
    expect(rou.locator(".dealer")).to_have_text("NO DEALER SIGNED ON")
    expect(page.locator("#summary")).to_have_text("2 TABLES · 1 NEED A LOOK")
    assert bac.get_by_role("link", name="CONSOLE").get_attribute("href") == "/console/bac"
    assert bac.get_by_role("link", name="INTEGRITY").get_attribute("href") == "/integrity/bac"
    faults = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        faults += [f"{size}: {f}" for f in layout_faults(page)]
        shot(page, f"floor-{size}", full_page=True)
    assert not faults, "\n".join(faults)
    why = {"why": "end of test"}
    assert station.post("/tables/bac/pit-boss/void", "pit_boss", why).status_code == 200
    expect(bac.locator(".alarms li")).to_have_count(0)
    expect(page.locator("#summary")).to_have_text("2 TABLES · ALL RUNNING")
