"""#rm2k_anime: random-agent games through the sim runner: speed, no crash, and how games end.

    python benchmarks/rm2k_anime.py [--games 1000] [--seed 1] [--jobs 1] [--agents random]

Plays `--games` games spread over every pairing of the sample decks in cards/rm2k-anime/decks/ (seats
alternating) with the runner (`cardsmith.engine.runner`, as `cardsmith play` does), and prints games
per second, how the games ended (Goal, Accomplishment, Domination, Pingout, a draw decided on Victory
Points, or the turn cap) and their lengths. A crash stops the run naming the game's seed. The machine
may be shared with other work: figures are what this run measured, nothing more.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardsmith.engine.registry import load_game  # noqa: E402
from cardsmith.engine.runner import match_tasks, run_tasks  # noqa: E402
from cardsmith.simulation.sets import SetGameFactory, load_checked_deck, load_set_checked  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--agents", default="random")
    args = ap.parse_args()
    path = ROOT / "cards" / "rm2k-anime"
    cardset = load_set_checked(path)
    decks = [load_checked_deck(cardset, p) for p in sorted((path / "decks").glob("*.yaml"))]
    pairs = [(a, b) for a in range(len(decks)) for b in range(a + 1, len(decks))]
    game = load_game(cardset)
    records = []
    started = time.perf_counter()
    for k, (a, b) in enumerate(pairs):
        n = args.games // len(pairs) + (1 if k < args.games % len(pairs) else 0)
        tasks = match_tasks([args.agents, args.agents], n, args.seed + 1000 * k, deck_ids=(a, b))
        records += run_tasks(SetGameFactory(path), decks, tasks, jobs=args.jobs, game=game)
    took = time.perf_counter() - started
    ends = Counter("turn cap" if r.capped else r.end_reason for r in records)
    turns = sorted(r.turns for r in records)
    print(f"#rm2k_anime {args.agents} games: {len(records)} in {took:.1f} s = {len(records) / took:.1f} games/s "
          f"({args.jobs} job(s)), no crash")
    print("ended by: " + ", ".join(f"{why} {n} ({n / len(records):.1%})" for why, n in ends.most_common()))
    print(f"game length in turns: median {turns[len(turns) // 2]}, mean {sum(turns) / len(turns):.1f}, max {turns[-1]}")
    wins = Counter(r.decks[r.ranks.index(0)] for r in records if r.ranks.count(0) == 1)
    print("wins by deck: " + ", ".join(f"{d} {n}" for d, n in wins.most_common()))


if __name__ == "__main__":
    main()
