"""Where a local Dask cluster's time goes (issue 17), in CPU seconds, beside the process pool.

    python benchmarks/cluster_cpu.py [--games 2000] [--workers 2]

Needs the extra: pip install 'cardsmith[distributed]'. Plays the same random-agent Solar Empires
games three ways in this process: on a process pool as `run_tasks` makes it (forked workers that
inherit the Game), on a local Dask cluster with Dask's own defaults (spawned workers, dashboard,
profiler, monitors), and on the local cluster cardsmith starts (`cluster._connect`). For each it
prints the start-up (wall, and the CPU the workers spent before the first game), the games' wall
time, the CPU spent inside the tasks per game (measured by the task itself, `time.thread_time`),
the CPU of this process during the games (the scheduler, nannies and client of a local cluster live
here) and the workers' CPU outside the tasks (their event loops: heartbeats, monitors, sending
results). CPU figures move much less than wall time when other work shares the machine.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.engine import runner  # noqa: E402

SET = ROOT / "cards" / "solar-empires"


def _tree_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of this process and every live descendant, by pid."""
    import psutil

    me = psutil.Process()
    out = {}
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
            out[p.pid] = t.user + t.system
        except psutil.Error:
            pass
    return out


def pool_chunk(chunk: list) -> tuple[list, float]:
    started = time.thread_time()
    return runner._play_tasks(chunk), time.thread_time() - started


def dask_chunk(files: Any, recipe: Any, decks: list, chunk: list) -> tuple[list, float]:
    from cardsmith.simulation._cluster import play_chunk

    started = time.thread_time()
    return play_chunk(files, recipe, decks, None, chunk), time.thread_time() - started


def _row(name: str, start_wall: float, start_cpu: float, games_wall: float, task_cpu: float, games: int,
         here: float, workers_outside: float) -> None:
    overhead = 100 * (here + workers_outside) / task_cpu
    print(f"  {name:<15} {start_wall:6.2f} s {start_cpu:6.2f} s {games_wall:7.2f} s {1000 * task_cpu / games:7.2f} ms "
          f"{here:6.2f} s {workers_outside:6.2f} s {overhead:5.1f}%", flush=True)


def on_pool(game: Any, decks: list, tasks: list, workers: int) -> None:
    data = [runner.deck_to_data(d) for d in decks]
    me, before = os.getpid(), _tree_cpu()[os.getpid()]
    started = time.perf_counter()
    size = runner.chunk_size(len(tasks), workers)
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    with ProcessPoolExecutor(workers, initializer=runner._init_worker,
                             initargs=(runner._Given(game), data, None)) as pool:
        task_cpu = 0.0
        for f in as_completed([pool.submit(pool_chunk, c) for c in chunks]):
            task_cpu += f.result()[1]
        cpu = _tree_cpu()
    wall = time.perf_counter() - started
    workers_cpu = sum(v for p, v in cpu.items() if p != me)
    _row("process pool", 0.0, 0.0, wall, task_cpu, len(tasks), cpu[me] - before, workers_cpu - task_cpu)


def on_dask(name: str, game: Any, decks: list, tasks: list, workers: int, defaults: bool) -> None:
    import distributed

    from cardsmith.simulation import _cluster as cl
    from cardsmith.simulation.sets import SetGameFactory

    files = cl.set_files(SET)
    recipe = SetGameFactory(Path(SET.name))
    started = time.perf_counter()
    if defaults:
        local = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                         dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
        client = distributed.Client(local)
    else:  # as a run does it (ClusterSession.open)
        cl._GAMES[(files.digest, recipe)] = game
        client, local = cl._connect(cl.ClusterSpec(workers=workers))
        cl._GAMES.clear()
    cl._ready(client, cl.ClusterSpec(workers=workers), files, recipe)
    start_wall = time.perf_counter() - started
    me, before = os.getpid(), _tree_cpu()
    start_cpu = sum(v for p, v in before.items() if p != me)
    started = time.perf_counter()
    set_future = client.submit(cl._identity, files, pure=False)
    data = [runner.deck_to_data(d) for d in decks]
    size = max(1, min(200, len(tasks) // (8 * workers)))  # as runs.py cuts a run
    chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
    task_cpu = 0.0
    for f in distributed.as_completed([client.submit(dask_chunk, set_future, recipe, data, c, pure=False)
                                       for c in chunks]):
        task_cpu += f.result()[1]
    wall = time.perf_counter() - started
    cpu = _tree_cpu()
    workers_cpu = sum(v - before.get(p, 0.0) for p, v in cpu.items() if p != me)
    cl._close(client, local)
    _row(name, start_wall, start_cpu, wall, task_cpu, len(tasks), cpu[me] - before[me], workers_cpu - task_cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games in all (spread over the set's three tables)")
    ap.add_argument("--workers", type=int, default=2, help="pool jobs and local cluster workers")
    args = ap.parse_args()

    from cardsmith.engine.registry import load_game
    from cardsmith.simulation._cluster import _quiet_dask_logs
    from cardsmith.simulation.match import balance_tasks
    from cardsmith.simulation.sets import load_checked_deck, load_set_checked

    cardset = load_set_checked(SET)
    decks = [load_checked_deck(cardset, p) for p in sorted((SET / "decks").glob("*.yaml"))]
    game = load_game(cardset)
    tasks = balance_tasks(len(decks), "random", max(1, args.games // 3), 1)
    _quiet_dask_logs()
    print(f"{len(tasks)} random-agent Solar Empires games, {args.workers} workers, load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    print(f"  {'':<15} {'start-up':>8} {'its CPU':>8} {'games':>9} {'CPU/game':>10} {'here':>8} {'workers':>8} {'extra':>6}")
    print(f"  {'':<15} {'(wall)':>8} {'(workers)':>8} {'(wall)':>9} {'in a task':>10} {'(CPU)':>8} {'outside':>8} {'CPU':>6}")
    on_pool(game, decks, tasks, args.workers)
    on_dask("Dask defaults", game, decks, tasks, args.workers, defaults=True)
    on_dask("cardsmith's", game, decks, tasks, args.workers, defaults=False)
    print(f"  'extra CPU': this process's and the workers' CPU outside the tasks, over the CPU in the tasks; "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
