"""Dask's overhead (issue 17): random-agent Solar Empires games on `--cluster local:2` against the
process pool with 2 jobs.

    python benchmarks/cluster.py [--games 2000] [--workers 2] [--repeat 3]

Needs the extra: pip install 'cardsmith[distributed]'. Runs the same `cardsmith balance` command
(random agents, seed 1, no card tests) in a fresh process, alternating `--jobs N` and
`--cluster local:N`, in a scratch project holding a copy of the set, and prints for every run: the
load average before it, the command's wall time and CPU time (its own and every process it started,
Dask's workers included), and from run.json the wall time of the games and how much of it went into
starting the cluster. Then the medians and four ratios, cluster over pool:

- whole command: what a user waits for (Python's start, imports, loading the set, the report: the
  same both ways; the cluster's start-up; the games);
- games, with start-up: run.json's wall time (the pool's includes forking its workers);
- games only: the cluster's without its start-up, against the pool's whole run (the target: <= 1.15);
- CPU, whole command: what both cost the machine, which other work on a shared machine moves less
  than wall time.

It also checks that every run wrote the same balance.json, byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Run:
    name: str
    load: float
    wall: float  # the whole command
    cpu: float  # the command and every process it started and waited for
    games_wall: float  # run.json: the games, with the cluster's start-up
    startup: float  # run.json: starting the cluster
    figures: bytes  # balance.json


def run_once(project: Path, name: str, where: list[str], games_per_table: int) -> Run:
    cmd = [sys.executable, "-m", "cardsmith", "balance", "solar-empires", "--agents", "random",
           "--games", str(games_per_table), "--seed", "1", "--budget", "0", *where]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=project, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    out = project / "output" / "solar-empires" / "balance"
    info = json.loads((out / "run.json").read_text())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(name, load, wall, cpu, info["wall_seconds"], info["startup_seconds"], (out / "balance.json").read_bytes())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games in all (spread over the set's three tables)")
    ap.add_argument("--workers", type=int, default=2, help="pool jobs and local cluster workers")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, alternating; medians are compared")
    args = ap.parse_args()
    per_table = max(1, args.games // 3)
    n = args.workers
    ways = {"pool": ["--jobs", str(n)], "cluster": ["--cluster", f"local:{n}"]}
    print(f"Solar Empires: {per_table * 3} random-agent games over 3 tables; --jobs {n} against --cluster local:{n}, "
          f"{args.repeat} runs each, {os.cpu_count()} cores")
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        shutil.copytree(ROOT / "cards" / "solar-empires", project / "cards" / "solar-empires")
        for i in range(args.repeat):
            for name in (("pool", "cluster") if i % 2 == 0 else ("cluster", "pool")):
                r = run_once(project, name, ways[name], per_table)
                runs.append(r)
                print(f"  {r.name:<8} load {r.load:4.1f}: command {r.wall:6.2f} s wall, {r.cpu:6.2f} s CPU; "
                      f"games {r.games_wall:6.2f} s, of which {r.startup:4.2f} s starting the cluster", flush=True)

    def med(name: str, f) -> float:
        return statistics.median(f(r) for r in runs if r.name == name)

    print("medians:")
    for name in ways:
        print(f"  {name:<8} command {med(name, lambda r: r.wall):6.2f} s wall, {med(name, lambda r: r.cpu):6.2f} s CPU; "
              f"games {med(name, lambda r: r.games_wall):6.2f} s, start-up {med(name, lambda r: r.startup):4.2f} s")
    pool_games = med("pool", lambda r: r.games_wall)
    print("cluster / pool:")
    print(f"  whole command (wall):             {med('cluster', lambda r: r.wall) / med('pool', lambda r: r.wall):.2f}")
    print(f"  games with start-up (wall):       {med('cluster', lambda r: r.games_wall) / pool_games:.2f}")
    print(f"  games only (wall):                {med('cluster', lambda r: r.games_wall - r.startup) / pool_games:.2f}"
          "  (target <= 1.15)")
    print(f"  whole command (CPU):              {med('cluster', lambda r: r.cpu) / med('pool', lambda r: r.cpu):.2f}")
    same = len({r.figures for r in runs}) == 1
    print(f"  balance.json the same in every run: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
