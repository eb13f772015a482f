"""A file or a directory on disk for sure: the rename of a finished file into
place (a backup, an archive) survives a power cut only once both are fsync'd."""

from __future__ import annotations

import os
from pathlib import Path


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
