"""`ShoeError`: the base of every exception the shoe driver raises, under
`drivers.errors.DriverError`; a caller catching the shoe's failures names it
instead of a list."""

from drivers.errors import DriverError


class ShoeError(DriverError):
    """The shoe driver refused or could not do something."""
