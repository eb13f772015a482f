"""The base of every driver's exceptions, so a caller can catch "the hardware
edge failed" in one clause whatever the device (`drivers.shoe.ShoeError`, the
camera's `CameraUnavailable`, an unknown device name)."""


class DriverError(Exception):
    """Something a driver of ours refused or could not do."""
