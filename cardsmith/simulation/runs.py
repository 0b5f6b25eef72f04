"""Run a list of games where the user said (the process pool, or a Dask cluster), keeping finished
chunks for `--resume`, showing live progress, and recording where the run went and how fast.

The records depend only on the games' seeds, never on where or in which order they were played, so
the figures (balance.json) are the same everywhere. Where it ran (executor, workers, wall time,
games per second) is kept apart, in `RunInfo`: the report shows it, `run.json` holds it.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from cardsmith.engine.contract import Game
from cardsmith.engine.runner import GameRecord, GameTask, default_jobs, run_tasks
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Deck


@dataclass
class RunInfo:
    """Where and how fast a run went: nothing here is a figure of the games."""

    where: str
    workers: int
    wall_seconds: float = 0.0
    games: int = 0  # played in this run
    resumed: int = 0  # finished by an earlier run and read back
    dashboard: str | None = None
    startup_seconds: float = 0.0  # of the wall time: starting or reaching a Dask cluster

    @property
    def games_per_second(self) -> float:
        """Games played per second once the cluster was up (the start-up is a one-off)."""
        playing = self.wall_seconds - self.startup_seconds
        return self.games / playing if playing > 0 else 0.0

    @property
    def worker_text(self) -> str:
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "wall_seconds": round(self.wall_seconds, 3),
                "startup_seconds": round(self.startup_seconds, 3), "games_per_second": round(self.games_per_second, 2)}

    def line(self) -> str:
        resumed = f" ({self.resumed:,} more read back from an earlier run)" if self.resumed else ""
        start = f" (of which {self.startup_seconds:.1f} s reaching the cluster)" if self.startup_seconds else ""
        return (f"ran on {self.where}: {self.worker_text}, {self.games:,} games in {self.wall_seconds:.1f} s{start}, "
                f"{self.games_per_second:.1f} games/s{resumed}")


class _Session:
    """The cluster session runs share (the same object in a Where and its copies)."""

    def __init__(self) -> None:
        self.open: Any = None  # a cluster.ClusterSession once a run has reached the cluster
        self.held = False  # inside `with where:` the session outlives a run


@dataclass
class Where:
    """Where the user asked the games to run, and what a run needs besides the games.

    Used as `with where:` (as the commands do), every run on a cluster shares one connection (one
    local cluster, started once) until the block ends; otherwise each run connects and closes."""

    jobs: int | None = None
    cluster: str | None = None  # --cluster text
    set_folder: Path | None = None  # the set, sent to cluster workers as data
    store: Path | None = None  # keep finished chunks here (None: keep nothing)
    resume: bool = False
    progress: bool = False
    notices: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))
    dashboard: bool = False  # serve Dask's dashboard from a local cluster
    session: _Session = field(default_factory=_Session, repr=False, compare=False)

    def __enter__(self) -> "Where":
        self.session.held = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self.session.held = False
        self.close()

    def close(self) -> None:
        """Close the cluster session, if one is open (a local cluster stops)."""
        if self.session.open is not None:
            self.session.open.close()
            self.session.open = None

    def elsewhere(self) -> "Where":
        """The same place for other games of the command (the card tests): nothing kept, no resume,
        the same cluster session."""
        return replace(self, store=None, resume=False)


def run_games(factory: Callable[[], Game] | None, game: Game, decks: Sequence[Deck], tasks: Sequence[GameTask],
              where: Where, *, description: str = "playing",
              position: Mapping[str, Any] | None = None) -> tuple[list[GameRecord], RunInfo]:
    """Every task's record (in task order) and where the run went."""
    from cardsmith.simulation._taskstore import TaskStore, run_key

    tasks = list(tasks)
    spec = None
    if where.cluster is not None:
        from cardsmith.simulation._cluster import parse_cluster, require_dask

        spec = parse_cluster(where.cluster, where.dashboard)
        require_dask()
    store = None
    done: list[GameRecord] = []
    if where.store is not None:
        assert where.set_folder is not None, "a kept run needs the set's folder for its key"
        from cardsmith.simulation._cluster import set_files

        key = run_key(set_files(where.set_folder).digest, decks, tasks, position)
        store = TaskStore(where.store, key, len(tasks))
        done = store.start(where.resume)
    finished = {r.index for r in done}
    todo = [t for t in tasks if t.index not in finished]
    records = list(done)
    workers = spec.workers or 0 if spec else min(where.jobs or default_jobs(), max(1, len(todo)))
    info = RunInfo(spec.describe() if spec else f"a process pool of {workers} jobs" if workers > 1 else "one process",
                   workers, resumed=len(done))
    if done:
        where.notices(f"resuming: {len(done):,} of {len(tasks):,} games were finished by an earlier run")
    started = time.perf_counter()
    with _Progress(where.progress, description, len(tasks), len(done), None if spec else workers) as bar:
        def keep(chunk: list[GameRecord]) -> None:
            if store is not None:
                store.save(chunk)
            records.extend(chunk)
            bar.advance(len(chunk))

        try:
            if todo and spec is not None:
                _on_cluster(spec, where, factory, game, decks, todo, position, keep, bar, info, len(done))
            elif todo:
                run_tasks(factory, decks, todo, jobs=where.jobs, game=game, position=position, on_records=keep)
        except CardsmithError as e:
            if store is not None and "--resume" in str(e):
                e.message += f" in {store.folder}"
            raise
        except KeyboardInterrupt:
            if store is not None:
                where.notices(f"stopped: {len(records):,} of {len(tasks):,} games were finished and are kept in "
                              f"{store.folder}; run the same command with --resume to play only the rest")
            raise
    info.wall_seconds = time.perf_counter() - started
    info.games = len(records) - len(done)
    if store is not None:
        store.clear()
    records.sort(key=lambda r: r.index)
    return records, info


def _on_cluster(spec: Any, where: Where, factory: Any, game: Game, decks: Sequence[Deck], todo: list[GameTask],
                position: Any, keep: Callable[[list[GameRecord]], None], bar: "_Progress", info: RunInfo,
                before: int) -> None:
    from cardsmith.simulation._cluster import ClusterSession, game_recipe

    assert where.set_folder is not None, "a cluster run needs the set's folder to send"
    recipe = game_recipe(factory, where.set_folder.name)
    session = where.session.open
    try:
        if session is None:
            session = where.session.open = ClusterSession(spec, where.set_folder)
            session.open(recipe, game)
            info.dashboard, info.startup_seconds = session.dashboard, session.startup_seconds
            link = session.dashboard or (
                "none (add --dashboard to serve one)" if spec.local else
                "none (the scheduler serves no dashboard page: it needs bokeh, pip install bokeh)")
            where.notices(f"playing on the {spec.describe()}; Dask dashboard: {link}")
        workers = session.workers()
        bar.workers(workers)
        bar.restart_clock()  # games per second from when the cluster is up
        # About eight tasks a worker (as the process pool's chunks), of at most 200 games: a task's
        # round trip through the scheduler costs milliseconds, and a dead worker's tasks are played again.
        chunk = max(1, min(200, len(todo) // (8 * max(1, workers))))
        info.workers = session.play(recipe, decks, todo, chunk=chunk, position=position, on_records=keep,
                                    on_workers=bar.workers, finished_before=before, kept=where.store is not None)
    except BaseException:
        where.close()  # a session that failed is not used again
        raise
    if not where.session.held:
        where.close()


class _Progress:
    """Live progress on stderr: games done, games per second, workers (nothing when not shown)."""

    def __init__(self, show: bool, description: str, total: int, done: int, workers: int | None):
        """`workers` None: a cluster still starting."""
        self.show, self.description, self.total, self.done, self.n = show, description, total, done, workers
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> "_Progress":
        if not self.show:
            return self
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
            TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[workers]}"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True,
        )
        self._progress.__enter__()
        self._task = self._progress.add_task(self.description, total=self.total, completed=self.done,
                                             rate="", workers=self._workers_text())
        self.restart_clock()
        return self

    def _workers_text(self) -> str:
        return "starting the cluster" if self.n is None else f"{self.n} worker{'s' if self.n != 1 else ''}"

    def restart_clock(self) -> None:
        self._started, self._first = time.perf_counter(), self.done

    def advance(self, n: int) -> None:
        self.done += n
        if self._progress is not None:
            elapsed = time.perf_counter() - self._started
            rate = f"{(self.done - self._first) / elapsed:.1f}/s" if elapsed > 0 else ""
            self._progress.update(self._task, advance=n, rate=rate)

    def workers(self, n: int) -> None:
        self.n = n
        if self._progress is not None:
            self._progress.update(self._task, workers=self._workers_text())

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
