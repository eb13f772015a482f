"""Roulette wheel vision: frames in, observations out. No capture, no I/O."""
