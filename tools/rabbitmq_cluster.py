"""A three-node RabbitMQ cluster on this machine, speaking MQTT 3.1.1 (Debian's
``rabbitmq-server`` and its ``rabbitmq_mqtt`` plugin; ``./dev test`` installs it).

    python tools/rabbitmq_cluster.py start /tmp/rmq   # prints the MQTT ports, stays up
    python tools/rabbitmq_cluster.py stop /tmp/rmq    # from another shell: the end of both

From Python (the failover test, a benchmark)::

    with RabbitCluster(Path("/tmp/rmq")) as cluster:
        ports = [node.mqtt_port for node in cluster.nodes]
        cluster.kill(cluster.nodes[0])   # kill -9 of that node's Erlang VM

Each node has its own node name (``rabbit1@localhost`` ...), its own AMQP, Erlang
distribution and MQTT ports on 127.0.0.1, and its own data and log directory
under DIR; the three share one Erlang cookie (DIR/.erlang.cookie, found through
``HOME``) and an epmd of their own on a port of their own, so two clusters (a
test's and a benchmark's) run side by side without their node names meeting.
The first node starts alone; the two others find it through the classic-config
peer discovery and join it on their first boot. MQTT clients log in as nobody:
the plugin maps them to ``guest``, which RabbitMQ allows from loopback only.

DIR/cluster.json says what runs (ports and process ids), for ``stop`` and for a
benchmark in another process. Each start begins from empty nodes (a node
directory left by an earlier run is removed): a node restarted on an old
cluster's data would wait for the peer that stopped last.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType

RABBITMQ_BIN = Path("/usr/lib/rabbitmq/bin")
# The scripts themselves, not /usr/sbin's wrappers, which switch to the rabbitmq
# user and its /var/lib/rabbitmq.
SERVER = RABBITMQ_BIN / "rabbitmq-server"
CTL = RABBITMQ_BIN / "rabbitmqctl"
EPMD = shutil.which("epmd") or "/usr/bin/epmd"
NODES = 3
# A node's boot on two shared cores takes seconds; joining the cluster adds some.
BOOT_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Node:
    """One node of the cluster: its name, ports and directory."""

    name: str
    mqtt_port: int
    amqp_port: int
    dist_port: int
    directory: str

    @property
    def pid_file(self) -> Path:
        return Path(self.directory) / "beam.pid"

    def pid(self) -> int | None:
        """The process id of the node's Erlang VM, once it has written it."""
        try:
            return int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None


def free_ports(count: int) -> list[int]:
    """``count`` distinct free loopback ports (all held open while chosen)."""
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(count):
            sock = stack.enter_context(socket.socket())
            sock.bind(("127.0.0.1", 0))
            ports.append(int(sock.getsockname()[1]))
        return ports


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class RabbitCluster:
    """The cluster under ``directory`` (made if need be): `start`, `kill` a node,
    `stop`; a context manager that starts and stops it."""

    def __init__(self, directory: Path, size: int = NODES) -> None:
        self.directory = directory.resolve()
        ports = free_ports(3 * size + 1)
        self.epmd_port = ports.pop()
        self.nodes = [
            Node(
                name=f"rabbit{n}@localhost",
                mqtt_port=ports[3 * (n - 1)],
                amqp_port=ports[3 * (n - 1) + 1],
                dist_port=ports[3 * (n - 1) + 2],
                directory=str(self.directory / f"rabbit{n}"),
            )
            for n in range(1, size + 1)
        ]
        self._epmd: subprocess.Popen[bytes] | None = None
        self._servers: dict[str, subprocess.Popen[bytes]] = {}
        # How long the last start took, from the first node's launch to a cluster of all.
        self.start_seconds = 0.0

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        if not SERVER.exists():
            raise RuntimeError(
                "rabbitmq-server is not installed: run ./dev test, which installs it"
            )
        began = time.monotonic()
        self.directory.mkdir(parents=True, exist_ok=True)
        cookie = self.directory / ".erlang.cookie"
        if not cookie.exists():
            cookie.write_text(secrets.token_hex(16))
        cookie.chmod(0o400)  # Erlang refuses a cookie others can read
        self._epmd = subprocess.Popen(
            [EPMD, "-port", str(self.epmd_port), "-address", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        first, *others = self.nodes
        self._launch(first, seed=None)
        self._await_mqtt([first])
        for node in others:
            self._launch(node, seed=first)
        self._await_mqtt(others)
        running = self.running_nodes(first)
        if sorted(running) != sorted(node.name for node in self.nodes):
            raise RuntimeError(f"the nodes did not form one cluster: running {running}")
        self.start_seconds = time.monotonic() - began
        self._write_state()

    def stop(self) -> None:
        """Stop every node still running (SIGTERM: the VM's clean shutdown), then epmd."""
        stop_processes([pid for node in self.nodes if (pid := node.pid()) is not None])
        for server in self._servers.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=STOP_TIMEOUT_S)
        self._servers.clear()
        if self._epmd is not None:
            self._epmd.terminate()
            self._epmd.wait(timeout=STOP_TIMEOUT_S)
            self._epmd = None

    def kill(self, node: Node) -> None:
        """``kill -9`` of the node's Erlang VM: its connections drop with no goodbye."""
        pid = node.pid()
        if pid is None:
            raise RuntimeError(f"{node.name} has no process to kill")
        os.kill(pid, signal.SIGKILL)
        server = self._servers.pop(node.name, None)
        if server is not None:
            server.wait(timeout=STOP_TIMEOUT_S)

    def __enter__(self) -> RabbitCluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    # -- the nodes ----------------------------------------------------------------------------

    def running_nodes(self, via: Node) -> list[str]:
        """The cluster's running nodes, as ``via`` sees them (rabbitmqctl)."""
        out = subprocess.run(
            [str(CTL), "-n", via.name, "cluster_status", "--formatter", "json"],
            env=self._env(),
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        names: list[str] = json.loads(out)["running_nodes"]
        return names

    def _env(self) -> dict[str, str]:
        """What every node and rabbitmqctl share: the cookie (in HOME) and epmd."""
        return {**os.environ, "HOME": str(self.directory), "ERL_EPMD_PORT": str(self.epmd_port)}

    def _launch(self, node: Node, seed: Node | None) -> None:
        directory = Path(node.directory)
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        conf = directory / "rabbitmq.conf"
        lines = [
            f"listeners.tcp.1 = 127.0.0.1:{node.amqp_port}",
            f"mqtt.listeners.tcp.1 = 127.0.0.1:{node.mqtt_port}",
            "mqtt.allow_anonymous = true",
            "mqtt.vhost = /",
            "mqtt.default_user = guest",
            "mqtt.default_pass = guest",
            "log.console = false",
            f"log.file = {directory / 'log' / 'rabbit.log'}",
        ]
        if seed is not None:
            lines += [
                "cluster_formation.peer_discovery_backend = classic_config",
                f"cluster_formation.classic_config.nodes.1 = {seed.name}",
                # No random wait before joining: the seed is up already.
                "cluster_formation.randomized_startup_delay_range.min = 0",
                "cluster_formation.randomized_startup_delay_range.max = 0",
            ]
        conf.write_text("\n".join(lines) + "\n")
        env = {
            **self._env(),
            "RABBITMQ_NODENAME": node.name,
            "RABBITMQ_NODE_PORT": str(node.amqp_port),
            "RABBITMQ_DIST_PORT": str(node.dist_port),
            "RABBITMQ_CONFIG_FILE": str(conf),
            "RABBITMQ_MNESIA_BASE": str(directory / "mnesia"),
            "RABBITMQ_LOG_BASE": str(directory / "log"),
            "RABBITMQ_PID_FILE": str(node.pid_file),
            "RABBITMQ_ENABLED_PLUGINS": "rabbitmq_mqtt",
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(directory / "enabled_plugins"),
            # The distribution port on loopback only, as every listener here.
            "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "-kernel inet_dist_use_interface {127,0,0,1}",
        }
        with (directory / "server.log").open("ab") as log:
            self._servers[node.name] = subprocess.Popen(
                [str(SERVER)],
                env=env,
                cwd=directory,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C of the caller is the caller's to pass on
            )

    def _await_mqtt(self, nodes: list[Node]) -> None:
        """Until each node's MQTT listener takes connections: the plugin starts
        last, once the node has booted (and joined the cluster)."""
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        for node in nodes:
            while not listening(node.mqtt_port):
                server = self._servers[node.name]
                if server.poll() is not None:
                    raise RuntimeError(
                        f"{node.name} exited ({server.returncode}): see {node.directory}/log"
                    )
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{node.name} not up in {BOOT_TIMEOUT_S:g} s")
                time.sleep(0.1)

    def _write_state(self) -> None:
        state = {
            "epmd": {"port": self.epmd_port, "pid": self._epmd.pid if self._epmd else None},
            "nodes": [{**asdict(node), "pid": node.pid()} for node in self.nodes],
        }
        (self.directory / "cluster.json").write_text(json.dumps(state, indent=2) + "\n")


def stop_processes(pids: list[int]) -> None:
    """SIGTERM to each, then SIGKILL to any still there after `STOP_TIMEOUT_S`."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


# -- the command line ---------------------------------------------------------------------------


def _serve(directory: Path) -> int:
    cluster = RabbitCluster(directory)
    stopping = False

    def stop_on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop_on_signal)
    signal.signal(signal.SIGINT, stop_on_signal)
    with cluster:
        print(f"cluster up in {cluster.start_seconds:.1f} s", flush=True)
        for node in cluster.nodes:
            print(f"{node.name} mqtt 127.0.0.1:{node.mqtt_port}", flush=True)
        # Up until `stop DIR` (which ends the nodes) or a signal to this process.
        while not stopping and all(
            (pid := node.pid()) is not None and alive(pid) for node in cluster.nodes
        ):
            time.sleep(0.5)
    return 0


def _stop(directory: Path) -> int:
    try:
        state = json.loads((directory / "cluster.json").read_text())
    except OSError:
        print(f"no cluster under {directory}", file=sys.stderr)
        return 1
    stop_processes([node["pid"] for node in state["nodes"] if node["pid"] is not None])
    if state["epmd"]["pid"] is not None:
        stop_processes([state["epmd"]["pid"]])
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["start", "stop"])
    parser.add_argument("directory", type=Path, help="the cluster's data and log directory")
    args = parser.parse_args(argv)
    return _serve(args.directory) if args.command == "start" else _stop(args.directory)


if __name__ == "__main__":
    sys.exit(main())
