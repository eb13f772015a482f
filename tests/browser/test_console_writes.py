"""What the console's buttons send, in a real Chromium: every press names the
step of the table the console shows (If-Match) and itself (a new
Idempotency-Key), so the station can refuse a press meant for a moment that
has passed (docs/api.md, "Preconditions")."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, Request, expect
from support.station_rig import TOKENS, Rig


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


def _croupier_at_a_round_over(page: Page, station: Rig) -> Locator:
    """The roulette console, signed on as the croupier, at a round that is over; its
    action line. The table is shared with other tests: a round in play is voided."""
    if station.get("/tables/rou/state", "viewer").json()["state"]["next"]["kind"] != "round_open":
        start = {"why": "a fresh round for this test"}
        assert station.post("/tables/rou/pit-boss/void", "pit_boss", start).status_code == 200
    page.goto(f"{station.url}/console/rou#token={TOKENS['croupier']}")
    action = page.locator("#action")
    # The console has the table (a round over, or voided above) before a key is pressed.
    expect(action).to_have_text(re.compile("OPEN BETS|ROUND VOID"))
    return action


def test_a_number_picked_in_a_pad_left_open_across_rounds_is_refused(
    page: Page, station: Rig
) -> None:
    """The issue's stale "confirm 5": the pad was opened for one spin, the round
    ended meanwhile (here a pit boss confirmed 17) and the next round waits for
    its spin. The 5 meant the old spin: the station refuses it as stale and the
    new round still waits for its number."""
    action = _croupier_at_a_round_over(page, station)
    page.keyboard.press("o")
    expect(action).to_have_text("BETS OPEN")
    page.keyboard.press("n")
    expect(action).to_have_text("NO MORE BETS: SPIN")
    page.keyboard.press("r")
    page.locator(".pad.numbers").get_by_role("button", name="5", exact=True).click()
    confirm = page.locator("#modal").get_by_role("button", name="5 RED - CONFIRM")
    expect(confirm).to_be_visible()

    why = {"number": 17, "why": "camera unsure: checked"}
    assert station.post("/tables/rou/pit-boss/wheel-result", "pit_boss", why).status_code == 200
    assert station.post("/tables/rou/round/open", "croupier").status_code == 200
    assert station.post("/tables/rou/round/close-bets", "croupier").status_code == 200
    waiting = station.get("/tables/rou/state", "viewer").json()["state"]
    expect(action).to_have_text("NO MORE BETS: SPIN")

    with page.expect_response(lambda r: r.url.endswith("/tables/rou/wheel/result")) as sent:
        confirm.click()
    assert sent.value.status == 409 and sent.value.json()["reason"] == "stale"
    expect(page.locator("#modal")).not_to_be_visible()
    now = station.get("/tables/rou/state", "viewer").json()["state"]
    assert (now["round"], now["next"]["kind"]) == (waiting["round"], "wheel")


def test_a_second_press_landing_after_the_first_was_answered_sends_nothing(
    page: Page, station: Rig
) -> None:
    """A double-click on a fast station: the first press is answered before the
    second lands. Disabled only while in flight, the button took the second press and
    sent it again (the station refused it as stale, and the croupier saw an error for
    a press that had worked). Lands on the still-disabled button: no second request."""
    action = _croupier_at_a_round_over(page, station)
    opens: list[Request] = []
    page.on("request", lambda r: opens.append(r) if posted("/round/open")(r) else None)
    open_bets = page.get_by_role("button", name="OPEN BETS")
    open_bets.click()
    expect(page.locator("#toast")).to_have_text("DONE")
    # A mouse's second press lands wherever the button is: no wait for it to be enabled.
    open_bets.click(force=True)
    expect(open_bets).to_be_enabled()
    expect(action).to_have_text("BETS OPEN")
    assert len(opens) == 1, [r.url for r in opens]
