"""Simulation speed and search strength (issue 7 targets).

    python benchmarks/sim.py [--set solar-empires|trf|...] [--games-random 400] [--games-greedy 20]
                             [--games-search 40] [--jobs N] [--skirmish]
    python benchmarks/sim.py --seats transwar|alien-empires [--games-random 400]
    python benchmarks/sim.py --all [--budget 20]
    python benchmarks/sim.py --versus greedy,random [--games-versus 100] [--set ...]

Prints, for a bundled set's game (Solar Empires by default; `--set trf` for TRF: The Card Game), or
the Skirmish test game when that set or the decks API is not available, or with --skirmish:
  * random-agent games per CPU second and per wall-clock second on one job (the path of `cardsmith play
    --jobs 1`), and per wall-clock second on all cores (target: >= 600 per core on Solar Empires, issues
    10 and 19);
  * greedy-agent games, the same three figures (target: >= 20 per core);
  * the search agent's seconds per decision at its default budget (target: <= 1 s), one core and all;
  * the search agent's win rate against greedy between mirror decks, with its 95% Wilson interval
    (target: >= 60%).
With --seats SET (--transwar: the same for TransWar): a common-deck game's random-agent games per
CPU second on one job for 2 and 4 players (the set's deck in every seat), through the same runner. With --all: for every bundled set's game
(two seats, its first and last sample decks), random- and greedy-agent games per CPU second on one
job (and the game's competent player's, when it has its own: `RULES.competent`), each agent playing until --games-random / --games-greedy games or --budget CPU seconds
(at least one game); targets: Solar Empires' above, and random >= 250 on TRF and >= 150 on Alien Empires (issue 27). With --versus A,B: agent A's wins against B
on mirror decks, every sample deck of the set in turn, seats alternating, with the Wilson interval. Ratios are against the targets and against the one-core run in the same process. The machine may
be shared with other work: figures are what this run measured, nothing more.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cardsmith.engine.runner import match_tasks, run_tasks  # noqa: E402
from cardsmith.engine.stats import Rate, match_summary  # noqa: E402


def bundled(set_id: str = "solar-empires"):
    """(name, game, factory, decks) for the game of the bundled set `set_id`, or None when it cannot be played here."""
    try:
        import cardsmith.decks  # noqa: F401
        from cardsmith.engine.registry import load_game
        from cardsmith.simulation.sets import SetGameFactory, load_checked_deck, load_set_checked
    except ImportError:
        return None
    path = ROOT / "cards" / set_id
    if not (path / "set.yaml").is_file():
        return None
    cardset = load_set_checked(path)
    decks = {p.stem: load_checked_deck(cardset, p) for p in sorted((path / "decks").glob("*.yaml"))}
    return cardset.name, load_game(cardset), SetGameFactory(path), decks


def skirmish():
    import engine_testgame as sk

    return "Skirmish (test game)", sk.make_game(), sk.make_game, {"aggro": sk.AGGRO, "turtle": sk.TURTLE}


def timed_run(factory, game, decks, agents, games, jobs, seed=1):
    """(wall seconds, records) of one run; `cpu_run` for the CPU seconds of a one-job run."""
    tasks = match_tasks(agents, games, seed)
    started = time.perf_counter()
    records = run_tasks(factory, decks, tasks, jobs=jobs, game=game)
    return time.perf_counter() - started, records


def cpu_run(factory, game, decks, agents, games, seed=1):
    """(CPU seconds of this process, wall seconds, records) of a one-job run (`cardsmith play --jobs 1`'s
    path). CPU time counts only this process's work, so on a shared machine it is the fairer per-core figure."""
    tasks = match_tasks(agents, games, seed)
    cpu, started = time.process_time(), time.perf_counter()
    records = run_tasks(factory, decks, tasks, jobs=1, game=game)
    return time.process_time() - cpu, time.perf_counter() - started, records


def build() -> str:
    """The interpreter the figures were measured on (cardsmith is plain Python)."""
    import platform

    return f"plain Python ({platform.python_implementation()} {platform.python_version()})"


def load() -> str:
    try:
        return f"load average {os.getloadavg()[0]:.1f}"
    except OSError:
        return "load average unknown"


BUNDLED = ("solar-empires", "trf", "transwar", "rm2k-anime", "alien-empires")
# Per core, plain Python: Solar Empires' from issues 10 and 19, Alien Empires' and TRF's from issue 27 (item 5).
TARGETS = {"solar-empires": {"random": 600, "greedy": 20}, "trf": {"random": 250}, "alien-empires": {"random": 150}}


def budget_run(factory, game, decks, agents, most: int, budget: float, seed: int = 1):
    """(games, CPU seconds, wall seconds, records): one-job runs of 1, 2, 4... more games (the
    same tasks as one run of `most`) until `most` games or `budget` CPU seconds are spent."""
    tasks = match_tasks(agents, most, seed)
    records, cpu, wall, size = [], 0.0, 0.0, 1
    while len(records) < most and (not records or cpu < budget):
        chunk = tasks[len(records):len(records) + size]
        c, w, recs = cpu_run_tasks(factory, game, decks, chunk)
        records += recs
        cpu, wall, size = cpu + c, wall + w, size * 2
    return len(records), cpu, wall, records


def cpu_run_tasks(factory, game, decks, tasks):
    cpu, started = time.process_time(), time.perf_counter()
    records = run_tasks(factory, decks, tasks, jobs=1, game=game)
    return time.process_time() - cpu, time.perf_counter() - started, records


def every_game(args) -> None:
    """Random and greedy games per CPU second for every bundled set's game (issue 19)."""
    print(f"every bundled game, two seats, one job; {load()}; at most {args.games_random} random and "
          f"{args.games_greedy} greedy games, or {args.budget:.0f} CPU s each")
    print(f"build: {build()}")
    for set_id in BUNDLED:
        found = bundled(set_id)
        if found is None:
            print(f"{set_id:14s}: not available here")
            continue
        name, game, factory, decks = found
        names = list(decks)
        pair = [decks[names[0]], decks[names[-1]]]
        cells = []
        runs = [("random", args.games_random), ("greedy", args.games_greedy)]
        competent = game.rules.competent_player()
        if competent not in ("random", "greedy"):  # the game's own player that balance uses
            runs.append((competent, args.games_greedy))
        for agent, most in runs:
            try:
                n, cpu, wall, recs = budget_run(factory, game, pair, (agent, agent), most, args.budget)
            except Exception as e:  # a game's bug is a finding to print, not a reason to stop the table
                cells.append(f"{agent} FAILED: {type(e).__name__}: {e}")
                continue
            target = TARGETS.get(set_id, {}).get(agent)
            versus = f" ({n / cpu / target:.2f}x the {target} target)" if target else ""
            capped = sum(r.capped for r in recs)
            cells.append(f"{agent} {n / cpu:8.2f}/CPU s{versus}, {n / wall:7.2f}/s wall "
                         f"({n} games, {sum(len(r.actions) for r in recs) / n:.0f} actions, {capped} capped)")
        print(f"{set_id:14s}: {names[0]} vs {names[-1]}: " + "; ".join(cells))


def versus(args) -> None:
    """Agent A's win rate against agent B over mirror matches of every sample deck (seats alternating)."""
    a, _, b = args.versus.partition(",")
    if not b or a == b:
        raise SystemExit("--versus needs two different agent specs, e.g. greedy,random")
    found = bundled(args.set)
    if found is None:
        raise SystemExit(f"set {args.set} cannot be played here")
    name, game, factory, decks = found
    wins = draws = total = 0
    reasons: dict[str, int] = {}
    cpu = time.process_time()
    for deck in decks.values():
        records = run_tasks(factory, [deck, deck], match_tasks((a, b), args.games_versus, 7), jobs=args.jobs, game=game)
        total += len(records)
        draws += sum(r.winner is None for r in records)
        for r in records:
            if r.winner is None:  # why the draws ended: a cap is the players' failing, a dead position the game's
                why = "capped" if r.capped else r.end_reason
                reasons[why] = reasons.get(why, 0) + 1
        wins += sum(r.winner is not None and r.agents[r.winner] == a for r in records)
    print(f"{name}: {a} vs {b}, mirror decks ({', '.join(decks)}), {args.games_versus} games each, seats "
          f"alternating: {a} wins {Rate(wins, total)}, draws {draws}"
          f"{' (' + ', '.join(f'{k} {v / total:.1%}' for k, v in sorted(reasons.items())) + ')' if reasons else ''}; {load()}; "
          f"{time.process_time() - cpu:.1f} CPU s in this process")


def seat_counts(set_id: str, games: int) -> None:
    """A common-deck game (TransWar, Alien Empires), random agents, one job: games per CPU second and
    per wall-clock second for 2 and 4 players, the set's first deck in every seat."""
    from cardsmith.engine.registry import load_game
    from cardsmith.engine.runner import table_tasks
    from cardsmith.simulation.sets import SetGameFactory, deck_files, load_checked_deck, load_set_checked

    path = ROOT / "cards" / set_id
    cardset = load_set_checked(path)
    deck = load_checked_deck(cardset, deck_files(path)[0])
    game, factory = load_game(cardset), SetGameFactory(path)
    base = None
    for players in (2, 4):
        tasks = table_tasks(("random",) * players, games, 1, deck_ids=(0,) * players)
        cpu, started = time.process_time(), time.perf_counter()
        records = run_tasks(factory, [deck], tasks, jobs=1, game=game)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - started
        rate = games / cpu
        base = base or rate
        turns = sum(r.turns for r in records) / len(records)
        target = TARGETS.get(set_id, {}).get("random") if players == 2 else None
        versus = f", {rate / target:.2f}x the {target} target" if target else ""
        print(f"{set_id} {players} players: {rate:7.1f} random games per CPU second on 1 job "
              f"({rate / base:.2f}x 2 players{versus}), {games / wall:.1f}/s wall; mean {turns:.0f} turns; "
              f"capped {sum(r.capped for r in records)} of {games}; {load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games-random", type=int, default=400)
    ap.add_argument("--games-greedy", type=int, default=20)
    ap.add_argument("--games-search", type=int, default=40, help="search vs greedy games (0: skip)")
    ap.add_argument("--search", default="mcts", help="the search agent spec (default: its default budget)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--skirmish", action="store_true", help="benchmark the Skirmish test game")
    ap.add_argument("--seats", metavar="SET", help="a common-deck game's games per second for 2 and 4 players "
                    "(transwar, alien-empires)")
    ap.add_argument("--transwar", action="store_true", help="the same as --seats transwar")
    ap.add_argument("--set", default="solar-empires", help="the bundled set whose game to benchmark (cards/<set>)")
    ap.add_argument("--all", action="store_true", help="random and greedy games per CPU second for every bundled game")
    ap.add_argument("--budget", type=float, default=20.0, help="with --all: CPU seconds per game and agent at most")
    ap.add_argument("--versus", help="A,B: agent A's win rate against B on mirror decks")
    ap.add_argument("--games-versus", type=int, default=100, help="with --versus: games per sample deck")
    args = ap.parse_args()
    if args.versus:
        versus(args)
        return
    if args.seats or args.transwar:
        seat_counts(args.seats or "transwar", args.games_random)
        return
    if args.all:
        every_game(args)
        return

    found = None if args.skirmish else bundled(args.set)
    name, game, factory, decks = found or skirmish()
    names = list(decks)
    pair = [decks[names[0]], decks[names[-1]]]
    mirror = [decks[names[0]], decks[names[0]]]
    print(f"game: {name}; decks {names[0]} vs {names[-1]}; {os.cpu_count()} cores, all = {args.jobs} jobs; {load()}")
    print(f"build: {build()}")
    if found is None and not args.skirmish:
        print(f"  (set {args.set}, its rules module or the decks API is not available here: using the test game)")

    # Random agents.
    cpu, one_t, one = cpu_run(factory, game, pair, ("random", "random"), args.games_random)
    all_t, many = timed_run(factory, game, pair, ("random", "random"), args.games_random, args.jobs)
    same = [r.to_dict(True) for r in one] == [r.to_dict(True) for r in many]
    rate1, rate_all, per_cpu = args.games_random / one_t, args.games_random / all_t, args.games_random / cpu
    goals = TARGETS.get(args.set, {}) if found is not None else {}
    print(f"random : {per_cpu:8.1f} games per CPU second on 1 job{_against(per_cpu, goals.get('random'))}; "
          f"{rate1:8.1f} games/s wall clock on 1 job; "
          f"{rate_all:8.1f} games/s on {args.jobs} jobs ({rate_all / rate1:.2f}x one core); "
          f"identical results: {same}; mean {sum(len(r.actions) for r in one) / len(one):.0f} actions/game")

    # Greedy agents.
    cpu, one_t, one = cpu_run(factory, game, pair, ("greedy", "greedy"), args.games_greedy)
    all_t, many = timed_run(factory, game, pair, ("greedy", "greedy"), args.games_greedy, args.jobs)
    g1, g_all, g_cpu = args.games_greedy / one_t, args.games_greedy / all_t, args.games_greedy / cpu
    print(f"greedy : {g_cpu:8.2f} games per CPU second on 1 job{_against(g_cpu, goals.get('greedy'))}; "
          f"{g1:8.2f} games/s wall clock on 1 job; {g_all:8.2f} games/s on {args.jobs} jobs ({g_all / g1:.2f}x one job)")

    # Search agent: seconds per decision (one core: a few games in this process) and strength.
    if args.games_search:
        t, recs = timed_run(factory, game, mirror, (args.search, "greedy"), 2, 1)
        per1 = _per_decision(recs, args.search)
        print(f"search : {per1:.3f} s per decision on 1 core ({per1:.2f}x the 1 s budget)")
        t, recs = timed_run(factory, game, mirror, (args.search, "greedy"), args.games_search, args.jobs, seed=1000)
        per_all = _per_decision(recs, args.search)
        s = match_summary(recs, ["search", "greedy"])
        w = s["decks"][0]["wins"]
        print(f"search : {per_all:.3f} s per decision with {args.jobs} jobs at once ({per_all / per1:.2f}x one core); "
              f"{t:.0f} s for {args.games_search} games")
        print(f"search vs greedy, mirror decks ({names[0]}), seats alternating: wins {Rate(w['k'], w['n'])}, "
              f"draws {s['draws']['k']}; target >= 60%: {'met' if w['rate'] >= 0.6 else 'NOT met'}"
              f"{' (interval above 50%)' if w['low'] > 0.5 else ''}; time-ceiling hits {s['search_ceiling_hits']}")


def _against(rate: float, target: int | None) -> str:
    """The rate as a ratio of the set's per-core target, when it has one."""
    return f" ({rate / target:.2f}x the {target}/core target)" if target else ""


def _per_decision(records, spec) -> float:
    secs = n = 0
    for r in records:
        for seat in range(r.seats):
            if r.agents[seat] == spec:
                secs += r.think_seconds[seat]
                n += r.decisions[seat]
    return secs / max(1, n)


if __name__ == "__main__":
    main()
