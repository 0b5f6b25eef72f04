"""Alien Empires random-play speed and soundness, in-process (no runner needed).

    python benchmarks/alien_empires.py [--speed-games 100] [--crash-games 500] [--players 2 3 6]
                                       [--search-decisions 20] [--seed 1]

Prints games per second of random legal play for 2 and 4 players on one core (the ratio compares 4
players with the 2-player run of the same process); then, for each count in --players, plays
--crash-games random games and reports crashes (seed and traceback), mean length in turns and the
share of games that reach a victory before the turn cap; then the search agent's seconds per
decision (default budget) over --search-decisions decisions of a 3-player game. The machine may be
shared: the figures are what this run measured.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.decks import load_deck  # noqa: E402
from cardsmith.engine.agents import make_agent  # noqa: E402
from cardsmith.engine.chance import agent_rng, game_seed  # noqa: E402
from cardsmith.games.alien_empires import RULES  # noqa: E402
from cardsmith.validate import load_set  # noqa: E402

SET_DIR = ROOT / "cards" / "alien-empires"


def play(game, deck, seats: int, seed: int):
    """One random game to its end; the finished state."""
    st = game.new_game([deck] * seats, seed)
    rng = agent_rng(seed, 0)
    while not st.is_terminal():
        who = st.to_act()
        s = who[rng.randrange(len(who))]
        st.apply(rng.choice(st.legal_actions(s)), s)
    return st


def speed(game, deck, seats: int, games: int, seed: int) -> float:
    t = time.perf_counter()
    for i in range(games):
        play(game, deck, seats, game_seed(seed, i))
    return games / (time.perf_counter() - t)


def soundness(game, deck, seats: int, games: int, seed: int) -> None:
    crashes, turns, wins = 0, 0, 0
    for i in range(games):
        s = game_seed(seed + seats, i)
        try:
            st = play(game, deck, seats, s)
        except Exception:  # a crash is what this run looks for: report it and go on
            crashes += 1
            print(f"  crash: {seats} players, seed {s}\n{traceback.format_exc()}")
            continue
        turns += st.turn
        wins += not st.outcome().capped
    done = games - crashes
    print(f"  {seats} players: {games} games, {crashes} crashed; mean length {turns / max(1, done):.1f} turns; "
          f"reached a victory {wins}/{done}")


def search_speed(game, deck, decisions: int, seed: int) -> None:
    agent = make_agent("mcts", game)
    st = game.new_game([deck] * 3, seed)
    rng, times = random.Random(seed), []
    while not st.is_terminal() and len(times) < decisions:
        seat = st.to_act()[0]
        legal = st.legal_actions(seat)
        if len(legal) > 1:
            t = time.perf_counter()
            action = agent.act(st.observation(seat), legal, rng, seat)
            times.append(time.perf_counter() - t)
        else:
            action = legal[0]
        st.apply(action, seat)
    if times:
        print(f"search: {len(times)} decisions, mean {sum(times) / len(times):.3f} s, longest {max(times):.3f} s (target: <= 1 s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speed-games", type=int, default=100)
    ap.add_argument("--crash-games", type=int, default=500)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 6])
    ap.add_argument("--search-decisions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cardset = load_set(SET_DIR)
    game = RULES.make_game(cardset)
    deck = load_deck(SET_DIR / "decks" / "standard.yaml", cardset)
    two = speed(game, deck, 2, args.speed_games, args.seed)
    four = speed(game, deck, 4, args.speed_games, args.seed)
    print(f"random play, one core: 2 players {two:.1f} games/s; 4 players {four:.1f} games/s ({four / two:.2f}x the 2-player rate)")
    for n in args.players:
        soundness(game, deck, n, args.crash_games, args.seed)
    if args.search_decisions:
        search_speed(game, deck, args.search_decisions, args.seed)


if __name__ == "__main__":
    main()
