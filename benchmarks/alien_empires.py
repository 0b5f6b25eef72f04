"""Alien Empires random-play speed and soundness, in-process (no runner needed).

    python benchmarks/alien_empires.py [--speed-games 100] [--crash-games 500] [--players 2 3 6]
                                       [--greedy-games 3] [--search-decisions 30] [--seed 1]

Prints games per CPU second of random legal play for 2 and 4 players (the ratio compares 4 players
with the 2-player run of the same process); then, for each count in --players, plays --crash-games
random games and reports crashes (seed and traceback), mean length in turns and how many games
reached a victory before the turn cap; then --greedy-games greedy games of 2 and 3 players (CPU
seconds a game); then the search agent's seconds per decision (default budget: 200 iterations, a
1 s wall-clock ceiling) over --search-decisions decisions of a 3-player game, wall and CPU, mean and
longest, and how many decisions the ceiling cut short. CPU time is used where the machine is shared
(wall time is also printed for search, whose ceiling is wall time).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.decks import load_deck  # noqa: E402
from cardsmith.engine.agents import make_agent  # noqa: E402
from cardsmith.engine.chance import agent_rng, game_seed  # noqa: E402
from cardsmith.games.alien_empires import RULES  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402

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
    t = time.process_time()
    for i in range(games):
        play(game, deck, seats, game_seed(seed, i))
    return games / (time.process_time() - t)


def soundness(game, deck, seats: int, games: int, seed: int) -> None:
    crashes, turns, reasons = 0, 0, Counter()
    t = time.process_time()
    for i in range(games):
        s = game_seed(seed + seats, i)
        try:
            st = play(game, deck, seats, s)
        except Exception:  # a crash is what this run looks for: report it and go on
            crashes += 1
            print(f"  crash: {seats} players, seed {s}\n{traceback.format_exc()}")
            continue
        turns += st.turn
        reasons[st.outcome().reason] += 1
    done = games - crashes
    capped = reasons.pop("turn cap", 0)
    print(f"  {seats} players: {games} games, {crashes} crashed; mean length {turns / max(1, done):.1f} turns; "
          f"reached a victory {done - capped}/{done} ({', '.join(f'{r} {n}' for r, n in reasons.most_common())}), "
          f"turn cap {capped}; {time.process_time() - t:.0f} CPU s")


def greedy_speed(game, deck, seats: int, games: int, seed: int) -> None:
    agent = make_agent("greedy", game)
    cpu, turns, wins = [], 0, 0
    for i in range(games):
        st = game.new_game([deck] * seats, game_seed(seed, i))
        rng = random.Random(i)
        t = time.process_time()
        while not st.is_terminal():
            seat = st.to_act()[0]
            st.apply(agent.act(st.observation(seat), st.legal_actions(seat), rng, seat), seat)
        cpu.append(time.process_time() - t)
        turns += st.turn
        wins += not st.outcome().capped
    print(f"greedy, {seats} players: {games} games, mean {sum(cpu) / games:.1f} CPU s a game (longest {max(cpu):.1f}), "
          f"mean length {turns / games:.1f} turns, reached a victory {wins}/{games}")


def search_speed(game, deck, decisions: int, seed: int) -> None:
    agent = make_agent("mcts", game)
    st = game.new_game([deck] * 3, seed)
    rng, wall, cpu = random.Random(seed), [], []
    while not st.is_terminal() and len(wall) < decisions:
        seat = st.to_act()[0]
        legal = st.legal_actions(seat)
        if len(legal) > 1:
            t, c = time.perf_counter(), time.process_time()
            action = agent.act(st.observation(seat), legal, rng, seat)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        else:
            action = legal[0]
        st.apply(action, seat)
    if wall:
        print(f"search: {len(wall)} decisions; wall mean {sum(wall) / len(wall):.3f} s, longest {max(wall):.3f} s; "
              f"CPU mean {sum(cpu) / len(cpu):.3f} s, longest {max(cpu):.3f} s; cut short by the 1 s ceiling: "
              f"{agent.ceiling_hits} (target: <= 1 s a decision)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--speed-games", type=int, default=100)
    ap.add_argument("--crash-games", type=int, default=500)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 6])
    ap.add_argument("--greedy-games", type=int, default=3)
    ap.add_argument("--search-decisions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cardset = load_set(SET_DIR)
    game = RULES.make_game(cardset)
    deck = load_deck(SET_DIR / "decks" / "standard.yaml", cardset)
    if args.speed_games:
        two = speed(game, deck, 2, args.speed_games, args.seed)
        four = speed(game, deck, 4, args.speed_games, args.seed)
        print(f"random play, one core: 2 players {two:.1f} games per CPU s; 4 players {four:.1f} ({four / two:.2f}x the 2-player rate)")
    for n in args.players:
        soundness(game, deck, n, args.crash_games, args.seed)
    for n in (2, 3) if args.greedy_games else ():
        greedy_speed(game, deck, n, args.greedy_games, args.seed)
    if args.search_decisions:
        search_speed(game, deck, args.search_decisions, args.seed)


if __name__ == "__main__":
    main()
