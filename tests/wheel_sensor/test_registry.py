"""`drivers.wheel.SENSORS` is the one place that knows the wheel sensor protocols.

As the shoe's (tests/shoe/test_registry.py): no module outside the registry
names a protocol (the CLI, the capture decoder and these tests take
`SENSORS.default` or iterate), and what each entry says is what it does.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pkgutil
import queue
import textwrap
from pathlib import Path

import pytest

import drivers.wheel
from dealer_station.cli import main
from drivers.errors import DriverError
from drivers.registry import UnknownDevice
from drivers.wheel import (
    SENSORS,
    UnknownSensor,
    WheelError,
    WheelEvent,
    WheelOnline,
    WheelResult,
)
from drivers.wheel.capture import decode_capture, read_capture

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = "drivers/wheel/backends.py"
TREES = ("dealer_station", "drivers", "firmware_proto", "vision", "tests", "benchmarks")
WAIT_S = 10.0


def leaks(root: Path, names: frozenset[str]) -> list[str]:
    """Each string constant outside the registry that is a protocol's name."""
    found = []
    for top in TREES:
        for path in sorted((root / top).rglob("*.py")):
            file = path.relative_to(root).as_posix()
            if file == REGISTRY or ".venv" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in names:
                    found.append(f"{file}:{node.lineno}: names {node.value}")
    return found


def test_nothing_outside_the_registry_names_a_sensor_protocol() -> None:
    assert leaks(ROOT, frozenset(SENSORS)) == []


def test_the_guard_finds_a_name(tmp_path: Path) -> None:
    (tmp_path / "drivers" / "wheel").mkdir(parents=True)
    (tmp_path / REGISTRY).write_text('SENSORS = ["acme"]\n')
    (tmp_path / "dealer_station").mkdir()
    (tmp_path / "dealer_station" / "bridge.py").write_text(textwrap.dedent('''\
        def options(protocol):
            return {} if protocol == "acme" else {"status_timeout": 5}
        '''))
    assert leaks(tmp_path, frozenset({"acme"})) == ["dealer_station/bridge.py:2: names acme"]


@pytest.mark.parametrize("name", list(SENSORS))
def test_each_entry_s_simulator_and_link_play_a_game(name: str) -> None:
    entry = SENSORS[name]
    events: queue.Queue[WheelEvent] = queue.Queue()
    with entry.simulator(seed=3, status_interval=0.05) as sim, \
            entry.open(port=sim.port, on_event=events, reconnect_max=0.2):
        # What the wheel says before the station opens the port is not heard.
        while not isinstance(events.get(timeout=WAIT_S), WheelOnline):
            pass
        won = sim.spin()
        while not isinstance(event := events.get(timeout=WAIT_S), WheelResult):
            pass
    assert event.number == won and sim.results == [(event.game, won)]


@pytest.mark.parametrize("name", list(SENSORS))
def test_each_entry_s_options_say_what_they_are_and_refuse_others(name: str) -> None:
    entry = SENSORS[name]
    for option in dataclasses.fields(entry.options):
        assert option.metadata["description"]
        assert option.metadata["gt"] == 0
    with pytest.raises(TypeError):
        entry.open(port="/nonexistent", on_event=queue.Queue(), heartbeat_timeout=1.0)


@pytest.mark.parametrize("name", list(SENSORS))
def test_each_entry_s_decoder_decodes_captures(name: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    assert decode_capture(read_capture(empty), name).counters == SENSORS[name].decoder().counters()


def test_the_cli_offers_the_registry_s_protocols(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["wheel", "decode", "--protocol", "morse", "x"])
    assert f"choose from {', '.join(map(repr, SENSORS))}" in capsys.readouterr().err


def test_an_unknown_sensor_is_a_wheel_error_a_driver_error_and_a_value_error() -> None:
    with pytest.raises(UnknownSensor) as refused:
        SENSORS["laser"]
    assert isinstance(refused.value, DriverError) and isinstance(refused.value, ValueError)
    assert isinstance(refused.value, UnknownDevice)
    assert str(refused.value) == (
        f"unknown wheel sensor protocol 'laser'; known: {', '.join(sorted(SENSORS))}")


def test_every_exception_of_the_wheel_driver_is_a_wheel_error() -> None:
    found = []
    for info in pkgutil.iter_modules(drivers.wheel.__path__):
        module = importlib.import_module(f"drivers.wheel.{info.name}")
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, BaseException) and cls.__module__ == module.__name__]
    assert {cls.__name__ for cls in found} >= {"EventRefused", "UnknownSensor", "BadCapture",
                                                "BadEventJson", "WheelError"}
    assert [cls.__name__ for cls in found if not issubclass(cls, WheelError)] == []
