"""Rendering speed and memory: cardsmith's renderer against a plain-Pillow baseline, in one run.

    python benchmarks/render.py            # Solar Empires and a 360-card set (its ships x 10)
    python benchmarks/render.py --quick    # the 360-card set only, fewer configurations

Every measurement runs in a fresh child process so that its peak memory (ru_maxrss of the main
process and of its worker processes) is its own. The baseline draws comparable layers with plain
Pillow calls (frame, name bar, name, type line, cost icons with numbers, attack and armour badges,
wrapped rules text, plus the gradient backdrop, starfield and emblem the Solar Empires layouts draw,
so both make a comparable picture) at 300 dpi and saves PNGs the same way, on one core. It makes
each gradient and emblem once and reuses it, as a hand-written script would.

Targets (from the rendering issue): cold rendering at least 0.7x the baseline's cards/s on one core;
at least 1.7x faster on two cores than on one; an incremental rebuild after one changed card in
under 5% of the cold time; peak memory under 300 MB for 360 cards. Timings on a shared machine
are noisy: run it twice, and read the ratios rather than the absolute numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SET_DIR = Path(os.environ.get("CARDSMITH_BENCH_SET", ROOT / "cards" / "solar-empires"))


# ---- making the sets --------------------------------------------------------------------------------

def make_projects(base: Path) -> dict[str, Path]:
    """Two projects: `se` (the Solar Empires set as shipped) and `ships360` (its ships, ten times each)."""
    import yaml

    se = base / "se"
    shutil.copytree(SET_DIR, se / "cards" / "solar-empires")
    big = base / "ships360"
    target = big / "cards" / "solar-empires"
    shutil.copytree(SET_DIR, target, ignore=shutil.ignore_patterns("*.yaml", "decks"))
    shutil.copy(SET_DIR / "set.yaml", target / "set.yaml")
    ships = []
    for f in sorted(SET_DIR.glob("ships-*.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        for c in doc["cards"]:
            ships.append({**doc.get("defaults", {}), **c})
    cards = [{**c, "id": f"{c['id']}-{i}", "name": f"{c['name']} {i}"} for i in range(1, 11) for c in ships]

    class Dumper(yaml.SafeDumper):  # each card written out in full, as a designer writes them (no &id001 / *id001)
        def ignore_aliases(self, data: object) -> bool:
            return True

    (target / "ships.yaml").write_text(yaml.dump({"cards": cards}, Dumper=Dumper, sort_keys=False, allow_unicode=True),
                                       encoding="utf-8")
    return {"se": se, "ships360": big}


def change_one_card(project: Path) -> None:
    """Edit the attack of the first ship in the set's first ships file: one up from an even value, one
    down from an odd one, so that any number of edits keeps it within the set's bounds."""
    f = sorted((project / "cards" / "solar-empires").glob("ships*.yaml"))[0]
    text = f.read_text(encoding="utf-8")
    i = text.index("attack:")
    j = text.index("\n", i)
    value = int(text[i + len("attack:"):j].strip())
    f.write_text(text[:i] + f"attack: {value + 1 if value % 2 == 0 else value - 1}" + text[j:], encoding="utf-8")


# ---- the plain-Pillow baseline -----------------------------------------------------------------------

def baseline(project: Path, out: Path) -> dict:
    """Draw every card with plain Pillow calls (benchmarks/plain.py); one process."""
    from plain import PlainCards

    plain = PlainCards(project / "cards" / "solar-empires", SET_DIR / "icons")
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for card in plain.cards:
        plain.draw(card).save(out / f"{card.id}.png", "PNG", compress_level=1, dpi=(300, 300))
    return {"seconds": time.perf_counter() - started, "cards": len(plain.cards)}


# ---- cardsmith -------------------------------------------------------------------------------------

def cardsmith_run(project: Path, jobs: int, force: bool) -> dict:
    from cardsmith.base.project import Project
    from cardsmith.render.batch import render_set
    from cardsmith.sets.validate import load_set

    t0 = time.perf_counter()
    cs = load_set(project / "cards" / "solar-empires")
    t1 = time.perf_counter()
    r = render_set(Project(project), cs, jobs=jobs, force=force)
    t2 = time.perf_counter()
    if r.errors:
        raise SystemExit("render failed: " + "; ".join(d.message for d in r.errors[:3]))
    return {"seconds": t2 - t1, "load_seconds": t1 - t0, "cards": len(cs.cards), "drawn": len(r.rendered) + len(r.backs_rendered)}


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_headroom(cores: int) -> float:
    """How much faster `cores` processes finish a trivially parallel job than one: what the machine
    gives right now (other users' load included), the ceiling for any parallel speed-up measured here."""
    import multiprocessing

    n = 4_000_000
    t = time.perf_counter()
    for _ in range(cores):
        _burn(n)
    serial = time.perf_counter() - t
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    t = time.perf_counter()
    with ctx.Pool(cores) as pool:
        pool.map(_burn, [n] * cores)
    return serial / (time.perf_counter() - t)


def child(spec: dict) -> None:
    if spec["what"] == "baseline":
        result = baseline(Path(spec["project"]), Path(spec["out"]))
    else:
        result = cardsmith_run(Path(spec["project"]), spec["jobs"], spec.get("force", False))
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    result.update(peak_main_mb=me.ru_maxrss / 1024, peak_worker_mb=kids.ru_maxrss / 1024,
                  cpu_seconds=me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime)
    print(json.dumps(result))


def measure(spec: dict) -> dict:
    p = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True, text=True, cwd=ROOT)
    if p.returncode != 0:
        raise SystemExit(f"benchmark step failed: {spec}\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="only the 360-card set")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(json.loads(args.child))
        return
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="cardsmith-bench-") as tmp:
        projects = make_projects(Path(tmp))
        print(f"cardsmith render benchmark: 300 dpi PNG, {cores} cores available (shared machines give noisy figures)\n")
        print(f"{'machine: a trivially parallel job, ' + str(cores) + ' processes vs 1':58} {machine_headroom(cores):.2f}x "
              f"(the ceiling for the multi-core figures below; {cores}.00x on an idle machine)")
        rows = []
        names = ["ships360"] if args.quick else ["se", "ships360"]
        for name in names:
            proj = projects[name]
            base = measure({"what": "baseline", "project": str(proj), "out": str(Path(tmp) / f"baseline-{name}")})
            base_rate = base["cards"] / base["seconds"]
            print(f"{'plain-Pillow baseline, ' + name + ', 1 core':58} {base['cards']:4d} cards {base['seconds']:7.1f} s "
                  f"{base_rate:6.1f} cards/s   peak {base['peak_main_mb']:5.0f} MB   cpu {base['cpu_seconds']:.1f} s")
            one = measure({"what": "cardsmith", "project": str(proj), "jobs": 1, "force": True})
            allc = measure({"what": "cardsmith", "project": str(proj), "jobs": cores, "force": True})
            same = measure({"what": "cardsmith", "project": str(proj), "jobs": cores})
            change_one_card(proj)
            inc = measure({"what": "cardsmith", "project": str(proj), "jobs": cores})
            headroom = machine_headroom(cores)
            for label, r in ((f"cold, 1 core", one), (f"cold, {cores} cores", allc), ("unchanged, no card drawn", same),
                             ("one card changed", inc)):
                rate = r["cards"] / r["seconds"]
                rows.append((name, label, r, rate))
                print(f"{'cardsmith, ' + name + ', ' + label:58} {r['cards']:4d} cards {r['seconds']:7.1f} s {rate:6.1f} cards/s"
                      f"   drew {r['drawn']:3d}   peak main {r['peak_main_mb']:4.0f} MB, worker {r['peak_worker_mb']:4.0f} MB"
                      f"   cpu {r['cpu_seconds']:.1f} s (validation {r['load_seconds']:.1f} s)")
            print(f"  {name}: 1 core vs baseline: {one['cards'] / one['seconds'] / base_rate:.2f}x the baseline's cards/s (target >= 0.7)")
            print(f"  {name}: {cores} cores vs 1 core: {one['seconds'] / allc['seconds']:.2f}x faster (target >= 1.7 on 2 cores); "
                  f"cpu used {one['cpu_seconds']:.1f} s vs {allc['cpu_seconds']:.1f} s: with {cores} idle cores the bound is "
                  f"{min(cores, cores * one['cpu_seconds'] / allc['cpu_seconds']):.2f}x; the machine gave a trivially parallel job {headroom:.2f}x just now")
            print(f"  {name}: one changed card: {inc['seconds'] / allc['seconds']:.1%} of the cold time (target < 5%)")
            peak = max(max(r["peak_main_mb"], r["peak_worker_mb"]) for set_name, _label, r, _rate in rows if set_name == name)
            print(f"  {name}: peak memory of any one process: {peak:.0f} MB (target < 300 MB for 360 cards)\n")


if __name__ == "__main__":
    main()
