"""TransWar random-play speed and soundness for 2 to 6 players, in-process (no runner needed).

    python benchmarks/transwar.py [--games 1000] [--players 2 3 4 5 6] [--seed 1] [--figures]

For each player count: games per second of random legal play on one core, the mean game length in
turns, the share of games that end before the turn cap, and any game that raised (a crash prints
its seed and traceback and counts as a failure). The figures are what this run measured on a
machine that may be shared; the ratio column compares each count with the 2-player run of the
same process. `--figures` adds, per player count, the balance figures of the random games (win
rate per seat and per starting Form, ally requests and what helping earned).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.decks import load_deck  # noqa: E402
from cardsmith.engine.chance import agent_rng, game_seed  # noqa: E402
from cardsmith.games.transwar import RULES  # noqa: E402
from cardsmith.games.transwar.balance import figures, finished, text  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402


def play(game, deck, seats: int, seed: int):
    """One random game: (turns, capped, allies asked, allies who joined, the finished state)."""
    st = game.new_game([deck] * seats, seed)
    rng = agent_rng(seed, 0)
    asked = joined = 0
    while not st.is_terminal():
        for e in st.apply(rng.choice(st.legal_actions())):
            if e.kind == "ally_asked":
                asked += 1
            elif e.kind == "ally_answer" and e.data.get("joined"):
                joined += 1
    out = st.outcome()
    return st.turn, bool(out and out.capped), asked, joined, st


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--figures", action="store_true", help="also print the balance figures per player count")
    args = ap.parse_args()
    cardset = load_set(ROOT / "cards" / "transwar")
    deck = load_deck(ROOT / "cards" / "transwar" / "decks" / "standard.yaml", cardset)
    game = RULES.make_game(cardset)
    base = None
    failures = 0
    print(f"TransWar, random agents, {args.games} games per player count, standard deck (98 cards)")
    print(f"{'players':>7} {'games/s':>9} {'ratio':>6} {'turns':>7} {'ended':>7} {'asked/game':>11} {'joined':>7} {'crashes':>8}")
    for seats in args.players:
        turns = capped = asked = joined = crashes = 0
        ended = []
        started = time.perf_counter()
        for i in range(args.games):
            seed = game_seed(args.seed, i)
            try:
                t, c, a, j, st = play(game, deck, seats, seed)
                ended.append(finished(st))
            except Exception:
                crashes += 1
                print(f"  crash: {seats} players, seed {seed}", file=sys.stderr)
                traceback.print_exc()
                continue
            turns += t
            capped += c
            asked += a
            joined += j
        seconds = time.perf_counter() - started
        done = args.games - crashes
        rate = args.games / seconds
        base = base or rate
        failures += crashes
        print(f"{seats:>7} {rate:>9.1f} {rate / base:>6.2f} {turns / max(1, done):>7.1f} "
              f"{(done - capped) / max(1, done):>7.1%} {asked / max(1, done):>11.2f} "
              f"{joined / max(1, asked):>7.1%} {crashes:>8}")
        if args.figures:
            print("\n".join("    " + line for line in text(figures(ended)).splitlines()))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
