"""The rules of the games: pure functions and state machines, no clock, no I/O."""
