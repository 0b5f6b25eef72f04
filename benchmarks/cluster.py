"""Dask's overhead (issue 17): random-agent Solar Empires games on `--cluster local:2` against the
process pool with 2 jobs.

    python benchmarks/cluster.py [--games 2000] [--workers 2] [--repeat 1]

Needs the extra: pip install 'cardsmith[distributed]'. Plays the same games (a balance run over the
set's decks, seed 1) both ways and prints, for each: the wall time of the whole run, the time spent
starting the local cluster, games per second, and the ratio of the cluster's time to the pool's, with
and without the cluster's start (target: the cluster within 15% of the pool). It also checks that both
gave the same records. The machine may be shared with other work: figures are what this run measured.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.engine.registry import load_game  # noqa: E402
from cardsmith.simulation.match import balance_tasks  # noqa: E402
from cardsmith.simulation.runs import RunInfo, Where, run_games  # noqa: E402
from cardsmith.simulation.sets import SetGameFactory, load_checked_deck, load_set_checked  # noqa: E402
from cardsmith.simulation.taskstore import record_to_data  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games in all (spread over the set's tables)")
    ap.add_argument("--workers", type=int, default=2, help="pool jobs and local cluster workers")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, alternating; the best is kept")
    args = ap.parse_args()

    path = ROOT / "cards" / "solar-empires"
    cardset = load_set_checked(path)
    decks = [load_checked_deck(cardset, p) for p in sorted((path / "decks").glob("*.yaml"))]
    game = load_game(cardset)
    tables = len(decks) * (len(decks) - 1) // 2
    tasks = balance_tasks(len(decks), "random", max(1, args.games // tables), 1)
    print(f"Solar Empires: {len(tasks)} random-agent games over {tables} tables, {args.workers} workers")

    def run(where: Where) -> tuple[RunInfo, list]:
        records, info = run_games(SetGameFactory(path), game, decks, tasks, where)
        return info, [record_to_data(r) for r in records]

    quiet = lambda text: None  # noqa: E731
    best: dict[str, RunInfo] = {}
    results = {}
    for _ in range(args.repeat):
        for name, where in (("pool", Where(jobs=args.workers, notices=quiet)),
                            ("cluster", Where(cluster=f"local:{args.workers}", set_folder=path, notices=quiet))):
            info, data = run(where)
            results[name] = [{k: v for k, v in d.items() if k != "think_seconds"} for d in data]
            if name not in best or info.wall_seconds < best[name].wall_seconds:
                best[name] = info
    for name, info in best.items():
        print(f"  {name:<8} {info.where}: {info.wall_seconds:.2f} s in all, of which {info.startup_seconds:.2f} s "
              f"starting the cluster; {info.games_per_second:.0f} games/s")
    pool, cl = best["pool"], best["cluster"]
    games_only = cl.wall_seconds - cl.startup_seconds
    print(f"  cluster / pool, whole run:            {cl.wall_seconds / pool.wall_seconds:.2f}")
    print(f"  cluster / pool, without starting it:  {games_only / pool.wall_seconds:.2f}  (target <= 1.15)")
    print(f"  same records both ways: {'yes' if results['pool'] == results['cluster'] else 'NO'}")


if __name__ == "__main__":
    main()
