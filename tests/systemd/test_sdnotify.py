"""The sd_notify client against a real AF_UNIX datagram socket standing in for systemd.

The watchdog tests count datagrams, not seconds: a socket's queue keeps every ping
sent while the event loop is blocked, so draining it right before and right after a
blocking call (without yielding to the loop in between) tells exactly what was sent
during the block.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_station import sdnotify
from dealer_station.start_progress import StartProgress


class FakeManager:
    """The receiving end of NOTIFY_SOCKET, as systemd holds it."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sock.setblocking(False)

    def drain(self) -> list[str]:
        """Every datagram queued so far, oldest first."""
        messages = []
        while True:
            try:
                messages.append(self.sock.recv(4096).decode())
            except BlockingIOError:
                return messages


@pytest.fixture
def manager(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeManager]:
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield FakeManager(sock)


@pytest.fixture(autouse=True)
def no_inherited_systemd_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite itself may run under systemd (a CI runner's unit).
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
        monkeypatch.delenv(name, raising=False)


def test_still_starting_extends_the_start_and_says_how_far_in_one_datagram(
    manager: FakeManager,
) -> None:
    assert sdnotify.still_starting(30.0, "replaying r1\nREADY=1")
    assert manager.drain() == ["EXTEND_TIMEOUT_USEC=30000000\nSTATUS=replaying r1 READY=1"]


def test_reloading_names_the_monotonic_time_of_the_request(manager: FakeManager) -> None:
    before = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    assert sdnotify.reloading()
    after = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    [message] = manager.drain()
    reloading, monotonic = message.split("\n")
    assert reloading == "RELOADING=1"
    key, _, usec = monotonic.partition("=")
    assert key == "MONOTONIC_USEC"
    assert before <= int(usec) <= after


def test_a_replay_reports_once_a_period_and_a_short_one_never(manager: FakeManager) -> None:
    now = [0.0]
    progress = StartProgress(10.0, clock=lambda: now[0])
    record_read = progress.replaying("r1")
    for _ in range(1000):
        record_read()
    assert manager.drain() == []
    now[0] = 10.0
    record_read()
    record_read()  # within the next period: nothing more
    assert manager.drain() == [
        "EXTEND_TIMEOUT_USEC=30000000\nSTATUS=starting: replaying table r1's journal, "
        "1001 records read"
    ]


def test_a_start_that_awaits_reports_from_a_task_until_it_is_done(manager: FakeManager) -> None:
    """Counted, not timed: the body waits for three reports, and none follows it."""

    async def scenario() -> tuple[list[str], list[str]]:
        progress = StartProgress(0.01)
        during: list[str] = []
        async with progress.meanwhile("working out a table"):
            while len(during) < 3:
                await asyncio.sleep(0.005)
                during += manager.drain()
        during += manager.drain()
        await asyncio.sleep(0.1)
        return during, manager.drain()

    during, after = asyncio.run(scenario())
    assert set(during) == {"EXTEND_TIMEOUT_USEC=30000\nSTATUS=starting: working out a table"}
    assert after == []


def test_ready_status_stopping_and_ping_each_send_one_datagram(manager: FakeManager) -> None:
    assert sdnotify.ready()
    assert sdnotify.status("dealing round 42")
    assert sdnotify.watchdog_ping()
    assert sdnotify.stopping()
    assert manager.drain() == ["READY=1", "STATUS=dealing round 42", "WATCHDOG=1", "STOPPING=1"]


def test_notify_sends_the_message_as_given(manager: FakeManager) -> None:
    assert sdnotify.notify("EXTEND_TIMEOUT_USEC=30000000")
    assert manager.drain() == ["EXTEND_TIMEOUT_USEC=30000000"]


def test_a_multiline_status_stays_one_assignment(manager: FakeManager) -> None:
    assert sdnotify.status("shoe lost\nREADY=1")
    assert manager.drain() == ["STATUS=shoe lost READY=1"]


def test_abstract_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"dealer-station-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.ready()
        assert FakeManager(sock).drain() == ["READY=1"]


def test_without_notify_socket_every_call_is_a_no_op() -> None:
    assert not sdnotify.ready()
    assert not sdnotify.status("idle")
    assert not sdnotify.watchdog_ping()
    assert not sdnotify.stopping()


def test_an_unreachable_manager_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens.sock"))
    with caplog.at_level(logging.WARNING, logger="dealer_station.sdnotify"):
        assert not sdnotify.ready()
    assert "could not notify systemd" in caplog.text


def test_a_malformed_notify_socket_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", "relative/notify.sock")
    with caplog.at_level(logging.WARNING, logger="dealer_station.sdnotify"):
        assert not sdnotify.ready()
    assert "neither a path nor an abstract socket" in caplog.text


def test_watchdog_interval_comes_from_watchdog_usec(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sdnotify.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    assert sdnotify.watchdog_interval() == 10.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert sdnotify.watchdog_interval() == 10.0


def test_watchdog_meant_for_another_process_is_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert sdnotify.watchdog_interval() is None


@pytest.mark.parametrize("usec", ["ten seconds", "0", "-5"])
def test_a_nonsense_watchdog_usec_means_no_watchdog(
    usec: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    with caplog.at_level(logging.WARNING, logger="dealer_station.sdnotify"):
        assert sdnotify.watchdog_interval() is None
    assert "WATCHDOG_USEC" in caplog.text


def test_run_watchdog_without_a_watchdog_waits_silently_until_cancelled(
    manager: FakeManager,
) -> None:
    async def scenario() -> None:
        task = asyncio.create_task(sdnotify.run_watchdog())
        await asyncio.sleep(0.2)
        assert not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert manager.drain() == []


def test_run_watchdog_takes_its_interval_from_the_environment(
    manager: FakeManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "200000")

    async def scenario() -> None:
        task = asyncio.create_task(sdnotify.run_watchdog())
        await asyncio.sleep(0.5)
        assert not task.done()
        task.cancel()

    asyncio.run(scenario())
    pings = manager.drain()
    assert pings and set(pings) == {"WATCHDOG=1"}


def test_run_watchdog_rejects_a_nonpositive_interval() -> None:
    with pytest.raises(ValueError, match="positive"):
        asyncio.run(sdnotify.run_watchdog(0.0))


def test_a_blocked_event_loop_sends_no_ping(manager: FakeManager) -> None:
    """The point of pinging from the loop: systemd must notice a stuck loop."""
    interval = 0.1  # a ping every 50 ms

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        watchdog = asyncio.create_task(sdnotify.run_watchdog(interval))
        await asyncio.sleep(0.5)
        before = manager.drain()
        # A stuck handler: 10 ping periods without giving the loop back.
        time.sleep(0.5)
        during = manager.drain()
        await asyncio.sleep(0.5)
        after = manager.drain()
        watchdog.cancel()
        return before, during, after

    before, during, after = asyncio.run(scenario())
    assert len(before) >= 2, before
    assert during == [], "pings arrived while the event loop was blocked"
    assert len(after) >= 2, "pings did not resume once the loop was free"
    assert set(before + after) == {"WATCHDOG=1"}


def test_the_blocked_loop_check_catches_pings_from_a_thread(manager: FakeManager) -> None:
    """The check above is not vacuous: a pinging thread is seen during the block."""
    stop = threading.Event()

    def pinger() -> None:
        while not stop.wait(0.05):
            sdnotify.watchdog_ping()

    thread = threading.Thread(target=pinger)
    thread.start()
    try:
        manager.drain()
        time.sleep(0.5)
        during = manager.drain()
    finally:
        stop.set()
        thread.join()
    assert during, "a thread's pings should have been queued during the block"
