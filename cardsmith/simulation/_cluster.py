"""Play a run's games on a Dask cluster (`--cluster tcp://HOST:8786` or `--cluster local[:N]`).

Dask is an optional extra (`pip install 'cardsmith[distributed]'`) and is imported only here, only
when a cluster is asked for. Each Dask task plays a chunk of games and depends only on its inputs:
the set's files (sent once, as data, and unpacked by each worker into a folder named by their
digest), the recipe of the game (the run's factory, made again from that folder: the set's Game, or
the card tests' Game with fillers), the decks as data, an optional starting position and the chunk's
`GameTask`s (each game with its own seed). A worker that dies has its chunks run again elsewhere, with
the same results. One `ClusterSession` serves every run of a command (the round robin, then the card
tests), so a local cluster starts once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import multiprocessing
import os
import tempfile
import time
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameRecord, GameTask, _play_task, deck_from_data, deck_to_data
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.sets.model import Deck

PIP_LINE = "pip install 'cardsmith[distributed]'"


@dataclass(frozen=True)
class ClusterSpec:
    """Where to run: an existing scheduler's address, or a local cluster of `workers` processes (with
    Dask's dashboard only when `dashboard` is asked for: starting it costs more than a second)."""

    address: str | None = None
    workers: int | None = None
    dashboard: bool = False

    @property
    def local(self) -> bool:
        return self.address is None

    def describe(self) -> str:
        if self.address:
            return f"Dask scheduler {self.address}"
        return f"local Dask cluster of {self.workers} worker{'s' if self.workers != 1 else ''}"


def parse_cluster(spec: str, dashboard: bool = False) -> ClusterSpec:
    """`tcp://HOST:PORT` (or tls://, ws://...) or `local[:N]` (N worker processes; default: all cores)."""
    text = spec.strip()
    if text == "local" or text.startswith("local:"):
        n = text.partition(":")[2]
        if not n:
            return ClusterSpec(workers=os.cpu_count() or 1, dashboard=dashboard)
        if not n.isdigit() or int(n) < 1:
            raise UsageError(f"--cluster {spec}: the number of workers must be a whole number of at least 1",
                             hint="e.g. --cluster local:4")
        return ClusterSpec(workers=int(n), dashboard=dashboard)
    if "://" in text and text.split("://", 1)[1]:
        if dashboard:
            raise UsageError("--dashboard is for --cluster local[:N]; a scheduler you started serves its own dashboard",
                             hint="drop --dashboard (the run prints the scheduler's dashboard link when it serves one)")
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


def game_recipe(factory: Any, set_name: str) -> Any:
    """What a task says about its game: the run's factory (`SetGameFactory`, or the card tests'
    `FillerGameFactory`: frozen dataclasses with a `path`) with the set's folder replaced by its name;
    each worker points it at its own unpacked copy. Any other factory: the set's own Game."""
    if dataclasses.is_dataclass(factory) and not isinstance(factory, type) and hasattr(factory, "path"):
        return dataclasses.replace(factory, path=Path(set_name))
    from cardsmith.simulation.sets import SetGameFactory

    return SetGameFactory(Path(set_name))


# A worker's games, made once per (set digest, recipe). A local cluster whose workers are forked
# finds the run's Game here already (the client puts it here just before the fork), as the process
# pool's forked workers do; other workers unpack the set and make it on first use.
_GAMES: dict[tuple[str, Any], Game] = {}


def _unpacked_game(files: SetFiles, recipe: Any) -> Game:
    """The Game of a set sent as data, made from a folder named by the files' digest (unpacked once)."""
    key = (files.digest, recipe)
    if key not in _GAMES:
        root = Path(tempfile.gettempdir()) / "cardsmith-sets" / files.digest[:16] / recipe.path.name
        if not (root / ".complete").is_file():
            for rel, data in files.files:
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            (root / ".complete").write_text(files.digest)
        _GAMES[key] = dataclasses.replace(recipe, path=root)()
    return _GAMES[key]


def ready_worker(files: SetFiles, recipe: Any) -> str:
    """Run on every worker before the games: make the run's Game (once) and say which cardsmith it has."""
    from cardsmith import __version__

    _unpacked_game(files, recipe)
    return __version__


def play_chunk(files: SetFiles, recipe: Any, decks_data: list, position: Mapping[str, Any] | None,
               tasks: list[GameTask]) -> list[GameRecord]:
    """One Dask task: play `tasks` (records without their action lists, which no figure needs)."""
    game = _unpacked_game(files, recipe)
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

# A local cluster shares the machine with its own scheduler and client, so the periodic work Dask does
# for long-lived clusters is turned down (measured in docs/distributed.md, "Speed"): the workers'
# statistical profiler (100 stack samples a second), the event-loop health tick (50 a second in the
# scheduler, the client and every nanny and worker) and the system monitor (twice a second, with disk
# counters). memory_limit=0 (below) also stops the memory monitors (ten times a second in every nanny
# and worker) and spilling: a task's data is a few kilobytes.
LOCAL_SETTINGS: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.disk": False,
}


def _local_settings() -> dict[str, Any]:
    settings = dict(LOCAL_SETTINGS)
    # Workers start the way this Python starts the process pool's: forked where that is the default
    # (Linux), so they inherit cardsmith, Dask and the run's Game instead of importing and loading
    # them again (Dask's default, spawn, takes seconds of a small run).
    if multiprocessing.get_start_method(allow_none=False) == "fork":
        settings["distributed.worker.multiprocessing-method"] = "fork"
    return settings


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
        with dask.config.set(_local_settings()):
            # The scheduler's web server always runs (on a free loopback port, not 8787, which another
            # cluster may hold); the dashboard's pages on it only when asked for.
            cluster = distributed.LocalCluster(n_workers=spec.workers, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", memory_limit=0, dashboard_address="127.0.0.1:0",
                                               scheduler_kwargs={"dashboard": spec.dashboard},
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


class ClusterSession:
    """A connection to a cluster (and the local cluster itself), opened by a command's first run on
    it and kept for its later runs; the set's files go to the cluster once."""

    def __init__(self, spec: ClusterSpec, set_folder: Path):
        self.spec, self.set_name = spec, Path(set_folder).name
        self.files = set_files(set_folder)
        self.client: Any = None
        self.cluster: Any = None
        self.dashboard: str | None = None
        self.startup_seconds = 0.0  # starting a local cluster, or connecting to a scheduler
        self._set_future: Any = None

    def open(self, recipe: Any, game: Game | None) -> None:
        """Start or reach the cluster and have every worker make `recipe`'s Game (`game` is that Game,
        handed to forked local workers)."""
        started = time.perf_counter()
        key = (self.files.digest, recipe)
        if self.spec.local and game is not None:
            _GAMES[key] = game
        try:
            self.client, self.cluster = _connect(self.spec)
        finally:
            _GAMES.pop(key, None)
        _ready(self.client, self.spec, self.files, recipe)
        self.dashboard = _dashboard(self.client, self.spec)
        self.startup_seconds = time.perf_counter() - started
        # The set goes as a task's result, not scattered data: if the worker holding it dies, the
        # scheduler makes it again from the task, where scattered data would be lost.
        self._set_future = self.client.submit(_identity, self.files, key=f"cardsmith-set-{self.files.digest[:16]}",
                                              pure=False)

    def workers(self) -> int:
        return _worker_count(self.client)

    def play(self, recipe: Any, decks: Sequence[Deck], tasks: Sequence[GameTask], *, chunk: int,
             position: Mapping[str, Any] | None, on_records: Callable[[list[GameRecord]], None],
             on_workers: Callable[[int], None], finished_before: int = 0, kept: bool = True) -> int:
        """Play `tasks` in chunks of `chunk` games, handing each finished chunk to `on_records`; the
        most workers seen. A lost scheduler or connection is a CardsmithError saying what was finished."""
        distributed = require_dask()
        done_games, seen = finished_before, self.workers()
        try:
            data = [deck_to_data(d) for d in decks]
            chunks = [list(tasks[i:i + chunk]) for i in range(0, len(tasks), chunk)]
            stamp = f"{os.getpid()}-{time.time_ns()}"
            futures = [self.client.submit(play_chunk, self._set_future, recipe, data, position, c, pure=False,
                                          key=f"cardsmith-games-{c[0].index}-{c[-1].index}-{stamp}")
                       for c in chunks]
            last_count = 0.0
            for future in distributed.as_completed(futures):
                records = future.result()
                done_games += len(records)
                on_records(records)
                if time.monotonic() - last_count > 1.0:
                    last_count = time.monotonic()
                    n = self.workers()
                    seen = max(seen, n)
                    on_workers(n)
        except (OSError, TimeoutError, CancelledError, distributed.KilledWorker) as e:
            # The cluster went away (or kept losing workers): say what is finished. A game's own error
            # (an agent's illegal answer, a rules bug) is not caught here and reads as it does on the pool.
            raise _lost(self.spec, e, done_games, len(tasks) + finished_before, kept) from None
        return seen

    def close(self) -> None:
        _close(self.client, self.cluster)
        self.client = self.cluster = None


def _ready(client: Any, spec: ClusterSpec, files: SetFiles, recipe: Any) -> None:
    """Every worker present makes the run's Game now (a start-up cost, like a pool's fork) and has the
    same cardsmith as this machine; a worker that joins later makes it with its first task."""
    from cardsmith import __version__

    try:
        versions = client.run(ready_worker, files, recipe)
    except (ImportError, AttributeError) as e:
        raise CardsmithError(f"the workers of the {spec.describe()} cannot run cardsmith: {e}",
                             hint="install the same cardsmith (and any game package the set uses) on every worker; "
                                  "see docs/distributed.md") from None
    other = {w: v for w, v in versions.items() if v != __version__}
    if other:
        listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
        raise CardsmithError(f"workers run another cardsmith than this machine ({__version__}): {listed}",
                             hint="install the same cardsmith version everywhere, so every worker plays the same games")


def _lost(spec: ClusterSpec, e: BaseException, done: int, total: int, kept: bool = True) -> CardsmithError:
    if type(e).__name__ == "KilledWorker":
        cause = f"workers of the {spec.describe()} kept dying while playing the same games ({e})"
    elif isinstance(e, OSError) and str(e).strip():
        cause = f"lost the connection to the {spec.describe()} ({str(e).strip().splitlines()[0]})"
    else:
        cause = f"lost the connection to the {spec.describe()}"
    if not kept:
        return CardsmithError(f"{cause}; {done:,} of {total:,} games of this step were finished (not kept)",
                              hint="run the same command again once the cluster is back")
    return CardsmithError(f"{cause}; {done:,} of {total:,} games were finished and are kept",
                          hint="run the same command again with --resume to play only the rest")


def _dashboard(client: Any, spec: ClusterSpec) -> str | None:
    """The dashboard's address when the scheduler serves one (it needs bokeh; without it the
    scheduler's web server still answers, but has no dashboard page)."""
    import importlib.util
    import socket
    import urllib.request

    if spec.local:  # our own scheduler, started with a dashboard only when asked
        return str(client.dashboard_link) if spec.dashboard and importlib.util.find_spec("bokeh") else None
    link = None
    try:
        link = str(client.dashboard_link)
        with urllib.request.urlopen(link, timeout=3) as reply:
            return link if reply.status == 200 else None
    except (TimeoutError, socket.timeout):
        return link  # the page is there, being drawn: bokeh takes seconds on a busy machine
    except Exception:  # noqa: BLE001 - no page, no link; no reason to stop a run
        return None


def _close(client: Any, cluster: Any) -> None:
    if client is not None:
        try:
            client.close(timeout=5)
        except Exception:  # noqa: BLE001 - closing a client whose scheduler is gone can fail; nothing to keep
            pass
    if cluster is not None:
        try:
            cluster.close(timeout=10)
        except Exception:  # noqa: BLE001
            pass
