"""The broadcast overlay in a real Chromium over a real station, its shoes on
real PTYs: each game through the phases a round goes through, drawn at 1280x720,
1920x1080 and 3840x2160 with no two texts, cards or panels on top of each other,
nothing past the canvas and no row of cards wrapped (support/overlay_layout.py);
what it draws from the round, the result and the statistics; its options and
CasparCG's template hooks. Screenshots go to artifacts/screenshots/overlay-*.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from support.browser_pages import shot
from support.overlay_layout import layout_faults
from support.station_rig import TOKENS, Rig

from dealer_station.games.roulette_layout import RED, WHEEL_ORDER
from drivers.shoe.simulator import FramedShoeSimulator

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
CSS = Path(__file__).resolve().parents[2] / "dealer_station" / "web" / "overlay.css"


def overlay(page: Page, rig: Rig, table: str, query: str = "") -> None:
    page.goto(f"{rig.url}/overlay/{table}{query}#token={TOKENS['viewer']}")
    expect(page.locator("body")).not_to_have_class(re.compile("stale"))


def drawn(page: Page, rig: Rig, table: str) -> None:
    """Wait until the overlay draws the table's state as the station has it now."""
    seq = rig.get(f"/tables/{table}/state", "viewer").json()["state"]["seq"]
    page.wait_for_function(
        "seq => window.__drawnSeq >= seq", arg=seq, timeout=15_000, polling="raf"
    )


def laid_out(page: Page, name: str, shots: tuple[tuple[int, int], ...] = ((1920, 1080),)) -> None:
    """At every size: no fault; a screenshot at the sizes asked."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        faults = layout_faults(page)
        assert not faults, f"{name} at {width}x{height}:\n" + "\n".join(faults)
        if (width, height) in shots:
            shot(page, f"overlay-{name}-{width}x{height}", omit_background=True)
    page.set_viewport_size({"width": 1920, "height": 1080})


@pytest.fixture
def watched(page: Page) -> Page:
    # The page says which state it drew; the test waits on that, not on time.
    page.add_init_script(
        "document.addEventListener('overlay:drawn', e => { window.__drawnSeq = e.detail.seq; });"
    )
    page.set_viewport_size({"width": 1920, "height": 1080})
    return page


def stack(shoe: FramedShoeSimulator, *cards: str) -> None:
    shoe.cards_left.extend(reversed(cards))


def deal(rig: Rig, table: str, shoe: FramedShoeSimulator, count: int) -> None:
    """Each card off the shoe, once the table journaled the one before."""
    for _ in range(count):
        before = len(rig.records(table))
        shoe.draw()
        rig.wait_until(lambda: len(rig.records(table)) > before)  # noqa: B023


def ok(rig: Rig, path: str, role: str, body: object = None) -> None:
    answer = rig.post(path, role, body)
    assert answer.status_code == 200, answer.text


# Baccarat rounds for the roads, dealt Player, Banker, Player, Banker: naturals.
NATURALS = [
    ("4S", "2C", "5D", "3H"),  # player 9 : 5
    ("2S", "4C", "3D", "4H"),  # player 5 : banker 8
    ("4D", "2D", "4C", "6H"),  # 8 : 8, a tie
    ("9S", "3C", "KD", "4S"),  # player 9 : 7
]


def test_baccarat_through_a_round(
    watched: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    page, shoe = watched, shoes["bac"]
    for cards in NATURALS:
        ok(station, "/tables/bac/round/open", "croupier")
        ok(station, "/tables/bac/round/close-bets", "croupier")
        stack(shoe, *cards)
        deal(station, "bac", shoe, 4)
    overlay(page, station, "bac")
    ok(station, "/tables/bac/round/open", "croupier")
    bet = {"player": "ann", "spot": "banker", "amount": "500"}
    ok(station, "/tables/bac/bets", "game_server", bet)
    drawn(page, station, "bac")
    banner = page.locator("#banner .banner")
    expect(banner.locator(".title")).to_have_text("PLACE YOUR BETS")
    expect(banner.locator(".countdown")).to_have_text(re.compile(r"^(59\d|600)$"))
    round_id = station.get("/tables/bac/state", "viewer").json()["state"]["round"]
    expect(page.locator("#head")).to_contain_text(f"ROUND {round_id}")
    # Two player wins, one banker, one tie, a banker pair (4C 4H), a player pair
    # (4D 4C) in the shoe so far; its cards left.
    expect(page.locator(".tally")).to_contain_text("B 1 P 2 T 1 BP 1 PP 1")
    expect(page.locator(".tally .left")).to_have_text(re.compile(r"^\d+ CARDS LEFT$"))
    expect(page.locator(".road-bead .mark")).to_have_count(4)
    expect(page.locator(".ask")).to_have_count(2)
    laid_out(page, "baccarat-bets", shots=((1280, 720), (1920, 1080)))

    ok(station, "/tables/bac/round/close-bets", "croupier")
    # Player 2 3 (5) draws 7 (2); banker 4 2 (6) draws on a 7: 3, so 9.
    stack(shoe, "2S", "4C", "3D", "2H", "7C", "3H")
    deal(station, "bac", shoe, 4)
    drawn(page, station, "bac")
    expect(page.locator("#banner .banner")).to_have_count(0)
    laid_out(page, "baccarat-cards")
    deal(station, "bac", shoe, 2)
    drawn(page, station, "bac")
    expect(page.locator("#banner .title")).to_have_text("BANKER WINS")
    expect(page.locator("#banner .sub")).to_have_text("BANKER 9 - PLAYER 2")
    expect(page.locator(".side.banker")).to_have_class(re.compile(r"\bwon\b"))
    expect(page.locator(".side.player")).not_to_have_class(re.compile(r"\bwon\b"))
    expect(page.locator(".side.banker .card")).to_have_count(3)
    laid_out(page, "baccarat-result", shots=tuple(SIZES))


def test_blackjack_through_a_round(
    watched: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    page, shoe = watched, shoes["bj"]
    overlay(page, station, "bj")
    ok(station, "/tables/bj/round/open", "croupier")
    for box, player in enumerate(("ann", "bob", "cy", "dee", "eve"), 1):
        ok(
            station,
            "/tables/bj/bets",
            "game_server",
            {"player": player, "spot": "main", "box": box, "amount": "100"},
        )
    drawn(page, station, "bj")
    expect(page.locator("#banner .title")).to_have_text("PLACE YOUR BETS")
    expect(page.locator(".box-head").first).to_have_text("BOX 1 100")
    laid_out(page, "blackjack-bets")

    ok(station, "/tables/bj/round/close-bets", "croupier")
    # Box 1 blackjack, 2: 19, 3: 16, 4: 17, 5: 16; the dealer 6, then 2 3 A 5: 17 in five cards.
    stack(shoe, "AH", "TS", "TD", "TC", "TH", "6S", "KH", "9S", "6D", "7C", "6C")
    deal(station, "bj", shoe, 11)
    for box, action in ((2, "stand"), (3, "stand"), (4, "stand")):
        ok(station, "/tables/bj/decisions", "game_server", {"box": box, "action": action})
    drawn(page, station, "bj")
    laid_out(page, "blackjack-decision")
    stack(shoe, "2D", "3S", "AC", "5H")
    ok(station, "/tables/bj/decisions", "game_server", {"box": 5, "action": "surrender"})
    deal(station, "bj", shoe, 4)
    drawn(page, station, "bj")
    expect(page.locator("#table .dealer .card")).to_have_count(5)
    expect(page.locator("#table .dealer h2")).to_have_text("DEALER 17")
    expect(page.locator("#banner .title")).to_have_text("DEALER 17")
    expect(page.locator(".outcome")).to_have_text(
        ["BLACKJACK +150", "WIN +100", "LOSE -100", "PUSH 0", "SURRENDER -50"]
    )
    laid_out(page, "blackjack-result", shots=tuple(SIZES))

    # The next round: the dealer busts.
    ok(station, "/tables/bj/round/open", "croupier")
    ok(
        station,
        "/tables/bj/bets",
        "game_server",
        {"player": "ann", "spot": "main", "box": 7, "amount": "25"},
    )
    ok(station, "/tables/bj/round/close-bets", "croupier")
    stack(shoe, "TS", "6H", "9D", "TC", "8S")
    deal(station, "bj", shoe, 3)
    ok(station, "/tables/bj/decisions", "game_server", {"box": 7, "action": "stand"})
    deal(station, "bj", shoe, 2)
    drawn(page, station, "bj")
    expect(page.locator("#table .dealer h2")).to_have_text("DEALER 24 BUST")
    expect(page.locator(".outcome")).to_have_text(["WIN +25"])
    laid_out(page, "blackjack-dealer-busts")


def test_roulette_through_a_round(watched: Page, station: Rig) -> None:
    page = watched
    numbers = (17, 32, 17, 0, 5, 26, 17, 11, 36, 2, 14)
    for number in numbers:
        ok(station, "/tables/rou/round/open", "croupier")
        ok(station, "/tables/rou/round/close-bets", "croupier")
        ok(station, "/tables/rou/wheel/result", "croupier", {"number": number})
    overlay(page, station, "rou")
    ok(station, "/tables/rou/round/open", "croupier")
    drawn(page, station, "rou")
    expect(page.locator("#banner .title")).to_have_text("PLACE YOUR BETS")
    last = page.locator(".last .pocket")
    expect(last).to_have_count(len(numbers))
    expect(last.first).to_have_text("14")
    expect(last.first).to_have_class(re.compile(r"\bred\b"))
    expect(page.locator(".counted.hot").first).to_have_text("173x")
    # The shares are counted here from the numbers played, as a viewer would.
    reds = sum(1 for n in numbers if n in RED)
    expect(page.locator(".share.red .pct")).to_have_text(f"{round(100 * reds / len(numbers), 1)}%")
    dozens = sum(1 for n in numbers if 1 <= n <= 12)
    expect(page.locator(".share.first .pct")).to_have_text(
        f"{round(100 * dozens / len(numbers), 1)}%"
    )
    expect(page.locator(".racetrack .slot")).to_have_count(37)
    laid_out(page, "roulette-bets", shots=((1280, 720), (1920, 1080)))
    ok(station, "/tables/rou/round/close-bets", "croupier")
    drawn(page, station, "rou")
    expect(page.locator("#banner .title")).to_have_text("NO MORE BETS")
    expect(page.locator("#banner .sub")).to_have_count(0)  # a person closed: no reason
    laid_out(page, "roulette-no-more-bets")
    ok(station, "/tables/rou/wheel/result", "croupier", {"number": 23})
    drawn(page, station, "rou")
    expect(page.locator("#banner .title")).to_have_text("23 RED")
    expect(page.locator(".racetrack .now")).to_have_text("23" + "1")
    laid_out(page, "roulette-result", shots=tuple(SIZES))
    # The camera closes betting from the ball's speed: the viewers read why.
    ok(station, "/tables/rou/round/open", "croupier")
    closed = station.command(
        "rou", {"type": "bets_closed", "reason": "below_revs_per_s"}, source="camera"
    )
    assert closed.accepted
    drawn(page, station, "rou")
    expect(page.locator("#banner .title")).to_have_text("NO MORE BETS")
    expect(page.locator("#banner .sub")).to_have_text("THE BALL IS SLOWING")
    laid_out(page, "roulette-closed-by-the-ball")
    ok(station, "/tables/rou/wheel/result", "croupier", {"number": 4})


def test_the_racetrack_is_the_wheel_of_the_rules(watched: Page, station: Rig) -> None:
    overlay(watched, station, "rou")
    assert watched.evaluate("WHEEL_ORDER") == list(WHEEL_ORDER)
    assert set(watched.evaluate("[...RED]")) == set(RED)


def test_casparcg_cues_the_overlay(watched: Page, station: Rig) -> None:
    page = watched
    overlay(page, station, "rou", "?start=stopped")
    body = page.locator("body")
    expect(body).to_have_class(re.compile(r"\boff-air\b"))
    page.evaluate("play()")
    expect(body).not_to_have_class(re.compile(r"\boff-air\b"))
    expect(body).to_have_css("opacity", "1")
    page.evaluate("stop()")
    expect(body).to_have_css("opacity", "0")
    page.evaluate("play()")
    expect(body).to_have_attribute("data-layout", "full")
    page.evaluate("next()")
    expect(body).to_have_attribute("data-layout", "cards")
    expect(page.locator("#side")).to_be_hidden()
    xml = (
        '<templateData><componentData id="layout"><data id="text" value="stats"/>'
        '</componentData><componentData id="theme"><data id="text" value="light"/>'
        "</componentData></templateData>"
    )
    assert page.evaluate("xml => update(xml)", xml) == {"ok": True}
    expect(body).to_have_attribute("data-layout", "stats")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.locator("#table")).to_be_hidden()
    assert page.evaluate('update(\'{"layout": "full"}\')') == {"ok": True}
    expect(body).to_have_attribute("data-layout", "full")
    # Anything it does not know changes nothing, and says why.
    refused = page.evaluate('update(\'{"layout": "full", "theme": "neon"}\')')
    assert refused["ok"] is False and "neon" in refused["reason"]
    refused = page.evaluate("update('{\"layout\": ')")
    assert refused["ok"] is False and "not read" in refused["reason"]
    # What a CasparCG client sends before play() when it has no data.
    assert page.evaluate("update('<templateData></templateData>')") == {"ok": True}
    assert page.evaluate("update('')") == {"ok": True}
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.evaluate("next()")
    page.evaluate("next()")
    expect(body).to_have_attribute("data-layout", "stats")


def test_query_options_choose_layout_and_theme(watched: Page, station: Rig) -> None:
    page = watched
    overlay(page, station, "bac", "?layout=cards&theme=light")
    expect(page.locator("body")).to_have_attribute("data-layout", "cards")
    light = page.locator(".side.player").evaluate("e => getComputedStyle(e).backgroundColor")
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    overlay(page, station, "bac", "?layout=sideways")
    expect(page.locator("body")).to_have_attribute("data-layout", "full")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.locator(".side.player").evaluate("e => getComputedStyle(e).backgroundColor")
    assert light != dark
    assert any("sideways" in w for w in warnings), warnings


# A colour written as a value: hex, a colour function or a common name.
COLOUR = re.compile(
    r"#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(|"
    r"\b(white|black|red|green|blue|gr[ae]y|yellow|orange|gold|silver)\b",
    re.I,
)


def test_every_colour_of_the_overlay_is_a_theme_property() -> None:
    css = re.sub(r"/\*.*?\*/", "", CSS.read_text(), flags=re.S)
    written = [
        (prop.strip(), value.strip())
        for block in re.findall(r"\{([^{}]*)\}", css)
        for prop, _, value in (d.partition(":") for d in block.split(";") if ":" in d)
    ]
    assert written, "no declarations read"
    hard = [
        f"{p}: {v}"
        for p, v in written
        if not p.startswith("--") and COLOUR.search(re.sub(r"var\(--[\w-]+\)", "", v))
    ]
    assert not hard, f"colours outside the theme's custom properties: {hard}"


def test_seven_boxes_of_five_cards_fit_the_canvas(
    watched: Page, station: Rig, shoes: dict[str, FramedShoeSimulator]
) -> None:
    """A full table where every box draws to five cards (Live blackjack has seven
    boxes, docs/rules.md): the cards get smaller, nothing runs past the canvas."""
    page, shoe = watched, shoes["bj"]
    overlay(page, station, "bj")
    ok(station, "/tables/bj/round/open", "croupier")
    for box in range(1, 8):
        bet = {"player": f"p{box}", "spot": "main", "box": box, "amount": "100"}
        ok(station, "/tables/bj/bets", "game_server", bet)
    ok(station, "/tables/bj/round/close-bets", "croupier")
    # Each box 2 3 4 2 3 (14 in five cards), the suits turned so no card of an
    # eight-deck shoe is asked for more than it holds; the dealer 6 T 4: 20.
    suits = "SHDC"
    hands = [
        [f"{rank}{suits[(box + i) % 4]}" for i, rank in enumerate("23423")] for box in range(7)
    ]
    # Live blackjack deals no hole card: a card each box, the dealer's, a card each box.
    stack(shoe, *[h[0] for h in hands], "6S", *[h[1] for h in hands])
    deal(station, "bj", shoe, 15)
    for box, hand in enumerate(hands, 1):
        for card in hand[2:]:
            ok(station, "/tables/bj/decisions", "game_server", {"box": box, "action": "hit"})
            stack(shoe, card)
            deal(station, "bj", shoe, 1)
        ok(station, "/tables/bj/decisions", "game_server", {"box": box, "action": "stand"})
    stack(shoe, "TD", "4C")
    deal(station, "bj", shoe, 2)
    drawn(page, station, "bj")
    expect(page.locator("#table .box .card")).to_have_count(35)
    expect(page.locator("#table .dealer h2")).to_have_text("DEALER 20")
    expect(page.locator(".outcome")).to_have_text(["LOSE -100"] * 7)
    laid_out(page, "blackjack-seven-boxes-of-five", shots=tuple(SIZES))
