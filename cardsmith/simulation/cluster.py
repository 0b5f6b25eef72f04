"""Play a run's games on a Dask cluster (`--cluster tcp://HOST:8786` or `--cluster local[:N]`).

Dask is an optional extra (`pip install 'cardsmith[distributed]'`) and is imported only here, only
when a cluster is asked for. Each Dask task plays a chunk of games and depends only on its inputs:
the set's files (sent once, as data, and unpacked by each worker into a folder named by their
digest), the decks as data, an optional starting position and the chunk's `GameTask`s (each game
with its own seed). A worker that dies has its chunks run again elsewhere, with the same results.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameRecord, GameTask, _play_task, deck_from_data, deck_to_data
from cardsmith.errors import CardsmithError, UsageError
from cardsmith.model import Deck

PIP_LINE = "pip install 'cardsmith[distributed]'"


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: an existing scheduler's address, or a local cluster of `workers` processes."""

    address: str | None = None
    workers: int | None = None

    @property
    def local(self) -> bool:
        return self.address is None

    def describe(self) -> str:
        if self.address:
            return f"Dask scheduler {self.address}"
        return f"local Dask cluster of {self.workers} worker{'s' if self.workers != 1 else ''}"


def parse_cluster(spec: str) -> ClusterSpec:
    """`tcp://HOST:PORT` (or tls://, ws://...) or `local[:N]` (N worker processes; default: all cores)."""
    text = spec.strip()
    if text == "local" or text.startswith("local:"):
        n = text.partition(":")[2]
        if not n:
            return ClusterSpec(workers=os.cpu_count() or 1)
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--cluster {spec}: the number of workers must be a whole number of at least 1",
                             hint="e.g. --cluster local:4")
        return ClusterSpec(workers=int(n))
    if "://" in text and text.split("://", 1)[1]:
        return ClusterSpec(address=text)
    raise UsageError(f"--cluster {spec}: give a scheduler address (tcp://HOST:8786) or local[:N]",
                     hint="start a scheduler with `dask scheduler`; see docs/distributed.md")


def require_dask() -> Any:
    """The `distributed` module, or a clear error (exit 2) saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise UsageError("--cluster needs Dask, which is not installed",
                         hint=f"install the extra: {PIP_LINE}") from None
    return distributed


# ---- what travels with the tasks -------------------------------------------------------------------

@dataclass(frozen=True)
class SetFiles:
    """A set folder as data: (relative path, bytes) pairs and their digest."""

    digest: str
    files: tuple[tuple[str, bytes], ...]


def set_files(folder: Path) -> SetFiles:
    """Every file of the set folder (its YAML, layouts, icons and art), skipping hidden names."""
    folder = Path(folder)
    files = []
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if p.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            files.append((rel.as_posix(), p.read_bytes()))
    h = hashlib.sha256()
    for name, data in files:
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return SetFiles(h.hexdigest(), tuple(files))


_GAMES: dict[str, Game] = {}


def _unpacked_game(files: SetFiles, name: str) -> Game:
    """The Game of a set sent as data: unpacked once per worker into a folder named by its digest."""
    if files.digest not in _GAMES:
        from cardsmith.simulation.sets import SetGameFactory

        root = Path(tempfile.gettempdir()) / "cardsmith-sets" / files.digest[:16] / name
        if not (root / ".complete").is_file():
            for rel, data in files.files:
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            (root / ".complete").write_text(files.digest)
        _GAMES[files.digest] = SetGameFactory(root)()
    return _GAMES[files.digest]


def ready_worker(files: SetFiles, set_name: str) -> str:
    """Run on every worker before the games: load the set's Game (once) and say which cardsmith it has."""
    from cardsmith import __version__

    _unpacked_game(files, set_name)
    return __version__


def play_chunk(files: SetFiles, set_name: str, decks_data: list, position: Mapping[str, Any] | None,
               tasks: list[GameTask]) -> list[GameRecord]:
    """One Dask task: play `tasks` (records without their action lists, which no figure needs)."""
    game = _unpacked_game(files, set_name)
    decks = [deck_from_data(d) for d in decks_data]
    out = []
    for t in tasks:
        r = _play_task(game, decks, t, position)
        r.actions = []
        out.append(r)
    return out


def _identity(x: Any) -> Any:
    return x


# ---- the client side -------------------------------------------------------------------------------

@dataclass
class ClusterRun:
    """What the run needs to tell the user as it goes and after it ends."""

    spec: ClusterSpec
    dashboard: str | None = None
    workers_seen: int = 0
    startup_seconds: float = 0.0  # starting a local cluster, or connecting to a scheduler


def _quiet_dask_logs() -> None:
    # Dask logs every lost worker and retry; the run itself says what matters on the terminal.
    for name in ("distributed", "distributed.scheduler", "distributed.worker", "distributed.nanny",
                 "distributed.client", "distributed.core", "distributed.comm", "distributed.batched"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _connect(spec: ClusterSpec) -> tuple[Any, Any]:
    """(client, local cluster or None), or a clear error when the scheduler cannot be reached."""
    distributed = require_dask()
    import dask

    _quiet_dask_logs()
    if spec.local:
        # The workers' statistical profiler samples every thread's stack 100 times a second: a cost of
        # its own for games that are pure Python, and nothing a balance run reads.
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            cluster = distributed.LocalCluster(n_workers=spec.workers, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                               silence_logs=logging.CRITICAL)
        return distributed.Client(cluster), cluster
    # How long to reach the scheduler, and to wait for it to come back once lost (Dask's own setting,
    # distributed.comm.timeouts.connect, 30 s unless configured).
    timeout = dask.config.get("distributed.comm.timeouts.connect")
    try:
        return distributed.Client(spec.address, timeout=timeout), None
    except (OSError, TimeoutError) as e:
        raise CardsmithError(f"cannot reach the Dask scheduler at {spec.address}: {e}",
                             hint="start one with `dask scheduler` and workers with `dask worker ADDRESS` "
                                  "(docs/distributed.md), or use --cluster local:N") from None


def _worker_count(client: Any) -> int:
    try:
        return len(client.nthreads())
    except Exception:  # noqa: BLE001 - a count for the progress line only; the run reports real failures
        return 0


def run_on_cluster(spec: ClusterSpec, set_folder: Path, set_name: str, decks: Sequence[Deck],
                   tasks: Sequence[GameTask], *, chunk: int, position: Mapping[str, Any] | None = None,
                   on_records: Callable[[list[GameRecord]], None], on_workers: Callable[[int], None],
                   on_start: Callable[[ClusterRun], None], finished_before: int = 0) -> ClusterRun:
    """Play `tasks` on the cluster in chunks of `chunk` games, handing each finished chunk to `on_records`.

    A lost scheduler or connection is a CardsmithError saying how many games were finished."""
    distributed = require_dask()
    files = set_files(set_folder)
    started = time.perf_counter()
    client, cluster = _connect(spec)
    done_games = finished_before
    try:
        _ready(client, spec, files, set_name)
        run = ClusterRun(spec, dashboard=_dashboard(client), startup_seconds=time.perf_counter() - started)
        run.workers_seen = _worker_count(client)
        on_start(run)
        # The set goes as a task's result, not scattered data: if the worker holding it dies, the
        # scheduler makes it again from the task, where scattered data would be lost.
        set_future = client.submit(_identity, files, key=f"cardsmith-set-{files.digest[:16]}", pure=False)
        data = [deck_to_data(d) for d in decks]
        chunks = [list(tasks[i:i + chunk]) for i in range(0, len(tasks), chunk)]
        futures = [client.submit(play_chunk, set_future, set_name, data, position, c, pure=False,
                                 key=f"cardsmith-games-{c[0].index}-{c[-1].index}-{os.getpid()}-{time.time_ns()}")
                   for c in chunks]
        last_count = 0.0
        for future in distributed.as_completed(futures):
            records = future.result()
            done_games += len(records)
            on_records(records)
            if time.monotonic() - last_count > 1.0:
                last_count = time.monotonic()
                n = _worker_count(client)
                run.workers_seen = max(run.workers_seen, n)
                on_workers(n)
    except (OSError, TimeoutError, CancelledError, distributed.KilledWorker) as e:
        # The cluster went away (or kept losing workers): say what is finished. A game's own error
        # (an agent's illegal answer, a rules bug) is not caught here and reads as it does on the pool.
        raise _lost(spec, e, done_games, len(tasks) + finished_before) from None
    finally:
        _close(client, cluster)
    return run


def _ready(client: Any, spec: ClusterSpec, files: SetFiles, set_name: str) -> None:
    """Every worker present loads the set now (a start-up cost, like a pool's fork) and has the same
    cardsmith as this machine; a worker that joins later loads the set with its first task."""
    from cardsmith import __version__

    try:
        versions = client.run(ready_worker, files, set_name)
    except (ImportError, AttributeError) as e:
        raise CardsmithError(f"the workers of the {spec.describe()} cannot run cardsmith: {e}",
                             hint="install the same cardsmith (and any game package the set uses) on every worker; "
                                  "see docs/distributed.md") from None
    other = {w: v for w, v in versions.items() if v != __version__}
    if other:
        listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
        raise CardsmithError(f"workers run another cardsmith than this machine ({__version__}): {listed}",
                             hint="install the same cardsmith version everywhere, so every worker plays the same games")


def _lost(spec: ClusterSpec, e: BaseException, done: int, total: int) -> CardsmithError:
    if type(e).__name__ == "KilledWorker":
        cause = f"workers of the {spec.describe()} kept dying while playing the same games ({e})"
    elif isinstance(e, OSError) and str(e).strip():
        cause = f"lost the connection to the {spec.describe()} ({str(e).strip().splitlines()[0]})"
    else:
        cause = f"lost the connection to the {spec.describe()}"
    return CardsmithError(f"{cause}; {done:,} of {total:,} games were finished and are kept",
                          hint="run the same command again with --resume to play only the rest")


def _dashboard(client: Any) -> str | None:
    """The dashboard's address when the scheduler serves one (it needs bokeh; without it the
    scheduler's web server still answers, but has no dashboard page)."""
    import urllib.request

    try:
        link = str(client.dashboard_link)
        with urllib.request.urlopen(link, timeout=3) as reply:
            return link if reply.status == 200 else None
    except Exception:  # noqa: BLE001 - no page, no link; no reason to stop a run
        return None


def _close(client: Any, cluster: Any) -> None:
    try:
        client.close(timeout=5)
    except Exception:  # noqa: BLE001 - closing a client whose scheduler is gone can fail; nothing to keep
        pass
    if cluster is not None:
        try:
            cluster.close(timeout=10)
        except Exception:  # noqa: BLE001
            pass
