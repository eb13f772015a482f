"""The smaller edges of issue 13 over real HTTP and WebSocket: a PIN session ends
its live feeds, NaN and Infinity are refused with a reason, /metrics needs a token
unless the config opens it, /docs loads nothing from elsewhere, and every answer
carries the page policy."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support.broker import Broker
from support.station_rig import PIT_BOSSES, TABLES, TOKENS, Rig, running, station_config
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dealer_station.api import auth


def feed(rig: Rig, token: str) -> ClientConnection:
    conn = connect(rig.url.replace("http", "ws") + "/tables/bac/ws", open_timeout=10)
    conn.send(json.dumps({"token": token}))
    conn.recv(timeout=10)  # the snapshot has begun: the token was taken
    return conn


def closed_with(conn: ClientConnection) -> int:
    """Read until the station closes the socket; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(100):  # heartbeats and snapshots until then
            conn.recv(timeout=15)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def pin_session(rig: Rig) -> str:
    name = "Eva Novak"
    granted = rig.post("/auth/pit-boss", "croupier", {"name": name, "pin": PIT_BOSSES[name]})
    assert granted.status_code == 200, granted.text
    token: str = granted.json()["token"]
    return token


def test_logging_out_closes_the_sessions_feed(rig: Rig) -> None:
    token = pin_session(rig)
    with feed(rig, token) as conn, feed(rig, TOKENS["viewer"]) as other:
        assert rig.post("/auth/logout", token).status_code == 204
        assert closed_with(conn) == 4401
        # A feed opened with a token from the config is not touched.
        other.recv(timeout=10)


def test_an_expired_session_closes_its_feed(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    # The station runs in this process: a session granted now lasts one second.
    monkeypatch.setattr(auth, "SESSION_SECONDS", 1.0)
    token = pin_session(rig)
    with feed(rig, token) as conn:
        assert closed_with(conn) == 4401
    assert rig.get("/auth/me", token).status_code == 401


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_json_does_not_have_is_422_with_a_reason(rig: Rig, number: str) -> None:
    body = '{"player": "p1", "spot": "tie", "amount": ' + number + "}"
    response = httpx.post(
        rig.url + "/tables/bac/bets",
        content=body,
        headers={**rig.headers("game_server"), "Content-Type": "application/json"},
    )
    assert response.status_code == 422, response.text
    assert "finite" in response.json()["detail"]


def test_the_token_is_checked_before_the_body_is_read(rig: Rig) -> None:
    # A body too big to be read, sent without a token: the token decides first.
    for path in ("/tables", "/tables/bac/bets", "/auth/pit-boss"):
        response = httpx.post(rig.url + path, content=b"x" * 100_000)
        assert response.status_code == 401, path
    # With a token, the size decides, before anything parses the body.
    response = httpx.post(
        rig.url + "/tables/bac/bets", content=b"x" * 100_000, headers=rig.headers("game_server")
    )
    assert response.status_code == 413


def test_metrics_need_a_token(rig: Rig) -> None:
    assert rig.get("/metrics").status_code == 401
    assert rig.get("/metrics", "not-a-token").status_code == 401
    assert "dealer_station_rounds_opened_total" in rig.get("/metrics", "viewer").text


@pytest.fixture
def open_metrics(module_broker: Broker, tmp_path: Path) -> Iterator[Rig]:
    config = station_config(tmp_path, module_broker.port, TABLES[:1], http={"metrics_open": True})
    with running(config) as station:
        yield station


def test_the_config_can_open_metrics(open_metrics: Rig) -> None:
    assert "dealer_station_rounds_opened_total" in open_metrics.get("/metrics").text
    # Only /metrics: the API still needs its token.
    assert open_metrics.get("/tables/bac/state").status_code == 401


def test_docs_load_nothing_from_elsewhere(rig: Rig) -> None:
    page = rig.get("/docs")
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(s.startswith("/") and not s.startswith("//") for s in sources)
    assert "<script>" not in page.text  # no inline code: the CSP forbids it
    for source in sources:
        assert rig.get(source).status_code == 200, source
    assert rig.get("/redoc").status_code == 404  # FastAPI's, which loads a CDN


@pytest.mark.parametrize(
    "path",
    ["/", "/console/bac", "/overlay/bac", "/floor", "/docs", "/static/console.js", "/healthz"],
)
def test_every_answer_carries_the_page_policy(rig: Rig, path: str) -> None:
    headers = rig.get(path).headers
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert f"ws://127.0.0.1:{rig.port}" in policy
    frame = "frame-ancestors *" if path.startswith("/overlay/") else "frame-ancestors 'none'"
    assert frame in policy
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_forged_host_does_not_write_the_policy(rig: Rig) -> None:
    forged = httpx.get(rig.url + "/", headers={"Host": "evil; script-src *"})
    assert "script-src" not in forged.headers["content-security-policy"]
