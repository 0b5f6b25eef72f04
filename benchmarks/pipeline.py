"""Render + PDF, end to end: `cardsmith pdf` against a plain Pillow + ReportLab script, in one run.

    python benchmarks/pipeline.py [--jobs 2] [--repeat 2]

On a 360-card set (the Solar Empires ships, ten distinct copies of each; see benchmarks/render.py)
it times, each as its own command from a cold start of Python:
  plain       benchmarks/plain_pipeline.py: `--jobs` processes draw with Pillow, save level-1 PNGs
              and send raw pixels to a parent that writes the A4 PDF with ReportLab;
  cold        `cardsmith pdf SET --jobs N` with no output yet: renders every card and writes the
              same A4 3 x 3 PDF, in one process tree (the set loaded and hashed once);
  unchanged   `cardsmith pdf SET` again, nothing changed;
  one change  `cardsmith pdf SET` after one card's attack is edited;
and, for those who run the two steps, `cardsmith render` then `cardsmith pdf` cold and unchanged.

Wall time is what a designer waits for. Peak memory is of the whole process tree: the sum of the
resident sets of the command and all its descendants, sampled every 20 ms from /proc (a peak
shorter than that can be missed; shared pages are counted once per process, so the sum errs high).
The largest single process (ru_maxrss of the waited-for children) is printed beside it. Plain and
cold runs alternate `--repeat` times and the best of each is compared, so a busy moment on a shared
machine hits both alike.

Targets (issue 19): cold at most 0.7x the plain script's wall time on 2 cores; tree peak under
300 MB. (issue 18): unchanged under 2% of cold, one changed card under 5%.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


def _tree_rss_kb(root_pid: int) -> int:
    """Resident memory of `root_pid` and all its descendants, in kB (from /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/statm") as f:
                pages = int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        rss[int(entry)] = pages * os.sysconf("SC_PAGE_SIZE") // 1024
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        p = frontier.pop()
        for child, parent in parents.items():
            if parent == p and child not in tree:
                tree.add(child)
                frontier.append(child)
    return sum(rss.get(p, 0) for p in tree)


def run(cmd: list[str], cwd: Path) -> dict[str, float]:
    """Run `cmd`; its wall time, the CPU of its whole tree, the tree's sampled peak and the largest process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss_kb(proc.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{err.decode()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "tree_mb": peak / 1024, "largest_mb": after.ru_maxrss / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2, help="alternating plain and cold runs; the best of each counts")
    args = ap.parse_args()
    from render import change_one_card, make_projects

    cardsmith = [sys.executable, "-m", "cardsmith"]
    with tempfile.TemporaryDirectory(prefix="cardsmith-pipeline-") as tmp:
        project = make_projects(Path(tmp))["ships360"]
        set_dir = project / "cards" / "solar-empires"
        out = project / "output"
        print(f"render + pdf, 360 distinct cards at 300 dpi, A4 3 x 3, --jobs {args.jobs}, {os.cpu_count()} cores "
              f"(shared machines give noisy figures; compare within this run)\n")
        rows: dict[str, list[dict[str, float]]] = {"plain": [], "cold": []}
        for _ in range(args.repeat):
            shutil.rmtree(Path(tmp) / "plain-out", ignore_errors=True)
            rows["plain"].append(run([sys.executable, str(HERE / "plain_pipeline.py"), str(set_dir), str(Path(tmp) / "plain-out"),
                                      "--jobs", str(args.jobs)], project))
            shutil.rmtree(out, ignore_errors=True)
            rows["cold"].append(run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project))
        best = {k: min(v, key=lambda r: r["wall"]) for k, v in rows.items()}
        best["unchanged"] = run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project)
        change_one_card(project)
        best["one change"] = run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project)
        shutil.rmtree(out, ignore_errors=True)
        two = [run(cardsmith + ["render", "solar-empires", "--jobs", str(args.jobs)], project),
               run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project)]
        best["render, then pdf: cold"] = _sum(two)
        two = [run(cardsmith + ["render", "solar-empires", "--jobs", str(args.jobs)], project),
               run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project)]
        best["render, then pdf: unchanged"] = _sum(two)

        for name, r in best.items():
            print(f"{name:30} {r['wall']:7.2f} s wall  {r['cpu']:6.1f} s cpu   tree peak {r['tree_mb']:5.0f} MB"
                  f"   largest process {r['largest_mb']:4.0f} MB")
        plain, cold = best["plain"], best["cold"]
        print(f"\ncold `cardsmith pdf` / plain script, wall: {cold['wall'] / plain['wall']:.2f}x (target <= 0.7); "
              f"cpu: {cold['cpu'] / plain['cpu']:.2f}x")
        print(f"unchanged re-run: {best['unchanged']['wall'] / cold['wall']:.1%} of cold (target < 2%)")
        print(f"one changed card: {best['one change']['wall'] / cold['wall']:.1%} of cold (target < 5%)")
        print(f"render, then pdf, unchanged: {best['render, then pdf: unchanged']['wall'] / best['render, then pdf: cold']['wall']:.1%} of their cold run")
        print(f"tree peak, cold: {cold['tree_mb']:.0f} MB (target < 300 MB); plain script: {plain['tree_mb']:.0f} MB")


def _sum(runs: list[dict[str, float]]) -> dict[str, float]:
    return {"wall": sum(r["wall"] for r in runs), "cpu": sum(r["cpu"] for r in runs),
            "tree_mb": max(r["tree_mb"] for r in runs), "largest_mb": max(r["largest_mb"] for r in runs)}


if __name__ == "__main__":
    main()
