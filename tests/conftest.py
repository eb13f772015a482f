"""Fixtures shared by every test folder. Helpers live in tests/support."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.broker import Broker, running_broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    """A real mosquitto on a free loopback port, for one test."""
    yield from running_broker(tmp_path)
