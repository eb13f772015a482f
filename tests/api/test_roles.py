"""Every endpoint against every role: who may, who may not, and that a refused
request (401, 403) leaves the journal exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from prometheus_client import CONTENT_TYPE_LATEST
from support.station_rig import TOKENS, Rig

ALL = {"croupier", "pit_boss", "game_server", "viewer"}
WINDOW = {"croupier", "pit_boss", "game_server"}
DEALER = {"croupier", "pit_boss"}
GAME_SERVER = {"game_server"}
PIT_BOSS = {"pit_boss"}
RECALL = {"pit_boss", "game_server"}

WHY = {"why": "test: role matrix"}

# method, path, body, roles allowed, whether an allowed call journals one input
ENDPOINTS: list[tuple[str, str, dict[str, Any] | None, set[str], bool]] = [
    ("GET", "/tables", None, ALL, False),
    ("GET", "/tables/bac/state", None, ALL, False),
    ("GET", "/tables/bac/rounds", None, RECALL, False),
    ("GET", "/tables/bac/rounds/bac-000001", None, RECALL, False),
    ("POST", "/tables/bac/round/open", None, WINDOW, True),
    ("POST", "/tables/bac/round/close-bets", None, WINDOW, True),
    ("POST", "/tables/bac/round/deal", None, DEALER, True),
    ("POST", "/tables/bac/shoe/new", None, DEALER, True),
    ("POST", "/tables/bac/shoe/shuffle", None, DEALER, True),
    ("POST", "/tables/bac/shoe/burn", {"card": "AS"}, DEALER, True),
    ("POST", "/tables/rou/wheel/result", {"number": 17}, DEALER, True),
    (
        "POST",
        "/tables/bac/bets",
        {"player": "ann", "spot": "banker", "amount": "10"},
        GAME_SERVER,
        True,
    ),
    ("POST", "/tables/bac/bets/cancel", {"player": "ann", "spot": "banker"}, GAME_SERVER, True),
    ("POST", "/tables/bj/decisions", {"box": 1, "action": "hit"}, GAME_SERVER, True),
    (
        "POST",
        "/tables/bj/offers",
        {"box": 1, "player": "ann", "offer": "insurance", "take": True},
        GAME_SERVER,
        True,
    ),
    ("POST", "/tables/bac/pit-boss/void", WHY, PIT_BOSS, True),
    ("POST", "/tables/bac/pit-boss/card", {"card": "KD", "to": "player", **WHY}, PIT_BOSS, True),
    ("POST", "/tables/bac/pit-boss/release", WHY, PIT_BOSS, True),
    ("POST", "/tables/bac/pit-boss/burn", {"card": "KD", **WHY}, PIT_BOSS, True),
    ("POST", "/tables/rou/pit-boss/wheel-result", {"number": 3, **WHY}, PIT_BOSS, True),
    ("POST", "/tables/rou/pit-boss/respin", WHY, PIT_BOSS, True),
    ("GET", "/auth/me", None, ALL, False),
    ("GET", "/auth/pit-bosses", None, DEALER, False),
    ("GET", "/auth/dealers", None, DEALER, False),
    # Signing a dealer on takes a dealer's PIN: tests/adversarial/test_dealer_sign_on.py.
    ("POST", "/tables/bac/dealer/sign-off", None, DEALER, True),
    ("POST", "/auth/pit-boss", {"name": "Jan", "pin": "2580"}, {"croupier"}, False),
    ("POST", "/auth/logout", None, ALL, False),
]

CALLERS = [None, "not-a-token", *sorted(ALL)]


def journal_size(rig: Rig) -> int:
    return sum(len(rig.records(t)) for t in ("bac", "bj", "rou"))


def call(rig: Rig, method: str, path: str, body: dict[str, Any] | None, caller: str | None) -> Any:
    if method == "GET":
        return rig.get(path, caller)
    return rig.post(path, caller, body)


@pytest.fixture(scope="module", autouse=True)
def one_round_played(rig: Rig) -> None:
    """bac-000001 exists, for the round-history endpoint."""
    assert rig.post("/tables/bac/round/open", "croupier").status_code == 200
    assert rig.post("/tables/bac/round/close-bets", "croupier").status_code == 200
    for card in ("9S", "2H", "9H", "3C"):  # a natural 8 for Player, Banker 5
        rig.command("bac", {"type": "card", "card": card}, source="shoe")
    assert rig.next_step("bac")[0] == "settled"


@pytest.mark.parametrize("caller", CALLERS, ids=lambda c: c or "no-token")
@pytest.mark.parametrize(
    ("method", "path", "body", "allowed", "journals"),
    ENDPOINTS,
    ids=[f"{m} {p}" for m, p, *_ in ENDPOINTS],
)
def test_role(
    rig: Rig,
    caller: str | None,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    allowed: set[str],
    journals: bool,
) -> None:
    before = journal_size(rig)
    response = call(rig, method, path, body, caller)
    if caller is None or caller not in TOKENS:
        assert response.status_code == 401, response.text
        assert response.headers["www-authenticate"] == "Bearer"
    elif caller not in allowed:
        assert response.status_code == 403, response.text
        assert caller in response.json()["detail"]
    else:
        assert response.status_code in (200, 202, 204, 409), response.text
        if journals:
            # Accepted or refused by the table, the input is journaled, once.
            rig.wait_until(lambda: journal_size(rig) == before + 1)
            return
    assert journal_size(rig) == before


def test_pages_and_probes_need_no_token(rig: Rig) -> None:
    pages = ("/", "/console/bac", "/overlay/rou", "/floor", "/favicon.ico", "/static/console.js")
    for path in (*pages, "/healthz", "/readyz"):
        assert rig.get(path).status_code == 200, path
    # /metrics is not a page: it needs a token of any role (docs/api.md, Probes).
    assert rig.get("/metrics").status_code == 401
    assert rig.get("/metrics", "viewer").headers["content-type"] == CONTENT_TYPE_LATEST
    assert rig.get("/console/nowhere").status_code == 404


def test_unknown_table_is_404_once_authorised(rig: Rig) -> None:
    assert rig.post("/tables/nowhere/round/open", "croupier").status_code == 404
    assert rig.post("/tables/nowhere/round/open").status_code == 401
