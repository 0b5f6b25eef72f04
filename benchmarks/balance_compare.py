"""Acceptance run of `cardsmith balance --compare REV` (issue 16): a git project whose last commit
planted TCS-13 Rapier at 20/20; `--compare HEAD~1` should name the Rapier as the likely cause.

    python benchmarks/balance_compare.py [--budget 8000] [--jobs 2] [--seed 1]

Prints the comparison's sentences, the Terracorp matchup shifts, and wall and CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from balance_plants import plant  # noqa: E402


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.org", *args], cwd=cwd, check=True,
                   capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=8000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proj = Path(tmp)
        shutil.copytree(ROOT / "cards" / "solar-empires", proj / "cards" / "solar-empires")
        git(proj, "init", "-q")
        git(proj, "add", "-A")
        git(proj, "commit", "-qm", "before")
        card = plant(proj / "cards" / "solar-empires", "strong")
        git(proj, "commit", "-qam", "planted")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CARDSMITH_PROJECT": str(proj)}
        wall, t0 = time.perf_counter(), os.times()
        proc = subprocess.run([sys.executable, "-m", "cardsmith", "balance", "solar-empires", "--compare", "HEAD~1",
                               "--budget", str(a.budget), "--jobs", str(a.jobs), "--seed", str(a.seed), "--json"],
                              cwd=proj, env=env, capture_output=True, text=True)
        t1 = os.times()
        wall = time.perf_counter() - wall
    if proc.returncode:
        sys.exit(proc.stderr)
    cmp = json.loads(proc.stdout)["comparison"]
    print(f"planted {card}; compare against {cmp['against']}; budget {a.budget} per version")
    for s in cmp["sentences"]:
        print("  " + s)
    for m in cmp["matchups"]:
        if m["deck"] == "Terracorp Line Fleet":
            print(f"  matchup {m['deck']} vs {', '.join(m['against'])}: {100 * m['effect']:+.1f} "
                  f"[{100 * m['low']:+.1f}, {100 * m['high']:+.1f}] ({m['games']} paired games)")
    cpu = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s (the command and its workers; the machine is shared)")


if __name__ == "__main__":
    main()
