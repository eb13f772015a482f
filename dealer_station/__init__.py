"""The dealer station: the computer under one live-studio table."""

__version__ = "0.1.0"
