"""A pit boss closes the table from the console, in a real Chromium (issue 19
part 2): the console then says the table is closed, by whom and why, and a
croupier's OPEN BETS is refused with the reason."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from support.browser_pages import console, sign_in_pit_boss
from support.station_rig import Rig


def test_a_closed_table_shows_why_and_refuses_open_bets(page: Page, station: Rig) -> None:
    console(page, station, "rou")
    expect(page.locator("#action")).to_have_text("OPEN BETS")
    sign_in_pit_boss(page)
    page.get_by_role("button", name="CLOSE AFTER THIS ROUND").click()
    page.get_by_role("button", name="END OF SHIFT").click()
    # No round in play: closed at once.
    expect(page.locator("#opening")).to_have_text("TABLE CLOSED BY EVA NOVAK: END OF SHIFT")
    expect(page.locator("#action")).to_have_text("TABLE CLOSED")
    page.keyboard.press("o")
    expect(page.locator("#toast")).to_contain_text("The table is closed: a pit boss opens it")
    # Leave the shared table open for the module's other tests.
    assert station.post("/tables/rou/pit-boss/open", "pit_boss", {}).status_code == 200
    expect(page.locator("#opening")).to_have_text("")
