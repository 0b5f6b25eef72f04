"""TRF: random-agent games through the game contract: speed, and the share of games that end.

    python benchmarks/trf.py [--games 1000] [--seed 1]

Plays `--games` games between the sample decks of cards/trf/decks/ (every pairing in turn), each
seat choosing uniformly among its legal actions, and prints games per second, how the games ended
(homeworld taken, or the turn cap), and the game lengths. A crash stops the run with the game's
seed, so it can be replayed. The machine may be shared: figures are what this run measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardsmith.decks import load_deck  # noqa: E402
from cardsmith.engine.chance import agent_rng, game_seed  # noqa: E402
from cardsmith.games.trf import RULES  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cardset = load_set(ROOT / "cards" / "trf")
    game = RULES.make_game(cardset)
    decks = [load_deck(p, cardset) for p in sorted((ROOT / "cards" / "trf" / "decks").glob("*.yaml"))]
    pairs = [(a, b) for a in range(len(decks)) for b in range(len(decks)) if a != b]
    ends: Counter[str] = Counter()
    turns: list[int] = []
    actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        a, b = pairs[i % len(pairs)]
        rngs = [agent_rng(seed, 0), agent_rng(seed, 1)]
        try:
            state = game.new_game([decks[a], decks[b]], seed)
            while not state.is_terminal():
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                state.apply(legal[rngs[seat].randrange(len(legal))], seat)
                actions += 1
        except Exception as e:  # report which game, then fail loudly
            raise SystemExit(f"game {i} (seed {seed}, decks {decks[a].name} v {decks[b].name}) crashed: {e!r}")
        out = state.outcome()
        ends["turn cap" if out.capped else out.reason] += 1
        turns.append(state.turn)
    took = time.perf_counter() - start
    finished = sum(n for why, n in ends.items() if why != "turn cap")
    print(f"TRF random games: {args.games} in {took:.1f} s = {args.games / took:.1f} games/s, "
          f"{actions / took:,.0f} actions/s, no crash")
    print(f"reached their end (homeworld taken): {finished}/{args.games} = {finished / args.games:.1%}; "
          f"turn cap ({game.turn_cap} turns): {ends['turn cap']}")
    turns.sort()
    print(f"game length in turns: median {turns[len(turns) // 2]}, mean {sum(turns) / len(turns):.1f}, "
          f"max {turns[-1]}")


if __name__ == "__main__":
    main()
