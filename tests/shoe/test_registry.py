"""`drivers.shoe.BACKENDS` is the one place that knows the shoe protocols (issue 14, step 2).

Two halves. The guard reads the tree with `ast` and fails when code outside the
registry (drivers/shoe/backends.py) names a protocol or branches on one: on
main the config's ``Literal["framed", "beetek"]``, the CLI's choices, the
bridge's ``if protocol == "framed"``, the capture decoder's ``PROTOCOLS`` and
if/elif and the tests' rig all did. The other half checks that what each entry
says is what its link does, and that the config, the capture decoder and the
CLI offer exactly the registry's protocols.
"""

from __future__ import annotations

import ast
import dataclasses
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.shoe_rigs import WAIT_S, next_events, rig

from dealer_station.cli import main
from dealer_station.config import SHOE_CONFIGS, ConfigError, parse_config
from drivers.errors import DriverError
from drivers.registry import Registry, UnknownDevice
from drivers.shoe import BACKENDS, CardDrawn, ShoeEvent, UnknownBackend
from drivers.shoe.backends import SIMULATED, WIRED
from drivers.shoe.capture import BadCapture, decode_capture, read_capture

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = "drivers/shoe/backends.py"
NAMES = frozenset(BACKENDS)
# Production code: outside drivers/shoe a protocol is not even named.
PRODUCTION = ("dealer_station", "drivers", "firmware_proto", "vision")
SHOE_DRIVER = "drivers/shoe/"
# Code that uses the registry: it may name a protocol to open it, never branch on one.
USERS = ("tests", "benchmarks")


def _names(node: ast.AST) -> list[str]:
    """The protocol names a constant or a literal tuple, list or set holds."""
    if isinstance(node, ast.Constant) and node.value in NAMES:
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [name for element in node.elts for name in _names(element)]
    return []


def _docstrings(tree: ast.Module) -> set[int]:
    return {
        id(node.value) for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def leaks(root: Path) -> list[str]:
    """Each place under ``root`` that knows a shoe protocol by name outside the
    registry: ``file:line: what``."""
    found: list[str] = []
    for top in (*PRODUCTION, *USERS):
        for path in sorted((root / top).rglob("*.py")):
            file = path.relative_to(root).as_posix()
            if file == REGISTRY or ".venv" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=file)
            production = top in PRODUCTION
            docstrings = _docstrings(tree)
            # A test may assert what the registry holds; asserting is not branching.
            asserted = set() if production else {
                id(node.test) for node in ast.walk(tree) if isinstance(node, ast.Assert)
            }
            for node in ast.walk(tree):
                where = f"{file}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Compare) and id(node) not in asserted:
                    named = [n for side in (node.left, *node.comparators) for n in _names(side)]
                    if named:
                        found.append(f"{where}: branches on {', '.join(named)}")
                elif isinstance(node, ast.match_case):
                    named = [n for p in ast.walk(node.pattern) if isinstance(p, ast.MatchValue)
                             for n in _names(p.value)]
                    if named:
                        found.append(f"{file}:{node.pattern.lineno}: branches on "
                                     f"{', '.join(named)}")
                elif not production:
                    continue
                elif (isinstance(node, ast.Tuple | ast.List | ast.Set)
                      and len(_names(node)) > 1):
                    found.append(f"{where}: lists {', '.join(_names(node))}")
                elif (isinstance(node, ast.Constant) and node.value in NAMES
                      and id(node) not in docstrings and not file.startswith(SHOE_DRIVER)):
                    found.append(f"{where}: names {node.value}")
    return sorted(set(found))


def test_nothing_outside_the_registry_names_or_branches_on_a_shoe_protocol() -> None:
    assert leaks(ROOT) == []


def _write(root: Path, name: str, source: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")


def test_the_guard_finds_each_way_of_knowing_a_protocol(tmp_path: Path) -> None:
    """A fake tree with main's leaks, one per way, and the uses that are allowed."""
    _write(tmp_path, REGISTRY, 'BACKENDS = {"framed": 1, "beetek": 2}\n')
    _write(tmp_path, "dealer_station/config.py", '''\
        """The "framed" shoe, in a docstring: prose, not code."""
        from typing import Literal
        Protocol = Literal["framed", "beetek"]
        ''')
    _write(tmp_path, "dealer_station/shoe_bridge.py", '''\
        def options(protocol):
            if protocol == "framed":
                return {"heartbeat_timeout": 5.0}
            return {}
        ''')
    _write(tmp_path, "dealer_station/cli/shoe.py", 'DEFAULT = "framed"\n')
    _write(tmp_path, "drivers/shoe/capture.py", '''\
        PROTOCOLS = ("framed", "beetek")
        def new(protocol):
            match protocol:
                case "beetek":
                    return 2
            return 1 if protocol in PROTOCOLS else 0
        ''')
    _write(tmp_path, "drivers/shoe/beetek_session.py", 'protocol = "beetek"  # its own name\n')
    _write(tmp_path, "tests/shoe/rigs.py", '''\
        def rig(backend):
            open_shoe("framed")  # a user opens a shoe by name
            if backend != "beetek":
                return 1
            assert sorted(BACKENDS) == ["beetek", "framed"]  # a test may check the registry
        ''')
    assert leaks(tmp_path) == [
        "dealer_station/cli/shoe.py:1: names framed",
        "dealer_station/config.py:3: lists framed, beetek",
        "dealer_station/config.py:3: names beetek",
        "dealer_station/config.py:3: names framed",
        "dealer_station/shoe_bridge.py:2: branches on framed",
        "dealer_station/shoe_bridge.py:2: names framed",
        "drivers/shoe/capture.py:1: lists framed, beetek",
        "drivers/shoe/capture.py:4: branches on beetek",
        "tests/shoe/rigs.py:3: branches on beetek",
    ]


# -- what each entry says is what its link does -----------------------------------


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_the_entry_says_whether_the_shoe_has_an_indicator(backend: str) -> None:
    with rig(backend) as r:
        assert r.link.supports_indicator is BACKENDS[backend].can.indicator


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_the_entry_says_whether_a_refused_card_comes_again(backend: str) -> None:
    refused: list[ShoeEvent] = []

    def first_card(event: ShoeEvent) -> bool:
        if isinstance(event, CardDrawn) and not refused:
            refused.append(event)
            return True
        return False

    resend = BACKENDS[backend].can.resend
    with rig(backend, refuse=first_card) as r:
        r.draw(2)
        taken = next_events(r.events, 2 if resend else 1)
        truth = r.truth()
    assert refused == truth[:1]
    assert taken == (truth if resend else truth[1:])


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_a_shoe_has_a_heartbeat_timeout_exactly_when_it_heartbeats(backend: str) -> None:
    entry = BACKENDS[backend]
    settings = {f.name for f in dataclasses.fields(entry.options)}
    assert ("heartbeat_timeout" in settings) is entry.can.heartbeat


# -- the config, the capture decoder and the CLI offer the registry's protocols ---

MINIMAL = 'studio = "s"\nstation = "st"\n[[tables]]\nid = "t1"\ngame = "baccarat"\n'


def test_the_config_offers_each_wired_protocol_with_its_own_settings() -> None:
    assert tuple(SHOE_CONFIGS) == WIRED
    for name in WIRED:
        shoe = parse_config(MINIMAL + f'shoe = {{ port = "/dev/x", protocol = "{name}" }}\n')
        table_shoe = shoe.tables[0].shoe
        assert table_shoe is not None and table_shoe.protocol == name
        # The defaults the station opens the link with are the registry's own.
        assert table_shoe.link_options() == dataclasses.asdict(BACKENDS[name].options())


def test_a_shoe_without_a_protocol_is_the_default_one() -> None:
    shoe = parse_config(MINIMAL + 'shoe = { port = "/dev/x" }\n').tables[0].shoe
    assert shoe is not None and shoe.protocol == BACKENDS.default


@pytest.mark.parametrize("name", WIRED)
def test_a_setting_of_another_protocol_is_refused(name: str) -> None:
    others = {f.name for other in WIRED for f in dataclasses.fields(BACKENDS[other].options)}
    mine = {f.name for f in dataclasses.fields(BACKENDS[name].options)}
    for key in sorted(others - mine):
        with pytest.raises(ConfigError, match=rf"tables\[0\]\.shoe\.{key}: unknown key"):
            parse_config(MINIMAL + f'shoe = {{ port = "/dev/x", protocol = "{name}", '
                                   f"{key} = 1 }}\n")


def test_the_virtual_shoe_is_not_a_station_config() -> None:
    unwired = sorted(NAMES - set(WIRED))
    assert unwired  # the virtual shoe: the tests draw its cards
    for name in unwired:
        with pytest.raises(ConfigError, match=r"tables\[0\]\.shoe\.protocol: Input should be"):
            parse_config(MINIMAL + f'shoe = {{ port = "/dev/x", protocol = "{name}" }}\n')


def test_captures_decode_with_each_wired_protocol_and_refuse_others(tmp_path: Path) -> None:
    capture = tmp_path / "empty.bin"
    capture.write_bytes(b"")
    for name in WIRED:
        decoder = BACKENDS[name].decoder
        assert decoder is not None
        # Decoded by that protocol's session: its counters, none other's.
        assert decode_capture(read_capture(capture), name).counters == decoder().counters()
    with pytest.raises(BadCapture, match=f"known: {', '.join(WIRED)}"):
        decode_capture(read_capture(capture), "morse")


@pytest.mark.parametrize("command", ["decode", "simulate"])
def test_the_cli_offers_the_registry_s_protocols(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["shoe", command, "--protocol", "morse", "x"])
    offered = WIRED if command == "decode" else SIMULATED
    assert f"choose from {', '.join(map(repr, offered))}" in capsys.readouterr().err


@pytest.mark.parametrize("name", SIMULATED)
def test_the_cli_runs_each_simulated_shoe_alike(name: str, tmp_path: Path) -> None:
    link = tmp_path / "dealer-shoe"
    shoe = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "shoe", "simulate", "--protocol", name,
         "--interval", "0.01", "--seed", "3", "--link", str(link)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert shoe.stdout is not None
        baudrate = dataclasses.asdict(BACKENDS[name].options())["baudrate"]
        heading = f"{name} shoe on {link} ({baudrate} baud); Ctrl-C to stop\n"
        assert shoe.stdout.readline() == heading
        card = shoe.stdout.readline().split()
        assert len(card) in (1, 2) and len(card[0]) == 2  # "7H", then what the shoe shows
        assert (len(card) == 2) is BACKENDS[name].can.indicator
    finally:
        shoe.send_signal(signal.SIGINT)
        _, err = shoe.communicate(timeout=WAIT_S)
    assert shoe.returncode == 0, err


# -- the generic registry, for the wheel's devices to come ------------------------


class _Sensor:
    def __init__(self, name: str) -> None:
        self.name = name


def test_a_registry_refuses_an_unknown_name_a_duplicate_and_a_missing_default() -> None:
    sensors = Registry("wheel sensor", [_Sensor("optical"), _Sensor("hall")], default="optical")
    assert list(sensors) == ["optical", "hall"] and sensors.default == "optical"
    with pytest.raises(UnknownDevice, match="unknown wheel sensor 'laser'; known: hall, optical"):
        sensors["laser"]
    assert "laser" not in sensors and sensors.get("laser") is None
    with pytest.raises(ValueError, match="registered twice"):
        Registry("wheel sensor", [_Sensor("hall"), _Sensor("hall")], default="hall")
    with pytest.raises(ValueError, match="default wheel sensor 'optical' is not registered"):
        Registry("wheel sensor", [_Sensor("hall")], default="optical")


def test_an_unknown_shoe_is_a_shoe_error_a_driver_error_and_a_value_error() -> None:
    with pytest.raises(UnknownBackend) as refused:
        BACKENDS["bluetooth"]
    assert isinstance(refused.value, DriverError) and isinstance(refused.value, ValueError)
    assert str(refused.value) == (
        f"unknown shoe protocol 'bluetooth'; known: {', '.join(sorted(BACKENDS))}"
    )
