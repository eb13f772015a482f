"""Tell systemd how the station is doing: the sd_notify protocol, pure stdlib.

The unit (``systemd/dealer-station.service``) is ``Type=notify`` with a watchdog.
The station calls :func:`ready` once it serves the table, :func:`status` whenever
the one-line summary in ``systemctl status`` should change, :func:`still_starting`
while a long start (a replay) keeps it from being ready, :func:`reloading` when a
SIGHUP makes it re-read its config (then :func:`ready` again), :func:`stopping` when
it begins a clean shutdown (:func:`draining` while it waits for the rounds in
play first), and keeps :func:`run_watchdog` running as a task of its
event loop.

Outside systemd (``NOTIFY_SOCKET`` unset: a developer's shell, the tests, the demo)
every call is a no-op that returns ``False``.

Protocol: sd_notify(3). One datagram of newline-separated ``KEY=VALUE`` lines to the
``AF_UNIX`` socket named by ``$NOTIFY_SOCKET``; a name starting with ``@`` is in the
abstract namespace.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time

__all__ = [
    "draining",
    "notify",
    "ready",
    "reloading",
    "run_watchdog",
    "status",
    "still_starting",
    "stopping",
    "watchdog_interval",
    "watchdog_ping",
]

log = logging.getLogger(__name__)


def _socket_address(name: str) -> str | None:
    if name.startswith("@"):
        return "\0" + name[1:]
    if name.startswith("/"):
        return name
    return None


def notify(message: str) -> bool:
    """Send ``message`` to the service manager.

    Returns True when the datagram was delivered, False when the process does not
    run under systemd or the delivery failed (logged as a warning). Never raises on
    a delivery problem: a table keeps dealing even if systemd cannot hear it, and a
    watchdog that stops hearing pings restarts the station anyway.
    """
    name = os.environ.get("NOTIFY_SOCKET")
    if not name:
        return False
    address = _socket_address(name)
    if address is None:
        log.warning("NOTIFY_SOCKET=%r is neither a path nor an abstract socket", name)
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        # Called from the event loop: a manager too busy to drain its queue must
        # cost us a missed message, not a stalled table.
        sock.setblocking(False)
        try:
            sock.sendto(message.encode(), address)
        except OSError as error:
            log.warning("could not notify systemd at %s: %s", name, error)
            return False
    return True


def ready() -> bool:
    """The station has replayed its journal and serves the table."""
    return notify("READY=1")


def stopping() -> bool:
    """A clean shutdown has begun (``systemctl status`` shows "deactivating")."""
    return notify("STOPPING=1")


def draining(rounds: int) -> bool:
    """A stop has begun and waits for ``rounds`` rounds in play to settle: the
    unit is "deactivating" and ``systemctl status`` says how many are left."""
    return notify(f"STOPPING=1\n{_status_line(f'draining: {rounds} rounds in play')}")


def _status_line(text: str) -> str:
    # A newline would start a new KEY=VALUE assignment in the datagram.
    return "STATUS=" + " ".join(text.splitlines())


def status(text: str) -> bool:
    """Set the one-line status shown by ``systemctl status dealer-station``."""
    return notify(_status_line(text))


def still_starting(seconds: float, text: str) -> bool:
    """The start goes on: give it ``seconds`` more from now before systemd's start
    timeout (``EXTEND_TIMEOUT_USEC``) and say how far it is (``STATUS=``), in one
    datagram. No watchdog ping: systemd arms the watchdog only once the start is
    over (``READY=1``)."""
    usec = max(1, round(seconds * 1_000_000))
    return notify(f"EXTEND_TIMEOUT_USEC={usec}\n{_status_line(text)}")


def reloading() -> bool:
    """A reload of the config has begun; :func:`ready` says it is over.

    ``MONOTONIC_USEC`` is the time of the request on CLOCK_MONOTONIC, which
    systemd 253's ``Type=notify-reload`` requires with ``RELOADING=1`` and older
    managers ignore."""
    usec = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
    return notify(f"RELOADING=1\nMONOTONIC_USEC={usec}")


def watchdog_ping() -> bool:
    """Tell the service manager the station is alive."""
    return notify("WATCHDOG=1")


def watchdog_interval() -> float | None:
    """The watchdog timeout in seconds, or None when no watchdog watches this process.

    systemd sets ``WATCHDOG_USEC`` from ``WatchdogSec=`` and ``WATCHDOG_PID`` to the
    main process; a child that inherited the environment is not the one watched.
    """
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    try:
        value = int(usec)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number of microseconds", usec)
        return None
    if value <= 0:
        log.warning("WATCHDOG_USEC=%r is not a positive number of microseconds", usec)
        return None
    return value / 1_000_000


async def run_watchdog(interval: float | None = None) -> None:
    """Ping the watchdog every ``interval / 2`` seconds until cancelled.

    ``interval`` defaults to :func:`watchdog_interval`. Without a watchdog it sends
    nothing and still waits for its cancellation, so that a caller that treats the
    end of any of its tasks as a failure (``asyncio.wait(FIRST_COMPLETED)``) runs
    the same in a developer's shell as under systemd.

    The pings come from this coroutine, on the event loop's own thread, on purpose:
    a loop blocked by a stuck call cannot run it, the pings stop, and systemd
    restarts the station. A thread would keep pinging for a loop that no longer
    serves the table.
    """
    if interval is None:
        interval = watchdog_interval()
        if interval is None:
            await asyncio.get_running_loop().create_future()
            return
    if interval <= 0:
        raise ValueError(f"watchdog interval must be positive, not {interval}")
    while True:
        watchdog_ping()
        await asyncio.sleep(interval / 2)
