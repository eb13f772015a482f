"""The shoe driver's exceptions share one base, `ShoeError`, under the drivers'
`DriverError`, which the camera's share too (issue 14, step 9): a caller that
means "the shoe driver refused" catches one class, and a new exception of the
driver cannot be left out of it. On main they derived from Exception and
ValueError, each on its own."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import drivers.shoe
from dealer_station.cli import main
from drivers.camera import CameraUnavailable
from drivers.errors import DriverError
from drivers.shoe import ShoeError


def _exceptions_of_the_shoe_driver() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.iter_modules(drivers.shoe.__path__):
        module = importlib.import_module(f"drivers.shoe.{info.name}")
        found += [
            cls for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, BaseException) and cls.__module__ == module.__name__
        ]
    return found


def test_every_exception_of_the_shoe_driver_is_a_shoe_error() -> None:
    exceptions = _exceptions_of_the_shoe_driver()
    names = {cls.__name__ for cls in exceptions}
    # The ones the station and its tools meet: if one moved, the walk above missed it.
    assert names >= {"EventRefused", "UnsupportedCommand", "UnknownBackend", "BadCapture",
                     "BadEventJson", "ShoeEmpty"}
    assert [cls.__name__ for cls in exceptions if not issubclass(cls, ShoeError)] == []


def test_the_camera_s_refusal_is_a_driver_error_but_not_the_shoe_s() -> None:
    assert issubclass(CameraUnavailable, DriverError)
    assert not issubclass(CameraUnavailable, ShoeError)
    assert issubclass(ShoeError, DriverError)


def test_a_refusal_of_the_decoder_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # cli/shoe.py catches the base, ShoeError: a damaged spy capture is a message.
    capture = tmp_path / "damaged.spy.txt"
    capture.write_text("0.000 RX    0000  zz\n")
    assert main(["shoe", "decode", str(capture)]) == 2
    assert capsys.readouterr().err == "shoe decode: line 1: no bytes in a RX row\n"
