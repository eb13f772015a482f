"""The station's HTTP API, live feed, console and overlay (docs/api.md)."""

from dealer_station.api.app import create_app
from dealer_station.api.server import serve_http

__all__ = ["create_app", "serve_http"]
