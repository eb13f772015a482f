"""The integrity monitor (docs/integrity.md): is the wheel fair, the shoe whole
and shuffled, do the outcomes and the hold match the odds, can a dealer aim.

Pure, like the rules (``dealer_station.games``): observations in, findings out;
no clock, no I/O, no threads. ``observations.observe`` turns a journal record
and its round events into observations; ``monitor.Monitor`` counts them and
reports. The live station and ``dealer-station integrity --db`` feed it the same.
"""
