"""What the console's buttons send, in a real Chromium: every press names the
step of the table the console shows (If-Match) and itself (a new
Idempotency-Key), so the station can refuse a press meant for a moment that
has passed (docs/api.md, "Preconditions")."""

from __future__ import annotations

import re

from api.station_rig import TOKENS, Rig
from playwright.sync_api import Page, Request, expect


def posted(path: str) -> object:
    return lambda r: isinstance(r, Request) and r.method == "POST" and r.url.endswith(path)


def test_each_press_names_the_step_on_screen_and_itself(page: Page, station: Rig) -> None:
    page.goto(f"{station.url}/console/rou#token={TOKENS['croupier']}")
    action = page.locator("#action")
    expect(action).to_have_text("OPEN BETS")
    shown = station.step("rou")
    with page.expect_request(posted("/tables/rou/round/open")) as opened:
        page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    assert opened.value.headers["if-match"] == f'"{shown}"'
    betting = station.step("rou")
    assert betting != shown
    with page.expect_request(posted("/tables/rou/round/close-bets")) as closed:
        page.keyboard.press("n")
    expect(action).to_have_text("NO MORE BETS: SPIN")
    assert closed.value.headers["if-match"] == f'"{betting}"'
    keys = [r.headers["idempotency-key"] for r in (opened.value, closed.value)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", k) for k in keys) and keys[0] != keys[1]
