"""Render + PDF, end to end: `cardsmith pdf` against a plain Pillow + ReportLab script, in one run.

    python benchmarks/pipeline.py [--jobs 2] [--repeat 2] [--light-venv]

On a 360-card set (the Solar Empires ships, ten distinct copies of each, in one card file; see
benchmarks/render.py) it times, each as its own command from a cold start of Python (bytecode
compiled beforehand, as in an installed package), `cardsmith` as the README's venv installs it:
from the venv this script runs in if cardsmith is installed there, else from a venv made for the
run with `pip install -e .` (`--light-venv`: without a download; see `installed`); it prints
which, and that interpreter's bare start-up (`python -c pass`), the floor under every command:
  plain       benchmarks/plain_pipeline.py: `--jobs` processes draw with Pillow, save level-1 PNGs
              and send raw pixels to a parent that writes the A4 PDF with ReportLab;
  cold        `cardsmith pdf SET --jobs N` with no output yet: renders every card and writes the
              same A4 3 x 3 PDF in one pass (pages drawn and images embedded as workers finish
              them; the set loaded and hashed once);
  unchanged   `cardsmith pdf SET` again, nothing changed;
  one change  `cardsmith pdf SET` after one card's attack is edited;
and as a designer runs the two steps, `cardsmith render` then `cardsmith pdf`: cold, unchanged and
one change.

Wall time is what a designer waits for; CPU time (of the whole tree, from wait4) is steadier on a
busy machine. Peak memory is of the whole process tree, sampled every 20 ms from /proc (a peak
shorter than that can be missed): the sum of the resident sets of the command and all its
descendants (pages a forked worker shares with its parent counted in each, so it errs high) and the
sum of their proportional set sizes (each shared page split between its sharers). The largest single
process (ru_maxrss from wait4) is printed beside them. Plain and cold runs alternate `--repeat` times
and the best of each is compared, so a busy moment on a shared machine hits both alike; unchanged
and one-change runs are the best of three (each one-change run after a fresh edit). Last, the same
cold, unchanged and one-change runs in one long-lived process (as `cardsmith watch` or a build
script pays them; wall and CPU) and the start-up floor of any command (`cardsmith --version`).

Targets (issue 19): cold at most 0.7x the plain script's wall time on 2 cores; tree peak under
300 MB. (issue 28): cold `render` then `pdf` at most 0.75x the plain script. Issue 18's rebuild shares
(unchanged under 2% of cold, one changed card under 5%) are printed for comparison only: issue 28
replaced the incremental PDF append with a whole rewrite.
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
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))


def _tree_memory_kb(root_pid: int) -> tuple[int, int]:
    """Resident memory of `root_pid` and all its descendants, in kB (from /proc): the sum of their
    resident sets (pages shared after a fork counted in every process) and of their proportional
    set sizes (a shared page split between the processes sharing it: what the tree really holds)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, frontier = {root_pid}, [root_pid]
    while frontier:
        p = frontier.pop()
        for child, parent in parents.items():
            if parent == p and child not in tree:
                tree.add(child)
                frontier.append(child)
    rss = pss = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return rss, pss


ENV: dict[str, str] = {}  # set in main(): bytecode cached in the run's temporary folder


def run(cmd: list[str], cwd: Path) -> dict[str, float]:
    """Run `cmd`; its wall time, the CPU of its whole tree, the tree's sampled peak and the largest process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **ENV}
    if ENV:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    errors = tempfile.TemporaryFile()
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    peak = peak_pss = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_pss
        while not done.is_set():
            rss, pss = _tree_memory_kb(proc.pid)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    # wait4: this command's own usage, its descendants' included (ru_maxrss: the largest of them)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode != 0:
        errors.seek(0)
        raise SystemExit(f"failed: {' '.join(cmd)}\n{errors.read().decode()[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "tree_mb": peak / 1024, "tree_pss_mb": peak_pss / 1024,
            "largest_mb": usage.ru_maxrss / 1024}


def installed(tmp: Path, light: bool) -> tuple[str, list[str], str]:
    """The interpreter and the `cardsmith` command as the README's venv has them, and what they are.

    Run from a venv with cardsmith installed, that venv's. Otherwise a venv made here with the
    README's `python3 -m venv .venv && pip install -e .` (bytecode compiled, as pip does where
    PYTHONDONTWRITEBYTECODE is not set); with `light`, or where pip cannot install, a venv made
    without a download: its site-packages names this checkout (what an editable install writes)
    and this interpreter's site-packages for the libraries (their .pth start-up hooks, such as a
    sandbox's certifi patch, are not run, as in a real venv), and `bin/cardsmith` is pip's script.
    """
    script = Path(sys.prefix) / "bin" / "cardsmith"
    if sys.prefix != sys.base_prefix and script.is_file():
        return sys.executable, [str(script)], f"the venv running this script ({sys.prefix})"
    import sysconfig
    import venv

    where = tmp / "venv"
    python, script = where / "bin" / "python", where / "bin" / "cardsmith"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not light:
        venv.EnvBuilder(with_pip=True).create(where)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", str(ROOT)], env=env, capture_output=True,
                             text=True, timeout=900)
        if pip.returncode == 0 and script.is_file():
            subprocess.run([str(python), "-m", "compileall", "-q", "-j", "0", _purelib(python)], env=env,
                           capture_output=True, timeout=900)
            return str(python), [str(script)], f"a venv made for this run with `pip install -e .` ({where})"
        print(f"pip install -e . failed ({pip.stderr.strip().splitlines()[-1:] or '?'}); using a venv without a download")
        shutil.rmtree(where, ignore_errors=True)
    venv.EnvBuilder(with_pip=False).create(where)
    Path(_purelib(python), "_cardsmith_benchmark.pth").write_text(f"{ROOT}\n{sysconfig.get_paths()['purelib']}\n")
    script.write_text(f"#!{python}\nimport re\nimport sys\nfrom cardsmith.cli import main\n"
                      "if __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
                      "    sys.exit(main())\n")
    script.chmod(0o755)
    return str(python), [str(script)], (f"a venv made for this run without a download ({where}: this checkout and "
                                        f"the libraries of Python {sys.version.split()[0]})")


def _purelib(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def in_process(project: Path, jobs: int) -> dict[str, float]:
    """Cold, unchanged and one-change render + pdf in one long-lived process, as `cardsmith watch` or
    a build script pays them: what `cardsmith pdf` does (inputs fingerprinted, the validated set from
    its cache when unchanged, rendering recorded, the PDF), without starting Python each time."""
    from render import change_one_card

    from cardsmith.cache import freshness
    from cardsmith.cache.named_set import open_named_set
    from cardsmith.printing.pdf import PdfOptions, build_pdf

    def cpu() -> float:  # this process and its finished workers
        return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
                   for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))

    def once() -> dict[str, float]:
        t, c = time.perf_counter(), cpu()
        inputs = freshness.snapshot_set(Project(project), project / "cards" / "solar-empires")
        project_, cardset = open_named_set("solar-empires", Project(project))
        build_pdf(project_, cardset, PdfOptions(), jobs=jobs, inputs=inputs)
        return {"wall": time.perf_counter() - t, "cpu": cpu() - c}

    from cardsmith.base.project import Project

    shutil.rmtree(project / "output", ignore_errors=True)
    out = {"cold": once(), "unchanged": min((once() for _ in range(3)), key=lambda r: r["wall"])}
    out["one change"] = min(((change_one_card(project), once())[1] for _ in range(3)), key=lambda r: r["wall"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2, help="alternating plain and cold runs; the best of each counts")
    ap.add_argument("--light-venv", action="store_true",
                    help="run cardsmith from a venv made without pip (this interpreter's libraries) instead of `pip install -e .`")
    args = ap.parse_args()
    from render import change_one_card, make_projects

    with tempfile.TemporaryDirectory(prefix="cardsmith-pipeline-") as tmp:
        python, cardsmith, which = installed(Path(tmp), args.light_venv)
        project = make_projects(Path(tmp))["ships360"]
        # An installed cardsmith has its bytecode compiled (pip does it); this checkout may run with
        # PYTHONDONTWRITEBYTECODE. Cache bytecode in the run's folder and compile it once, untimed, so
        # every command is timed as a user's would be (the plain script gets the same).
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        run([python, "-c", "import compileall, sys; compileall.compile_dir(sys.argv[1], quiet=1); "
             "compileall.compile_dir(sys.argv[2], quiet=1)", str(ROOT / "cardsmith"), str(HERE)], project)
        print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"cardsmith as installed in {which}")
        bare = min((run([python, "-c", "pass"], project) for _ in range(5)), key=lambda r: r["wall"])
        print(f"bare start-up of that interpreter (`python -c pass`, best of 5): {bare['wall'] * 1000:.0f} ms wall, "
              f"{bare['cpu'] * 1000:.0f} ms cpu")
        set_dir = project / "cards" / "solar-empires"
        out = project / "output"
        print(f"render + pdf, 360 distinct cards at 300 dpi, A4 3 x 3, --jobs {args.jobs}, {os.cpu_count()} cores "
              f"(shared machines give noisy figures; compare within this run)\n")
        rows: dict[str, list[dict[str, float]]] = {"plain": [], "cold": []}
        for _ in range(args.repeat):
            shutil.rmtree(Path(tmp) / "plain-out", ignore_errors=True)
            rows["plain"].append(run([python, str(HERE / "plain_pipeline.py"), str(set_dir), str(Path(tmp) / "plain-out"),
                                      "--jobs", str(args.jobs)], project))
            shutil.rmtree(out, ignore_errors=True)
            rows["cold"].append(run(cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)], project))
        best = {k: min(v, key=lambda r: r["wall"]) for k, v in rows.items()}
        pdf = cardsmith + ["pdf", "solar-empires", "--jobs", str(args.jobs)]
        render = cardsmith + ["render", "solar-empires", "--jobs", str(args.jobs)]
        tries = max(3, args.repeat)  # rebuilds are short: the best of a few, each a fresh edit for one change
        best["unchanged"] = _best(lambda: run(pdf, project), tries)
        best["one change"] = _best(lambda: (change_one_card(project), run(pdf, project))[1], tries)
        # as a designer runs it: two commands, `cardsmith render` then `cardsmith pdf`
        shutil.rmtree(out, ignore_errors=True)
        best["render, then pdf: cold"] = _sum([run(render, project), run(pdf, project)])
        best["render, then pdf: unchanged"] = _best(lambda: _sum([run(render, project), run(pdf, project)]), tries)
        best["render, then pdf: one change"] = _best(
            lambda: (change_one_card(project), _sum([run(render, project), run(pdf, project)]))[1], tries)

        inproc = in_process(project, args.jobs)

        for name, r in best.items():
            print(f"{name:30} {r['wall']:7.2f} s wall  {r['cpu']:6.2f} s cpu   tree peak {r['tree_mb']:4.0f} MB rss,"
                  f" {r['tree_pss_mb']:4.0f} MB pss   largest process {r['largest_mb']:4.0f} MB")
        plain, cold = best["plain"], best["cold"]
        print(f"\ncold `cardsmith pdf` / plain script, wall: {cold['wall'] / plain['wall']:.2f}x (target <= 0.7); "
              f"cpu: {cold['cpu'] / plain['cpu']:.2f}x")
        print(f"tree peak, cold: {cold['tree_mb']:.0f} MB summed rss, {cold['tree_pss_mb']:.0f} MB summed pss (target < 300 MB); "
              f"plain script: {plain['tree_mb']:.0f} / {plain['tree_pss_mb']:.0f} MB")
        two = best["render, then pdf: cold"]
        print(f"cold `cardsmith render` + `cardsmith pdf` / plain script, wall: {two['wall'] / plain['wall']:.2f}x "
              f"(target <= 0.75); cpu: {two['cpu'] / plain['cpu']:.2f}x")
        # Issue 18 asked for a one-card rebuild under 5% of cold; issue 28 traded that for a whole PDF rewrite
        # (no incremental append), so these shares are shown for comparison, not held to a target.
        print("\nrebuilds (shares of the cold run):")
        for name in ("unchanged", "one change"):
            r = best[f"render, then pdf: {name}"]
            print(f"  `cardsmith render` then `cardsmith pdf`, {name}: {r['wall'] / two['wall']:.1%} of their cold wall, "
                  f"{r['cpu'] / two['cpu']:.1%} of its cpu")
        for name in ("unchanged", "one change"):
            r = best[name]
            print(f"  `cardsmith pdf` alone, {name}: {r['wall'] / cold['wall']:.1%} of its cold wall, {r['cpu'] / cold['cpu']:.1%} of its cpu")
        cold_in = inproc["cold"]
        print(f"\nin one long-lived process (load, render, pdf; no Python start-up): cold {cold_in['wall']:.2f} s wall, "
              f"{cold_in['cpu']:.2f} s cpu")
        for name in ("unchanged", "one change"):
            r = inproc[name]
            print(f"  {name}: {r['wall']:.3f} s wall ({r['wall'] / cold_in['wall']:.1%} of cold), {r['cpu']:.3f} s cpu "
                  f"({r['cpu'] / cold_in['cpu']:.1%})")
        floor = min((run(cardsmith + ["--version"], project) for _ in range(3)), key=lambda r: r["wall"])
        print(f"start-up floor of any cardsmith command (`cardsmith --version`): {floor['wall']:.2f} s wall, "
              f"{floor['cpu']:.2f} s cpu ({floor['wall'] / cold['wall']:.1%} of cold)")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _best(measure: Any, times: int) -> dict[str, float]:
    """The run with the least wall time of `times` calls of `measure` (a busy moment hits some of them)."""
    return min((measure() for _ in range(times)), key=lambda r: r["wall"])


def _sum(runs: list[dict[str, float]]) -> dict[str, float]:
    return {"wall": sum(r["wall"] for r in runs), "cpu": sum(r["cpu"] for r in runs),
            "tree_mb": max(r["tree_mb"] for r in runs), "tree_pss_mb": max(r["tree_pss_mb"] for r in runs),
            "largest_mb": max(r["largest_mb"] for r in runs)}


if __name__ == "__main__":
    main()
