"""Acceptance runs of the balance report's card tests (issue 16), on copies of Solar Empires.

    python benchmarks/balance_plants.py --plant strong|weak|none [--seed 1] [--budget N] [--jobs 2]

  * strong: TCS-13 Rapier (Terracorp Line Fleet, 4 copies) made 20/20 for its 1/1/1 cost; the
    verdict should name it first among causes with an interval excluding zero;
  * weak: Missile Drone (Chain Swarm, 3 copies) made 0/1; it should be flagged too weak;
  * none: the set as it is; at most 10% of cards should be flagged (FDR 5%).

Prints the verdict, where the planted card ranks, the flag counts, and wall time and CPU time
(this process and its workers) with the load average: the machine is shared, so wall time alone
says little; CPU time over the number of jobs is the wall time the run needs on free cores.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from cardsmith.simulation import DEFAULT_BUDGET  # noqa: E402

PLANTS = {
    "strong": ("ships-terracorp.yaml", "tcs-13-rapier", {"attack": 20, "armour": 20}),
    "weak": ("ships-chain.yaml", "missile-drone", {"attack": 0, "armour": 1}),
}


def plant(set_dir: Path, which: str) -> str | None:
    """Edit the copied set in place; return the planted card's id."""
    if which == "none":
        return None
    file, card, stats = PLANTS[which]
    path = set_dir / file
    text = path.read_text(encoding="utf-8")
    start = text.index(f"id: {card}")
    end = text.find("- id:", start)
    end = len(text) if end < 0 else end
    block = text[start:end]
    for key, value in stats.items():
        block, n = re.subn(rf"(\n\s+{key}: )-?\d+", rf"\g<1>{value}", block, count=1)
        assert n == 1, f"{card} has no {key}"
    path.write_text(text[:start] + block + text[end:], encoding="utf-8")
    return card


def planted_set(which: str, tmp: Path) -> tuple[Path, str | None]:
    set_dir = tmp / "solar-empires"
    shutil.copytree(ROOT / "cards" / "solar-empires", set_dir)
    return set_dir, plant(set_dir, which)


def run(set_dir: Path, seed: int, budget: int, jobs: int, agent: str = "random") -> dict:
    from cardsmith.engine.registry import load_game
    from cardsmith.simulation.balance import balance_figures
    from cardsmith.simulation.sets import SetGameFactory, deck_files, load_checked_deck, load_set_checked

    cardset = load_set_checked(set_dir)
    game = load_game(cardset)
    decks = [load_checked_deck(cardset, p) for p in deck_files(cardset.path)]
    return balance_figures(cardset, game, SetGameFactory(cardset.path), decks, agent, games=100, seed=seed,
                           budget=budget, jobs=jobs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plant", choices=["strong", "weak", "none"], default="strong")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        set_dir, card = planted_set(a.plant, Path(tmp))
        load0 = os.getloadavg()[0]
        wall, t0 = time.perf_counter(), os.times()
        figures = run(set_dir, a.seed, a.budget, a.jobs)
        t1 = os.times()
        wall = time.perf_counter() - wall
    cpu = (t1.user - t0.user) + (t1.system - t0.system) + (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    print(f"plant {a.plant} ({card or 'no card'}), seed {a.seed}, budget {a.budget}, jobs {a.jobs}")
    print("verdict:")
    for s in figures["verdict"]["sentences"]:
        print("  " + s)
    tests = figures["card_tests"]
    flagged = [r for r in tests if r["flag"]]
    print(f"card tests: {len(tests)}; flagged {len(flagged)} ({100 * len(flagged) / len(tests):.1f}%) at FDR "
          f"{100 * figures['fdr']:.0f}%: {sum(r['flag'] == 'too strong' for r in tests)} too strong, "
          f"{sum(r['flag'] == 'too weak' for r in tests)} too weak")
    if card:
        for rank, r in enumerate(tests, 1):
            if r["card"] == card:
                print(f"planted card: rank {rank} of {len(tests)}, effect {100 * r['effect']:+.1f} "
                      f"[{100 * r['low']:+.1f}, {100 * r['high']:+.1f}], {r['games']} games, flag {r['flag']}")
        causes = figures["verdict"]["causes"]
        print(f"first cause named: {causes[0]['card'] if causes else None}")
    print(f"games: {figures['games']} round robin + {figures['study_games']} card-test games")
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s (process and workers) = {cpu / a.jobs:.1f} s on {a.jobs} cores if "
          f"they were free; load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
