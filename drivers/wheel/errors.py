"""`WheelError`: the base of every exception the wheel sensor's driver raises,
under `drivers.errors.DriverError`, as the shoe's `ShoeError` is."""

from drivers.errors import DriverError


class WheelError(DriverError):
    """The wheel sensor's driver refused or could not do something."""
