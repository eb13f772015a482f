"""The hardware edge: the serial card shoe and the wheel camera, and their simulators."""
