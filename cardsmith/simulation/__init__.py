"""The simulation layer: what `cardsmith play`, `cardsmith balance` and the build's balance stage
need around the pure engine. It opens sets and reads deck and position files (`sets`), lays out
tables of decks and gathers the figures (`match`), and writes the HTML and JSON report (`report`).

`cardsmith.engine` never opens a file or writes HTML; this package does, and hands the engine
validated sets, decks and position data.
"""

# Games the balance report's card tests may spend by default (baseline games included): about
# 2 CPU-minutes of random-agent Solar Empires on the development machine.
DEFAULT_BUDGET = 24_000
