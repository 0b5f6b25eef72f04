"""Balance runs on a Dask cluster (issue 17): the same balance.json as the process pool, byte for byte,
on a real scheduler with two workers, also when a worker dies halfway; a lost scheduler says what was
finished and `--resume` plays only the rest; without `--cluster` Dask is never imported."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import main_in_process as cs

ROOT = Path(__file__).resolve().parent.parent
SOLAR = ROOT / "cards" / "solar-empires"
# Few games, random agents: the whole module stays well under a minute.
BALANCE = ["balance", "solar-empires", "--agents", "random", "--games", "30", "--seed", "7", "--budget", "0"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project holding a copy of Solar Empires."""
    root = tmp_path / "proj"
    shutil.copytree(SOLAR, root / "cards" / "solar-empires")
    monkeypatch.chdir(root)
    monkeypatch.delenv("CARDSMITH_PROJECT", raising=False)
    return root


@pytest.fixture(scope="module")
def pool_bytes(tmp_path_factory) -> bytes:
    """balance.json of BALANCE on the process pool (`--jobs 2`), in a project of its own: what every
    run elsewhere (a cluster, a resumed run) must write, byte for byte."""
    from conftest import run_in_process

    root = tmp_path_factory.mktemp("pool")
    shutil.copytree(SOLAR, root / "cards" / "solar-empires")
    r = run_in_process(*BALANCE, "--jobs", "2", cwd=root, env={"CARDSMITH_PROJECT": str(root)})
    assert r.returncode == 0, r.stderr
    return balance_bytes(root)


def balance_bytes(project: Path) -> bytes:
    return (project / "output" / "solar-empires" / "balance" / "balance.json").read_bytes()


def tasks_dir(project: Path) -> Path:
    return project / "output" / "solar-empires" / "balance" / ".tasks"


def stored_games(folder: Path) -> int:
    """Games kept in a run's .tasks folder (part-FIRST-LAST.json files)."""
    n = 0
    for p in folder.glob("part-*.json"):
        first, last = p.stem.split("-")[1:]
        n += int(last) - int(first) + 1
    return n


# ---- without Dask ----------------------------------------------------------------------------------

def test_cluster_addresses_are_read_or_refused():
    from cardsmith.base.errors import UsageError
    from cardsmith.simulation._cluster import parse_cluster

    assert parse_cluster("local:3").workers == 3 and parse_cluster("local:3").local
    assert parse_cluster("local").workers == (os.cpu_count() or 1)
    assert parse_cluster("tcp://10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    for bad in ("local:0", "local:x", "10.0.0.5:8786", "tcp://"):
        with pytest.raises(UsageError):
            parse_cluster(bad)


def test_play_and_balance_never_import_dask_without_cluster(project):
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from cardsmith.cli._group import cli\n"
        "r = CliRunner()\n"
        "a = r.invoke(cli, ['balance', 'solar-empires', '--agents', 'random', '--games', '2', '--jobs', '1', '--budget', '0'])\n"
        "b = r.invoke(cli, ['play', 'solar-empires', '--deck', 'chain', '--deck', 'shadow', '--agents', 'random',"
        " '--games', '2', '--jobs', '1'])\n"
        "assert a.exit_code == b.exit_code == 0, (a.output, b.output)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], cwd=project, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_cluster_without_the_extra_says_how_to_install_it(project, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now fails, as when not installed
    code, out, err = cs(*BALANCE, "--cluster", "local:1")
    assert code == 2
    assert "pip install 'cardsmith[distributed]'" in err and "Traceback" not in err


def test_jobs_and_cluster_together_are_refused(project):
    code, out, err = cs(*BALANCE, "--jobs", "2", "--cluster", "local:2")
    assert code == 2 and "--jobs" in err and "--cluster" in err


def test_a_lost_cluster_says_whether_the_finished_games_are_kept():
    from cardsmith.simulation._cluster import ClusterSpec, _lost

    spec = ClusterSpec(address="tcp://10.0.0.5:8786")
    kept = _lost(spec, OSError("Timed out"), 45, 90)
    assert "45 of 90 games were finished and are kept" in str(kept) and "--resume" in kept.hint
    card_tests = _lost(spec, OSError("Timed out"), 12, 40, kept=False)
    assert "12 of 40 games of this step were finished (not kept)" in str(card_tests)
    assert "--resume" not in card_tests.hint


def test_dashboard_is_only_for_a_local_cluster(project):
    code, out, err = cs(*BALANCE, "--dashboard")
    assert code == 2 and "--cluster local" in err
    code, out, err = cs(*BALANCE, "--dashboard", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and "serves its own dashboard" in err and "Traceback" not in err


def test_an_interrupted_run_resumes_from_its_finished_games(project, monkeypatch):
    from cardsmith.base.errors import CardsmithError
    from cardsmith.simulation import _taskstore as taskstore

    code, _, err = cs(*BALANCE, "--jobs", "1")
    assert code == 0, err
    whole = balance_bytes(project)
    assert not tasks_dir(project).exists()  # a finished run keeps nothing

    real_save, saved = taskstore.TaskStore.save, []

    def failing_save(self, records):
        if len(saved) == 3:
            raise CardsmithError("the machine went away")
        saved.append(len(records))
        real_save(self, records)

    monkeypatch.setattr(taskstore.TaskStore, "save", failing_save)
    code, _, err = cs(*BALANCE, "--jobs", "1")
    assert code == 1 and "went away" in err
    kept = stored_games(tasks_dir(project))
    assert kept == sum(saved) > 0
    monkeypatch.setattr(taskstore.TaskStore, "save", real_save)

    code, out, err = cs(*BALANCE, "--games", "31", "--jobs", "1", "--resume")  # not the same run
    assert code == 2 and "another run" in err
    assert stored_games(tasks_dir(project)) == kept

    code, out, err = cs(*BALANCE, "--jobs", "1", "--resume")
    assert code == 0, err
    assert f"resuming: {kept} of 90 games" in err
    run = json.loads((project / "output" / "solar-empires" / "balance" / "run.json").read_text())
    assert run["resumed"] == kept and run["games"] == 90 - kept
    assert balance_bytes(project) == whole


# ---- on a real scheduler and two workers ---------------------------------------------------------

dask_missing = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask is not installed (pip install '.[distributed]'; scripts/test.sh installs it)")


class LocalDask:
    """A `dask scheduler` and `dask worker` processes on 127.0.0.1, each in its own process group."""

    def __init__(self, folder: Path):
        self.folder, self.workers = folder, []
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.file = folder / "scheduler.json"
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                     "--scheduler-file", str(self.file))
        try:
            self.address = self._wait(self._address)
        except BaseException:  # never leave a scheduler behind
            self.close()
            raise

    def _address(self) -> str | None:
        try:  # the scheduler writes its file in more than one step
            return json.loads(self.file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            return None

    def _start(self, *args: str) -> subprocess.Popen:
        log = open(self.folder / f"{args[0]}-{len(self.workers)}.log", "w")
        return subprocess.Popen([sys.executable, "-m", "dask", *args], env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def _wait(self, probe, limit: float = 60):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            got = probe()
            if got:
                return got
            time.sleep(0.1)
        self.close()
        pytest.fail(f"the local Dask cluster did not start within {limit} s (logs in {self.folder})")

    def add_workers(self, n: int) -> None:
        """Start workers until `n` are alive, and wait for the scheduler to see them."""
        from distributed import Client

        self.workers = [p for p in self.workers if p.poll() is None]
        while len(self.workers) < n:
            self.workers.append(self._start("worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
                                            "--no-nanny", "--no-dashboard", "--death-timeout", "60"))
        with Client(self.address, timeout="30s") as c:
            c.wait_for_workers(n, timeout=60)

    @staticmethod
    def kill(p: subprocess.Popen) -> None:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait(timeout=10)

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            try:
                self.kill(p)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass


@pytest.fixture(scope="module")
def module_cluster(tmp_path_factory):
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("Dask is not installed (pip install '.[distributed]'; scripts/test.sh installs it)")
    cluster = LocalDask(tmp_path_factory.mktemp("dask"))
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture
def dask_cluster(module_cluster):
    """The module's scheduler with two live workers (a test may have killed one)."""
    module_cluster.add_workers(2)
    return module_cluster


def kill_when_half_done(folder: Path, total: int, victim, seen: dict) -> threading.Thread:
    """Watch the run's kept games and kill `victim` once half of them are finished."""
    def watch() -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            n = stored_games(folder) if folder.is_dir() else 0
            if n >= total // 2:
                seen["at"] = n
                victim()
                return
            time.sleep(0.01)

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    return t


@dask_missing
def test_a_cluster_gives_the_process_pools_bytes_even_when_a_worker_dies(project, dask_cluster, pool_bytes):
    pool = pool_bytes
    code, out, err = cs(*BALANCE, "--cluster", dask_cluster.address)
    assert code == 0, err
    assert balance_bytes(project) == pool
    run = json.loads((project / "output" / "solar-empires" / "balance" / "run.json").read_text())
    assert run["where"] == f"Dask scheduler {dask_cluster.address}" and run["workers"] == 2 and run["games"] == 90
    assert "ran on Dask scheduler" in out and "2 workers" in out
    assert "dashboard: none" in err  # the test's scheduler runs with --no-dashboard
    assert "Where it ran" in (project / "output" / "solar-empires" / "balance" / "report.html").read_text()

    seen: dict = {}
    watcher = kill_when_half_done(tasks_dir(project), 90, lambda: dask_cluster.kill(dask_cluster.workers[0]), seen)
    code, out, err = cs(*BALANCE, "--cluster", dask_cluster.address)
    watcher.join(timeout=5)
    assert code == 0, err
    assert 45 <= seen["at"] < 90, "the worker was killed while games were still to play"
    assert dask_cluster.workers[0].poll() is not None
    assert balance_bytes(project) == pool


@dask_missing
def test_a_scheduler_that_cannot_be_reached_is_a_clear_error(project):
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code, out, err = cs(*BALANCE, "--cluster", "tcp://127.0.0.1:9")  # the discard port: nothing listens
    assert code == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and "dask scheduler" in err
    assert "Traceback" not in err


@dask_missing
def test_play_on_a_cluster_matches_the_pool_and_still_logs_game_zero(project, dask_cluster):
    args = ["play", "solar-empires", "--deck", "chain", "--deck", "terracorp", "--agents", "random", "--games", "12", "--json"]
    code, pool, err = cs(*args, "--jobs", "1", "--log", "pool.log")
    assert code == 0, err
    code, there, err = cs(*args, "--cluster", dask_cluster.address, "--log", "cluster.log")
    assert code == 0, err
    assert json.loads(there) == json.loads(pool)
    assert (project / "cluster.log").read_text() == (project / "pool.log").read_text()
    assert not (project / "output" / "solar-empires" / "play").exists()  # a finished run keeps nothing


@dask_missing
def test_a_lost_scheduler_says_what_was_finished_and_resume_plays_the_rest(project, tmp_path, pool_bytes):
    cluster = LocalDask(tmp_path)  # its own scheduler and worker: this test kills them
    try:
        cluster.add_workers(1)
        _lose_the_scheduler(project, cluster, pool_bytes)
    finally:
        cluster.close()


def _lose_the_scheduler(project: Path, dask_cluster: LocalDask, pool: bytes) -> None:
    import dask

    seen: dict = {}
    watcher = kill_when_half_done(tasks_dir(project), 90, dask_cluster.close, seen)
    with dask.config.set({"distributed.comm.timeouts.connect": "3s"}):
        code, out, err = cs(*BALANCE, "--cluster", dask_cluster.address)
    watcher.join(timeout=5)
    assert code == 1, err
    kept = stored_games(tasks_dir(project))
    assert f"{kept} of 90 games were finished" in err and "--resume" in err and "Traceback" not in err
    assert kept < 90

    code, out, err = cs(*BALANCE, "--jobs", "2", "--resume")  # on the process pool this time
    assert code == 0, err
    assert balance_bytes(project) == pool


# ---- on a local cluster (--cluster local:N) ------------------------------------------------------

@dask_missing
def test_a_local_cluster_plays_the_round_robin_and_the_card_tests_with_the_pools_bytes(project, monkeypatch):
    from cardsmith.simulation import runs

    with_tests = [*BALANCE[:-1], "120"]  # --budget 120: card tests too
    code, _, err = cs(*with_tests, "--jobs", "2")
    assert code == 0, err
    pool = balance_bytes(project)
    assert json.loads(pool)["study_games"] > 0

    def on_this_machine(*args, **kwargs):
        raise AssertionError("games (the card tests among them) ran on this machine's process pool, not on the cluster")

    monkeypatch.setattr(runs, "run_tasks", on_this_machine)
    code, out, err = cs(*with_tests, "--cluster", "local:2")
    assert code == 0, err
    assert balance_bytes(project) == pool
    assert "ran on local Dask cluster of 2 workers" in out
    assert err.count("playing on the local Dask cluster") == 1  # one cluster for the round robin and the card tests
    assert "Dask dashboard: none (add --dashboard to serve one)" in err


@dask_missing
def test_a_local_cluster_serves_the_dashboard_when_asked(project):
    pytest.importorskip("bokeh")
    args = ["play", "solar-empires", "--deck", "chain", "--deck", "terracorp", "--agents", "random", "--games", "4"]
    code, out, err = cs(*args, "--cluster", "local:1", "--dashboard")
    assert code == 0, err
    assert "Dask dashboard: http://127.0.0.1:" in err
